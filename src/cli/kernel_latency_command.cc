// `macroscope kernel latency TRACE --kind syscall|irq|sched`: per syscall,
// IRQ or thread the statistics of its durations (syscalls, handlers) or
// scheduling latencies (wakeup to switch in), or with --histogram their
// distribution over N bins (docs/kernel.md, "Latencies"). The measuring is
// analysis::kernel::LatencyTally's, the SQL functions kernel_latency() and
// kernel_latency_histogram() too; the trace streams through it.
#include <iostream>
#include <memory>

#include "analysis/kernel/latency.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::LatencyKind;

// What a person is told when a kernel trace gives no row of `kind`.
const char* WhatIsMissing(LatencyKind kind) {
  switch (kind) {
    case LatencyKind::kSyscall:
      return "no syscall entered and exited on a known thread: record syscalls (trace-cmd record -e syscalls, "
             "perf record -e 'raw_syscalls:*', lttng enable-event -k --syscall -a) with sched_switch";
    case LatencyKind::kIrq:
      return "no irq_handler_entry/exit or softirq_entry/exit pair: record -e irq (trace-cmd, perf 'irq:*') or "
             "lttng enable-event -k 'irq_*'";
    case LatencyKind::kSched:
      return "no sched_wakeup or sched_waking followed by its thread's switch in: record -e sched";
  }
  return "";
}

}  // namespace

void RegisterKernelLatency(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
    std::string kind;
    bool histogram = false;
    int64_t bins = 20;
    std::optional<std::string> name;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "latency", "Syscall, IRQ and softirq handler durations, or scheduling latencies (wakeup to switch in): "
                 "count, min, mean, max, stddev, p50, p90, p99 per name, or their histogram");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--kind", args->kind, "syscall, irq (hard IRQs and softirqs) or sched")->required();
  cmd->add_flag("--histogram", args->histogram, "The distribution instead: bin_start, bin_end, count (ns)");
  CLI::Option* bins_option = cmd->add_option("--bins", args->bins, "Histogram bins (default 20)");
  cmd->add_option("--name", args->name, "Histogram of this row only: a syscall, IRQ, vector or thread name, or an id");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args, bins_option] {
    const LatencyKind kind = analysis::kernel::ParseLatencyKind(args->kind, "--kind");
    if (!args->histogram && (bins_option->count() > 0 || args->name))
      throw UserError("--bins and --name go with --histogram");
    analysis::kernel::CheckLatencyBins(args->bins, "--bins");
    analysis::kernel::LatencyTally tally;
    Trace trace;
    StreamEntities(args->files, args->read, trace,
                   [&](const Trace& t, const EntityChunk& chunk) { tally.Add(t, chunk); });
    analysis::Table table;
    try {
      table = args->histogram ? tally.HistogramTable(trace, kind, args->bins, args->name)
                              : tally.ToTable(trace, kind);
    } catch (const UserError& e) {
      throw UserError(args->files.front() + ": " + e.what());
    }
    PrintTable(table, args->format);
    if (args->format != analysis::TableFormat::kText) return;
    if (table.rows() == 0) std::cerr << args->files.front() << ": " << WhatIsMissing(kind) << "\n";
    else if (kind == LatencyKind::kSched)
      std::cerr << "from " << tally.WakeupEvent() << " to the sched_switch that switches the thread in\n";
  });
}

}  // namespace macroscope::cli
