// `macroscope import`: a trace (any format) simulated once and saved as a
// store (docs/store.md) that every command reads in well under a second.
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "mpi/world.h"
#include "store/store.h"
#include "store/store_writer.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

struct ImportArgs {
  std::vector<std::string> files;
  formats::ReadOptions read;
  std::string output;
  bool quiet = false;
  uint64_t max_pending = store::kMaxPending;  // hidden, for tests: a small one makes the writer spill
};

void RunImport(const ImportArgs& args) {
  std::string output = args.output;
  if (output.empty()) {
    if (args.files.front() == "-") throw UserError("standard input: give the store's name with -o");
    output = args.files.front() + ".mstore";
  }
  // One process: the reader hands its entities to the store writer as it
  // completes them, so the trace is never held whole (docs/store.md).
  if (mpi::Launched() == nullptr) {
    store::StoreWriter writer(output, args.max_pending);
    formats::ReadOptions read = args.read;
    read.sink = &writer;
    Trace trace;
    const formats::ReadStats stats = formats::ReadTrace(args.files, read, trace);
    writer.Finish(trace, {.events = stats.events, .bytes = stats.bytes});
    if (!args.quiet) std::printf("%s\n", output.c_str());
    return;
  }
  // Under mpirun: every rank reads its byte range of a Pajé file or its
  // locations of an OTF2 archive and rank 0 gathers the stores, or decodes
  // its share of a CTF trace's streams; other traces are read whole by
  // every rank (docs/mpi.md). Rank 0 alone writes.
  formats::ReadOptions read = args.read;
  read.share = mpi::ShareByRange(args.files);
  read.paje.gather = true;
  LoadedTrace loaded;
  LoadTrace(args.files, read, loaded);
  mpi::OnRoot(mpi::Launched(), [&] {
    store::WriteStore(loaded.trace, {.events = loaded.stats.events, .bytes = loaded.stats.bytes}, output);
    if (!args.quiet) std::printf("%s\n", output.c_str());
  });
}

}  // namespace

void RegisterImportCommand(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Simulate a trace once and save it as a store every command reads fast");
  cmd->set_help_flag("--help", "Print this help message and exit");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace ('-' for standard input)")
      ->required();
  cmd->add_option("-o,--output", args->output, "The store to write (default: TRACE.mstore beside the trace)");
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the store's name");
  // Hidden, for tests: entities pending over all stores before they are
  // set aside on disk (store/store_writer.h).
  cmd->add_option("--max-pending", args->max_pending)->group("")->check(CLI::Range(uint64_t{1}, store::kMaxPending));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] { RunImport(*args); });
}

}  // namespace macroscope::cli
