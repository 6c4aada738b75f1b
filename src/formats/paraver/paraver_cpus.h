// The CPU each thread's records name by default, shared by the reader
// (which keeps a record's CPU as a user field only when it is another) and
// the writer (which writes it back): threads take the CPUs of their task's
// node in order, as Paraver's tools lay them out. Paraver drops a record
// whose CPU is on another node than its thread's, so a thread without a
// CPU left on its node (or without nodes described) names CPU 0, none.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/paraver/paraver_lines.h"

namespace macroscope::paraver {

// More nodes, or CPUs in a node, than this is taken for a damaged header.
inline constexpr uint64_t kMaxNodes = uint64_t{1} << 20;

// The CPUs of each node a header's nodes field gives ("0": no node
// described, "N": N nodes of one CPU, "N(c,...)"); false when it is not one.
inline bool NodeCpus(std::string_view nodes, std::vector<uint64_t>& cpus) {
  cpus.clear();
  const size_t open = nodes.find('(');
  uint64_t n = 0;
  if (open == std::string_view::npos) {
    if (!ParseUnsigned(nodes, n) || n > kMaxNodes) return false;
    cpus.assign(n, 1);
    return true;
  }
  if (!nodes.ends_with(')') || !ParseUnsigned(nodes.substr(0, open), n)) return false;
  const std::string_view list = nodes.substr(open + 1, nodes.size() - open - 2);
  for (size_t from = 0;;) {
    const size_t comma = list.find(',', from);
    uint64_t c = 0;
    if (!ParseUnsigned(list.substr(from, comma - from), c) || c > kMaxNodes || cpus.size() >= kMaxNodes) return false;
    cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return cpus.size() == n;
}

// Hands out the CPUs of each node in order.
class CpuLayout {
 public:
  explicit CpuLayout(const std::vector<uint64_t>& node_cpus) : cpus_(node_cpus), used_(node_cpus.size(), 0) {
    first_.assign(node_cpus.size() + 1, 1);
    for (size_t n = 0; n < node_cpus.size(); ++n) first_[n + 1] = first_[n] + node_cpus[n];
  }
  // The CPU of the next thread on `node` (1-based), 0 when there is none.
  uint64_t Next(uint64_t node) {
    if (node == 0 || node > cpus_.size() || used_[node - 1] >= cpus_[node - 1]) return 0;
    return first_[node - 1] + used_[node - 1]++;
  }

 private:
  std::vector<uint64_t> cpus_, used_, first_;
};

}  // namespace macroscope::paraver
