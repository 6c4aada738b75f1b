// `macroscope dump`: the trace in pj_dump's format, with pj_dump's options.
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "formats/paje/dump_writer.h"
#include "util/atomic_file.h"

namespace macroscope::cli {

namespace {

struct DumpArgs {
  std::vector<std::string> files;
  formats::ReadOptions read;
  paje::DumpOptions dump;
  std::string start, end;  // as given: the trace clock's seconds, +OFFSET or a date
  bool quiet = false;
  bool time = false;
  std::string output;
};

void RunDump(const DumpArgs& args) {
  LoadedTrace loaded;
  LoadTrace(args.files, args.read, loaded);
  if (args.time) std::printf("%f\n", loaded.seconds);
  if (args.quiet) {
    DropAtExit(std::move(loaded.trace));
    return;
  }
  paje::DumpOptions dump = args.dump;
  const Trace& trace = loaded.trace;
  if (!args.start.empty()) dump.start = ParseTime(trace.time_base(), args.start, trace.start_time(), "--start");
  if (!args.end.empty()) dump.end = ParseTime(trace.time_base(), args.end, trace.start_time(), "--end");
  if (args.output.empty()) {
    paje::WriteDump(loaded.trace, dump, stdout);
    std::fflush(stdout);
  } else {
    AtomicFile file(args.output);
    paje::WriteDump(loaded.trace, dump, file.stream());
    file.Commit();
  }
  DropAtExit(std::move(loaded.trace));
}

}  // namespace

void RegisterDumpCommand(CLI::App& app) {
  auto args = std::make_shared<DumpArgs>();
  CLI::App* cmd = app.add_subcommand("dump", "Simulate Pajé traces and print their entities as pj_dump does");
  cmd->set_help_flag("--help", "Print this help message and exit");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace ('-' for standard input)")
      ->required();
  cmd->add_option("-s,--start", args->start,
                  "Dump starts at this time: the trace clock's seconds as dump prints them, +OFFSET from the trace "
                  "start (+2.5s, +412us, +118ns) or a UTC date (2016-03-04 17:46:22.79) (default: the trace's start)");
  cmd->add_option("-e,--end", args->end, "Dump ends at this time, in the same forms (default: the trace's end)");
  cmd->add_flag("-h,--header", args->dump.header, "Print a line of column names for each kind of line");
  cmd->add_flag("-u,--user-defined", args->dump.user_fields, "Print user-defined fields");
  cmd->add_option("-l,--float-precision", args->dump.precision, "Digits after the point for times and values")
      ->check(CLI::Range(0, 30));
  cmd->add_flag("-q,--quiet", args->quiet, "Do not dump, only simulate");
  cmd->add_flag("-t,--time", args->time, "Print the seconds taken to read and simulate");
  cmd->add_option("-o,--output", args->output, "Write to this file (whole or not at all) instead of stdout");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] { RunDump(*args); });
}

}  // namespace macroscope::cli
