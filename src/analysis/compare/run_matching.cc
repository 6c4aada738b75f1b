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

// Each trace's containers but the root, in id order (their creation order),
// with their paths.
std::vector<std::pair<ContainerId, std::string>> Paths(const Trace& trace) {
  std::vector<std::pair<ContainerId, std::string>> out;
  for (ContainerId id = 1; id < trace.containers().size(); ++id) out.emplace_back(id, trace.ContainerPath(id));
  return out;
}

// Pairs the A containers of `a` with the B containers of `b` whose key is
// the same, k-th with k-th in order of appearance; what is paired is marked.
template <class Key>
void MatchBy(const std::vector<std::pair<ContainerId, std::string>>& a,
             const std::vector<std::pair<ContainerId, std::string>>& b, Key key, std::vector<bool>& a_done,
             std::vector<bool>& b_done, std::vector<std::pair<ContainerId, ContainerId>>& matched) {
  std::unordered_map<std::string, std::deque<size_t>> by_key;  // key -> B's positions not yet paired
  for (size_t j = 0; j < b.size(); ++j)
    if (!b_done[j]) by_key[key(b[j].second)].push_back(j);
  for (size_t i = 0; i < a.size(); ++i) {
    if (a_done[i]) continue;
    auto it = by_key.find(key(a[i].second));
    if (it == by_key.end() || it->second.empty()) continue;
    const size_t j = it->second.front();
    it->second.pop_front();
    a_done[i] = b_done[j] = true;
    matched.emplace_back(a[i].first, b[j].first);
  }
}

}  // namespace

std::string PathWithoutIds(std::string_view path) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
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

ContainerMatch MatchContainers(const Trace& a, const Trace& b) {
  const auto a_paths = Paths(a), b_paths = Paths(b);
  std::vector<bool> a_done(a_paths.size()), b_done(b_paths.size());
  std::vector<std::pair<ContainerId, ContainerId>> matched;
  MatchBy(a_paths, b_paths, [](const std::string& p) { return p; }, a_done, b_done, matched);
  MatchBy(a_paths, b_paths, [](const std::string& p) { return PathWithoutIds(p); }, a_done, b_done, matched);
  ContainerMatch out;
  // In A's order: the exact matches and those without ids were found apart.
  std::sort(matched.begin(), matched.end());
  out.matched = std::move(matched);
  for (size_t i = 0; i < a_paths.size(); ++i)
    if (!a_done[i]) out.only_a.push_back(a_paths[i].first);
  for (size_t j = 0; j < b_paths.size(); ++j)
    if (!b_done[j]) out.only_b.push_back(b_paths[j].first);
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
