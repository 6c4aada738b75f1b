#include "analysis/compare/run_matching.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <string>
#include <unordered_map>

#include "analysis/kernel/kernel_entities.h"
#include "util/error.h"

namespace macroscope::analysis::compare {

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool IsHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Pairs the paths of `a` with those of `b` whose key is the same, k-th with
// k-th in order of appearance; what is paired is marked.
template <class Key>
void MatchBy(const std::vector<std::string>& a, const std::vector<std::string>& b, Key key, std::vector<bool>& a_done,
             std::vector<bool>& b_done, std::vector<std::pair<size_t, size_t>>& matched) {
  std::unordered_map<std::string, std::deque<size_t>> by_key;  // key -> B's positions not yet paired
  for (size_t j = 0; j < b.size(); ++j)
    if (!b_done[j]) by_key[key(b[j])].push_back(j);
  for (size_t i = 0; i < a.size(); ++i) {
    if (a_done[i]) continue;
    auto it = by_key.find(key(a[i]));
    if (it == by_key.end() || it->second.empty()) continue;
    const size_t j = it->second.front();
    it->second.pop_front();
    a_done[i] = b_done[j] = true;
    matched.emplace_back(i, j);
  }
}

}  // namespace

std::string PathWithoutIds(std::string_view path) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    if (path.substr(i, 2) == "0x" && i + 2 < path.size() && IsHexDigit(path[i + 2])) {
      size_t j = i + 2;
      while (j < path.size() && IsHexDigit(path[j])) ++j;
      out += '#';
      i = j;
      continue;
    }
    if (!IsDigit(path[i])) {
      out += path[i++];
      continue;
    }
    size_t j = i;
    while (j < path.size() && IsDigit(path[j])) ++j;
    const bool dotted_before = i >= 2 && path[i - 1] == '.' && IsDigit(path[i - 2]);
    const bool dotted_after = j + 1 < path.size() && path[j] == '.' && IsDigit(path[j + 1]);
    if (dotted_before || dotted_after) {
      out.append(path.substr(i, j - i));
    } else {
      out += '#';
    }
    i = j;
  }
  return out;
}

std::vector<std::pair<size_t, size_t>> MatchPaths(const std::vector<std::string>& a,
                                                  const std::vector<std::string>& b) {
  std::vector<bool> a_done(a.size()), b_done(b.size());
  std::vector<std::pair<size_t, size_t>> matched;
  MatchBy(a, b, [](const std::string& p) { return p; }, a_done, b_done, matched);
  MatchBy(a, b, [](const std::string& p) { return PathWithoutIds(p); }, a_done, b_done, matched);
  // In A's order: the exact matches and those without ids were found apart.
  std::sort(matched.begin(), matched.end());
  return matched;
}

ContainerMatch MatchContainers(const Trace& a, const Trace& b) {
  // Each trace's containers but the root, in id order (their creation
  // order): position i is container i + 1.
  auto paths = [](const Trace& trace) {
    std::vector<std::string> out;
    for (ContainerId id = 1; id < trace.containers().size(); ++id) out.push_back(trace.ContainerPath(id));
    return out;
  };
  const std::vector<std::string> a_paths = paths(a), b_paths = paths(b);
  std::vector<bool> a_done(a_paths.size()), b_done(b_paths.size());
  ContainerMatch out;
  for (const auto& [i, j] : MatchPaths(a_paths, b_paths)) {
    a_done[i] = b_done[j] = true;
    out.matched.emplace_back(static_cast<ContainerId>(i + 1), static_cast<ContainerId>(j + 1));
  }
  for (size_t i = 0; i < a_paths.size(); ++i)
    if (!a_done[i]) out.only_a.push_back(static_cast<ContainerId>(i + 1));
  for (size_t j = 0; j < b_paths.size(); ++j)
    if (!b_done[j]) out.only_b.push_back(static_cast<ContainerId>(j + 1));
  return out;
}

std::string_view TraceKind(const Trace& trace) {
  for (ContainerId id = 1; id < trace.containers().size(); ++id) {
    if (kernel::ContainerIs(trace, id, kernel::kCpuAlias) || kernel::ContainerIs(trace, id, kernel::kThreadAlias))
      return "a kernel trace (CPUs and threads from scheduler events)";
  }
  return "a user-space trace (processes, ranks or threads and their functions)";
}

void CheckComparable(const Trace& a, std::string_view a_name, const Trace& b, std::string_view b_name) {
  const std::string_view a_kind = TraceKind(a), b_kind = TraceKind(b);
  if (a_kind != b_kind) {
    throw UserError(std::string(a_name) + " is " + std::string(a_kind) + " but " + std::string(b_name) + " is " +
                    std::string(b_kind) + ": traces of different kinds cannot be compared");
  }
  if (MatchContainers(a, b).matched.empty()) {
    throw UserError(std::string(a_name) + " and " + std::string(b_name) +
                    " have no container in common (none has the same path, even with its ids taken out): "
                    "they are not runs of the same program");
  }
}

}  // namespace macroscope::analysis::compare
