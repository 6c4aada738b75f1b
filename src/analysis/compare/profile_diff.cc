#include "analysis/compare/profile_diff.h"

#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/compare/diff_columns.h"

namespace macroscope::analysis::compare {

namespace {

constexpr size_t kInclusive = 1;  // the measure rows are sorted by

// A run's sums per container: calls, exclusive time, and the inclusive
// time of its outermost calls.
std::unordered_map<ContainerId, std::vector<int64_t>> ContainerSums(const RunProfile& run) {
  std::unordered_map<ContainerId, std::vector<int64_t>> out;
  for (const ContainerProfile& c : run.profile.containers) {
    FunctionSums s;
    s.inclusive = c.outermost;
    for (const auto& [function, f] : c.functions) {
      s.calls += f.calls;
      s.exclusive.Merge(f.exclusive);
    }
    out.emplace(c.container, ProfileValues(run.trace, s));
  }
  return out;
}

std::vector<int64_t> Of(const std::unordered_map<ContainerId, std::vector<int64_t>>& sums, ContainerId id) {
  auto it = sums.find(id);
  return it == sums.end() ? std::vector<int64_t>() : it->second;
}

}  // namespace

Table FunctionDiffTable(const RunProfile& a, const RunProfile& b) {
  // By name: the two traces' string ids are their own.
  std::map<std::string, std::pair<FunctionSums, FunctionSums>, std::less<>> sums;  // name -> (A's, B's)
  for (const RunProfile* run : {&a, &b}) {
    for (const ContainerProfile& c : run->profile.containers) {
      for (const auto& [function, f] : c.functions) {
        auto& both = sums[std::string(run->trace.Str(function))];
        FunctionSums& s = run == &a ? both.first : both.second;
        s.calls += f.calls;
        s.inclusive.Merge(f.inclusive);
        s.exclusive.Merge(f.exclusive);
      }
    }
  }
  std::vector<DiffRow> rows;
  for (const auto& [name, both] : sums)
    rows.push_back({{Cell(name)}, ProfileValues(a.trace, both.first), ProfileValues(b.trace, both.second)});
  return DiffTable({"function"}, ProfileMeasures(), kInclusive, std::move(rows));
}

Table ContainerDiffTable(const RunProfile& a, const RunProfile& b, const ContainerMatch& match) {
  const auto a_sums = ContainerSums(a), b_sums = ContainerSums(b);
  std::vector<DiffRow> rows;
  for (const auto& [ia, ib] : match.matched) {
    if (!a_sums.contains(ia) && !b_sums.contains(ib)) continue;  // no states in either
    const std::string a_path = a.trace.ContainerPath(ia), b_path = b.trace.ContainerPath(ib);
    rows.push_back({{Cell(a_path), b_path == a_path ? Cell() : Cell(b_path)}, Of(a_sums, ia), Of(b_sums, ib)});
  }
  return DiffTable({"container", "container_b"}, ProfileMeasures(), kInclusive, std::move(rows));
}

Table UnmatchedTable(const RunProfile& a, const RunProfile& b, const ContainerMatch& match) {
  Table table({"run", "container", "calls", "inclusive_ns", "exclusive_ns"});
  for (auto [run, name, ids] : {std::tuple{&a, "A", &match.only_a}, std::tuple{&b, "B", &match.only_b}}) {
    const auto sums = ContainerSums(*run);
    for (const ContainerId id : *ids) {
      std::vector<int64_t> values = Of(sums, id);
      values.resize(ProfileMeasures().size());
      table.Put(name);
      table.Put(run->trace.ContainerPath(id));
      for (const int64_t v : values) table.Put(v);
    }
  }
  return table;
}

std::string MatchingSummary(const Trace& a, const Trace& b, const ContainerMatch& match, size_t listed) {
  std::string out =
      std::to_string(match.matched.size()) + " container" + (match.matched.size() == 1 ? "" : "s") + " matched";
  for (auto [trace, name, ids] : {std::tuple{&a, "A", &match.only_a}, std::tuple{&b, "B", &match.only_b}}) {
    if (ids->empty()) {
      out += std::string("; none only in ") + name;
      continue;
    }
    out += std::string("; only in ") + name + ": ";
    for (size_t i = 0; i < ids->size() && i < listed; ++i) out += (i ? ", " : "") + trace->ContainerPath((*ids)[i]);
    if (ids->size() > listed) out += " and " + std::to_string(ids->size() - listed) + " more";
  }
  return out;
}

}  // namespace macroscope::analysis::compare
