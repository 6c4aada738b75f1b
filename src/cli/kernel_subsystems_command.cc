// `macroscope kernel subsystems TRACE`: events and time per kernel subsystem
// (tracepoint prefix classes), overall and per process
// (docs/kernel.md). The counting is analysis::kernel::
// SubsystemTally's, the workflow module kernel-subsystems' too.
#include <memory>

#include "analysis/kernel/subsystems.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::SubsystemTally;

// Overall event counts from the trace's own events (for CTF babeltrace2's
// event messages, for ftrace trace-cmd's records, read raw), times and the
// per-owner rows from the model.
analysis::Table Tally(const std::vector<std::string>& files, const formats::ReadOptions& read) {
  SubsystemTally model;
  Trace model_trace;
  StreamEntities(files, read, model_trace, [&](const Trace& t, const EntityChunk& chunk) { model.Add(t, chunk); });
  const std::string_view format = formats::Detect(files.front()).name;
  if (format != "ctf" && format != "ftrace") return model.ToTable(model_trace);  // its entities are its events
  SubsystemTally raw;
  Trace raw_trace;
  formats::ReadOptions raw_options = read;
  raw_options.events_only = true;
  StreamEntities(files, raw_options, raw_trace, [&](const Trace& t, const EntityChunk& chunk) { raw.Add(t, chunk); });
  return model.ToTable(model_trace, &raw);
}

}  // namespace

void RegisterKernelSubsystems(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "subsystems", "Events and time per kernel subsystem (tracepoint prefix), overall and per process");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    PrintTable(Tally(args->files, args->read), args->format);
  });
}

}  // namespace macroscope::cli
