// `macroscope kernel memory TRACE`: memory in use per process from
// LTTng-UST's libc wrapper events, by the one memory tracker
// (analysis/kernel/memory_table.h; docs/kernel.md), the workflow module
// kernel-memory's too. The trace is streamed in the CTF reader's
// events-only mode: only the lttng_ust_libc events are kept, then applied
// in time order.
#include <iostream>
#include <memory>

#include "analysis/kernel/memory_table.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"

namespace macroscope::cli {

void RegisterKernelMemory(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    analysis::TableFormat format = analysis::TableFormat::kText;
    bool series = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "memory", "Memory in use per process from LTTng-UST's libc wrapper (malloc, free, ...): peak, final, counts");
  cmd->add_option("files", args->files, "The trace (a CTF folder), or files read in order as one trace")->required();
  AddTableFormatOption(*cmd, args->format);
  cmd->add_flag("--series", args->series,
                "Instead of the figures, the bytes in use over time: time_ns, pid, bytes at each change");
  cmd->callback([args] {
    analysis::kernel::MemoryTable memory;
    formats::ReadOptions options;
    options.events_only = true;
    Trace trace;
    StreamEntities(args->files, options, trace,
                   [&](const Trace& t, const EntityChunk& chunk) { memory.Add(t, chunk); });
    analysis::Table series;
    const analysis::Table figures = memory.ToTable(trace.time_base(), args->series ? &series : nullptr);
    const analysis::Table& table = args->series ? series : figures;
    PrintTable(table, args->format);
    // Only the row of all processes: say why, to a person.
    if (!args->series && figures.rows() == 1 && args->format == analysis::TableFormat::kText)
      std::cerr << "no lttng_ust_libc events: record with liblttng-ust-libc-wrapper.so preloaded\n";
  });
}

}  // namespace macroscope::cli
