// `macroscope comm TRACE`: who sends how many messages and bytes to whom, at
// a level of the container tree; with --histogram their sizes' histogram,
// with --over-time their number and bytes per time bin (docs/comm.md). The
// tables are analysis::CommunicationAccumulator's, the query's comm*()
// functions' too; the trace streams through it (never held whole).
#include <memory>
#include <optional>

#include "analysis/communication.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

void RegisterCommCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::CommunicationRequest request;
    std::string window;  // A,B: clock seconds, +OFFSET or dates, as stats' --start and --end
    bool histogram = false, over_time = false;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "comm", "Messages and bytes per sender and receiver (links), their sizes' histogram, or over time");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--level", args->request.level,
                  "Group senders and receivers by their container at this depth of the tree (1: the root's "
                  "children; default: the containers at the messages' ends)");
  cmd->add_flag("--histogram", args->histogram, "The histogram of the messages' sizes instead (as numpy.histogram)");
  cmd->add_flag("--over-time", args->over_time, "Messages and bytes per time bin of the window instead");
  cmd->add_option("--bins", args->request.bins,
                  "Bins of --histogram (default 20, as pipit's message_histogram) or --over-time (default 100)");
  cmd->add_option("--window", args->window,
                  "A,B: only messages sent in [A, B], each the trace clock's seconds, +OFFSET from the trace start "
                  "(+2.5s, +412us) or a UTC date (default: the whole trace)");
  cmd->add_option("--containers", args->request.containers,
                  "Only messages sent or received by these containers and their descendants");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::CommunicationRequest request = args->request;
    request.level_name = "--level";
    request.bins_name = "--bins";
    request.containers_name = "--containers";
    if (args->histogram && args->over_time) throw UserError("--histogram and --over-time: one at a time");
    if (request.bins && !args->histogram && !args->over_time)
      throw UserError("--bins is for --histogram or --over-time");
    if (request.level && (args->histogram || args->over_time)) throw UserError("--level is for the matrix");
    std::optional<size_t> comma;
    if (!args->window.empty()) {
      comma = args->window.find(',');
      if (*comma == std::string::npos || args->window.find(',', *comma + 1) != std::string::npos)
        throw UserError("--window '" + args->window + "': expected START,END");
    }
    analysis::CommunicationAccumulator messages;
    Trace trace;
    formats::ReadOptions read = args->read;
    read.kinds = formats::EntityKinds::Only({TypeKind::kLink});  // messages are links
    StreamEntities(args->files, read, trace,
                   [&](const Trace& t, const EntityChunk& chunk) { messages.Add(t, chunk); });
    if (comma) {
      const TimeBase& base = trace.time_base();
      request.start = ParseTime(base, args->window.substr(0, *comma), trace.start_time(), "--window");
      request.end = ParseTime(base, args->window.substr(*comma + 1), trace.start_time(), "--window");
    }
    const analysis::CommunicationTable table = args->histogram   ? analysis::CommunicationTable::kHistogram
                                               : args->over_time ? analysis::CommunicationTable::kOverTime
                                                                 : analysis::CommunicationTable::kMatrix;
    PrintTable(messages.Finish(trace, request, table), args->format);
  });
}

}  // namespace macroscope::cli
