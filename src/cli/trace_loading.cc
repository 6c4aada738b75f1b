#include "cli/trace_loading.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "formats/paje/last_time.h"
#include "model/time_base.h"
#include "util/error.h"

namespace macroscope::cli {

void AddReadOptions(CLI::App& command, formats::ReadOptions& options) {
  // A reading of more than a second shows its progress on a terminal (util/progress_line.h).
  options.show_progress = true;
  command.add_flag("-n,--no-strict", options.paje.no_strict, "Pajé: accept old field names in event definitions");
  command.add_flag("-z,--ignore-incomplete-links", options.paje.simulator.ignore_incomplete_links,
                   "Drop links whose start or end never came (not recommended)");
  command.add_flag("-i,--no-imbrication", options.paje.simulator.no_imbrication,
                   "No nesting: a push interrupts the state below, a pop resumes it");
  command.add_flag("--sort", options.paje.sort,
                   "Pajé: read lines that are not in time order (StarPU's paje.trace) as StarVZ's sort orders "
                   "them, in bounded memory (temporary files in $TMPDIR beyond it)");
  // Hidden: bytes of lines --sort (and of Chrome records) held in memory; tests make it tiny.
  command.add_option("--sort-memory", options.paje.sort_memory)->group("");
  // One --threads per command: where the command has its own (serve, and
  // aggregate's replacing this one), that value sets the reading threads too.
  if (command.get_option_no_throw("--threads") == nullptr)
    command.add_option("--threads", options.threads, "Threads reading the trace (0: one per core)")
        ->capture_default_str();
  command.parse_complete_callback([&command, &options] {
    CLI::Option* threads = command.get_option_no_throw("--threads");
    if (threads != nullptr && threads->count() > 0) options.threads = threads->as<int>();
  });
  // Hidden: bytes of input per chunk of a parallel Pajé read; tests make it tiny.
  command.add_option("--chunk-bytes", options.paje.chunk_bytes)->group("");
  // Hidden: Pajé simulation sharded by container over this many threads
  // (sharded_simulation.h); on 2 cores it costs more than it gives, so it
  // stays off until measured on more (bench/scaling).
  command.add_option("--shards", options.paje.simulator.shards)->group("")->check(CLI::Range(1, 256));
}

void LoadTrace(const std::vector<std::string>& files, const formats::ReadOptions& options, LoadedTrace& out) {
  if (options.paje.sort && !files.empty() && formats::Detect(files.front()).name != "paje")
    std::fprintf(stderr, "macroscope: note: --sort ignored: %s is not Pajé text (its reader orders events)\n",
                 files.front().c_str());
  auto begin = std::chrono::steady_clock::now();
  out.stats = formats::ReadTrace(files, options, out.trace);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

void DropAtExit(Trace&& trace) {
  static auto* kept = new std::vector<Trace>();  // never destroyed
  kept->push_back(std::move(trace));
}

bool StreamPaje(const std::vector<std::string>& files, const formats::ReadOptions& options,
                const std::function<EntitySink*(double end)>& sink_for, LoadedTrace& out) {
  if (files.size() != 1 || files.front() == "-" || options.share != nullptr || options.paje.sort ||
      options.paje.simulator.shards > 1 || formats::Detect(files.front()).name != "paje")
    return false;
  const std::optional<double> end = paje::LastEventTime(files.front(), options.paje.no_strict);
  if (!end || !(*end > 0)) return false;
  formats::ReadOptions streaming = options;
  streaming.sink = sink_for(*end);
  // Entities handed over in larger chunks (tens of MB held): each store's
  // sums are then met once per hundred of its entities, not once per few
  // (535 MB of every kind: 2.9 -> 2.5 CPU s on the simulating thread).
  streaming.paje.simulator.drain_interval = size_t{1} << 20;
  LoadTrace(files, streaming, out);
  return out.trace.start_time() == 0 && out.trace.end_time() == *end;
}

void ParseWindowOption(const Trace& trace, const std::string& text, std::optional<double>& start,
                       std::optional<double>& end) {
  if (text.empty()) return;
  const size_t comma = text.find(',');
  if (comma == std::string::npos) throw UserError("--window: START,END, not '" + text + "'");
  start = ParseTime(trace.time_base(), text.substr(0, comma), trace.start_time(), "--window");
  end = ParseTime(trace.time_base(), text.substr(comma + 1), trace.start_time(), "--window");
  if (!(*start <= *end)) throw UserError("--window: its end is before its start");
}

}  // namespace macroscope::cli
