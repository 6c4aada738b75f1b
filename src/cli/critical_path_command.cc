// `macroscope critical-path TRACE`: the critical path of a message-passing
// trace, segment by segment, or its time per function or container (--by);
// on a kernel trace, a thread's (--thread TID). analysis/critical_path.h and
// analysis/kernel/thread_critical_path.h compute them (docs/critical-path.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/critical_path.h"
#include "analysis/kernel/kernel_entities.h"
#include "analysis/kernel/thread_critical_path.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

// A kernel thread's path (--thread TID, --end T, --by state|container).
analysis::Table ThreadPath(const EntitySource& source, int64_t tid, const std::string& end, const std::string& by) {
  const Trace& trace = source.trace();
  const analysis::kernel::ThreadPathBy path_by = by.empty() ? analysis::kernel::ThreadPathBy::kSegments
                                                            : analysis::kernel::ParseThreadPathBy(by, "--by");
  std::optional<double> until;
  if (!end.empty()) until = ParseTime(trace.time_base(), end, trace.start_time(), "--end");
  return analysis::kernel::ThreadCriticalPathTable(
      trace, analysis::kernel::ComputeThreadCriticalPath(source, tid, until, "--thread"), path_by);
}

}  // namespace

void RegisterCriticalPathCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string by, end;
    std::optional<int64_t> thread;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "critical-path", "The critical path of a message-passing trace: its segments (container, function), or its time "
                       "per function or container (--by); of a kernel trace's thread (--thread)");
  cmd->add_option("files", args->files, "Trace files (or one store), read in order as one trace")->required();
  cmd->add_option("--by", args->by,
                  "function or container: the path's time per function or per container (a kernel thread's: state "
                  "or container)");
  cmd->add_option("--thread", args->thread,
                  "A kernel trace (LTTng kernel, perf, trace-cmd): the path of the thread of this tid");
  cmd->add_option("--end", args->end,
                  "With --thread: the path up to this time (the trace clock's seconds, +OFFSET from the trace start, "
                  "or a UTC date; default the thread's end)");
  AddReadOptions(*cmd, args->read);
  AddTableFormatOption(*cmd, args->format);
  cmd->callback([args] {
    const query::OpenedTrace opened(args->files, args->read, store::CacheBudget::Scanning(),
                                    query::OpenedTrace::Indexes::kSkip);
    const Trace& trace = opened.source().trace();
    if (analysis::kernel::IsKernelTrace(trace)) {
      if (!args->thread)
        throw UserError("--thread: required on a kernel trace (whose path is a thread's): give the tid of the thread "
                        "whose critical path to follow");
      PrintTable(ThreadPath(opened.source(), *args->thread, args->end, args->by), args->format);
      return;
    }
    if (args->thread) throw UserError("--thread: only on a kernel trace (LTTng kernel, perf, trace-cmd): this trace "
                                      "has no CPU");
    if (!args->end.empty()) throw UserError("--end: only with --thread, on a kernel trace");
    const analysis::CriticalPathBy by =
        args->by.empty() ? analysis::CriticalPathBy::kSegments : analysis::ParseCriticalPathBy(args->by, "--by");
    std::vector<analysis::PathSegment> path;
    try {
      path = analysis::ComputeCriticalPath(opened.source());
    } catch (const UserError& e) {  // nothing to follow: name the trace
      throw UserError(args->files.front() + ": " + e.what());
    }
    PrintTable(analysis::CriticalPathTable(trace, path, by), args->format);
  });
}

}  // namespace macroscope::cli
