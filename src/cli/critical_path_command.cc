// `macroscope critical-path TRACE`: the critical path of a message-passing
// trace, segment by segment, or its time per function or container (--by).
// analysis/critical_path.h computes it (docs/critical-path.md).
#include <memory>
#include <string>
#include <vector>

#include "analysis/critical_path.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"

namespace macroscope::cli {

void RegisterCriticalPathCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string by;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "critical-path", "The critical path of a message-passing trace: its segments (container, function), or its time "
                       "per function or container (--by)");
  cmd->add_option("files", args->files, "Trace files (or one store), read in order as one trace")->required();
  cmd->add_option("--by", args->by, "function or container: the path's time per function or per container");
  AddReadOptions(*cmd, args->read);
  AddTableFormatOption(*cmd, args->format);
  cmd->callback([args] {
    const analysis::CriticalPathBy by =
        args->by.empty() ? analysis::CriticalPathBy::kSegments : analysis::ParseCriticalPathBy(args->by, "--by");
    const query::OpenedTrace opened(args->files, args->read, store::CacheBudget::Scanning(),
                                    query::OpenedTrace::Indexes::kSkip);
    const Trace& trace = opened.source().trace();
    PrintTable(analysis::CriticalPathTable(trace, analysis::ComputeCriticalPath(opened.source()), by), args->format);
  });
}

}  // namespace macroscope::cli
