// `macroscope kernel processes TRACE`: one row per thread of a kernel
// trace, by running time, or with --cpus one row per thread per CPU and
// each CPU's idle and unknown time (docs/kernel.md):
// analysis::kernel::ProcessesReport, as the workflow module
// kernel-processes runs it; the trace streams through it (never held whole).
#include <memory>

#include "analysis/kernel/processes_report.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"

namespace macroscope::cli {

void RegisterKernelProcesses(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
    std::optional<int64_t> subtree;
    bool cpus = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "processes", "One row per thread: pid, parent, names, life, running/user/kernel/waiting/runnable time, syscalls");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  AddTableFormatOption(*cmd, args->format);
  cmd->add_option("--subtree", args->subtree, "Only this process (pid) and its descendants");
  cmd->add_flag("--cpus", args->cpus,
                "Per CPU instead: each thread's running time there, idle, unknown before the first switch, span");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::kernel::ProcessesReport report(args->subtree, args->cpus);
    Trace trace;
    StreamEntities(args->files, args->read, trace,
                   [&](const Trace& t, const EntityChunk& chunk) { report.Add(t, chunk); });
    PrintTable(report.ToTable(trace), args->format);
  });
}

}  // namespace macroscope::cli
