#include "analysis/compare/thread_diff.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/compare/diff_columns.h"

namespace macroscope::analysis::compare {

namespace {

std::unordered_map<ContainerId, const kernel::ThreadRow*> ByContainer(const kernel::ProcessTableRows& threads) {
  std::unordered_map<ContainerId, const kernel::ThreadRow*> out;
  for (const kernel::ThreadRow& row : threads.rows) out.emplace(row.container, &row);
  return out;
}

std::vector<int64_t> Times(const kernel::ThreadRow& row) { return {row.running_ns(), row.runnable_ns, row.waiting_ns}; }

}  // namespace

Table ThreadDiffTable(const RunThreads& a, const RunThreads& b, const ContainerMatch& match) {
  const auto a_rows = ByContainer(a.threads), b_rows = ByContainer(b.threads);
  std::vector<DiffRow> rows;
  for (const auto& [ia, ib] : match.matched) {
    auto ra = a_rows.find(ia), rb = b_rows.find(ib);
    if (ra == a_rows.end() || rb == b_rows.end()) continue;  // not both threads
    const std::string a_path = a.trace.ContainerPath(ia), b_path = b.trace.ContainerPath(ib);
    rows.push_back({{Cell(a_path), b_path == a_path ? Cell() : Cell(b_path), Cell(ra->second->tid),
                     Cell(rb->second->tid)},
                    Times(*ra->second),
                    Times(*rb->second)});
  }
  static const std::vector<DiffMeasure> measures = {{"running", "_ns"}, {"runnable", "_ns"}, {"waiting", "_ns"}};
  return DiffTable({"thread", "thread_b", "tid_a", "tid_b"}, measures, 0, std::move(rows));
}

}  // namespace macroscope::analysis::compare
