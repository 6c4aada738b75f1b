// Kernel traces of two runs side by side (docs/compare.md): per thread
// matched between them (run_matching.h: by path, else by path without its
// ids), its running, runnable and waiting (blocked) time in A and B, their
// differences and ratios, from the kernel processes' table
// (kernel/process_table.h: the one thread-state accounting).
#pragma once

#include "analysis/compare/run_matching.h"
#include "analysis/kernel/process_table.h"
#include "analysis/table.h"
#include "model/trace.h"

namespace macroscope::analysis::compare {

struct RunThreads {
  const Trace& trace;
  const kernel::ProcessTableRows& threads;
};

// One row per matched pair of thread containers: thread (A's path),
// thread_b (B's path when it differs, else empty), tid_a, tid_b, then
// running, runnable and waiting as NAME_a_ns, NAME_b_ns, NAME_diff_ns,
// NAME_ratio (diff_columns.h), sorted by the absolute running difference.
Table ThreadDiffTable(const RunThreads& a, const RunThreads& b, const ContainerMatch& match);

}  // namespace macroscope::analysis::compare
