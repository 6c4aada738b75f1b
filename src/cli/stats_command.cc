// `macroscope stats`: per state value, count, total and mean time and share
// of a time window; per event and link value, a count. Text, JSON or CSV.
#include <iostream>
#include <memory>
#include <optional>

#include "analysis/aggregation_json.h"
#include "analysis/state_statistics.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "mpi/statistics_reduction.h"
#include "mpi/world.h"
#include "store/store.h"
#include "store/store_source.h"

namespace macroscope::cli {

namespace {

// The statistics as text, JSON or CSV on standard output.
void Print(analysis::TableFormat format, const Trace& trace, const analysis::Statistics& stats) {
  if (format == analysis::TableFormat::kJson) {
    // replace: names read from traces need not be UTF-8.
    std::cout << analysis::StatisticsJson(stats).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  } else if (format == analysis::TableFormat::kCsv) {  // times in model units, as the JSON's (docs/time.md)
    PrintTable(analysis::StatisticsTable(stats, analysis::StatisticsTimes::kModelUnits), format);
  } else {  // for people: the window from the trace start, lengths in a readable unit
    auto human = [&](double t) { return HumanSeconds(stats.base.Seconds(t - trace.start_time()), 0, true); };
    std::cout << "window " << human(stats.start) << " .. " << human(stats.end) << "\n";
    PrintTable(analysis::StatisticsTable(stats, analysis::StatisticsTimes::kForPeople), format);
  }
}

}  // namespace

void RegisterStatsCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::StatisticsRequest request;
    std::string start, end;  // as given: clock seconds, +OFFSET or a date
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("stats", "Per value: count, total and mean state time, share of a window");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--start", args->start,
                  "Window start: the trace clock's seconds, +OFFSET from the trace start (+2.5s, +412us) or a UTC "
                  "date (default: the trace's start)");
  cmd->add_option("--end", args->end, "Window end, in the same forms (default: the trace's end)");
  cmd->add_option("--containers", args->request.containers, "Only these containers and their descendants");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    // Under mpirun: every process counts its share of the trace, rank 0
    // sums the rows and alone prints (docs/mpi.md).
    mpi::World* world = mpi::Launched();
    formats::ReadOptions read = args->read;
    read.share = mpi::ShareFor(args->files);
    LoadedTrace loaded;
    std::optional<analysis::Statistics> stats;
    // The whole trace's window, of all containers: one Pajé file is counted
    // as it is read, without holding it (trace_loading.h StreamPaje).
    if (args->start.empty() && args->end.empty() && args->request.containers.empty()) {
      std::optional<analysis::StatisticsAccumulator> rows;
      std::optional<analysis::StatisticsSink> sink;
      if (StreamPaje(args->files, read, [&](double end) -> EntitySink* {
            rows.emplace(0, end);
            return &sink.emplace(*rows);
          }, loaded))
        stats = rows->Finish(loaded.trace);
    }
    auto request_for = [&](const Trace& trace) {
      analysis::StatisticsRequest request = args->request;
      if (!args->start.empty()) request.start = ParseTime(trace.time_base(), args->start, trace.start_time(), "--start");
      if (!args->end.empty()) request.end = ParseTime(trace.time_base(), args->end, trace.start_time(), "--end");
      return request;
    };
    // A chunked store: only the chunks that meet the window are read.
    std::optional<store::StoreSource> store;
    if (!stats && args->files.size() == 1 && store::IsChunkedStore(args->files.front())) {
      store.emplace(args->files.front(), store::CacheBudget::Scanning());
      stats = analysis::ComputeStatistics(*store, request_for(store->trace()));
    }
    if (!stats) {
      loaded = LoadedTrace();
      LoadTrace(args->files, read, loaded);
      stats = analysis::ComputeStatistics(loaded.trace, request_for(loaded.trace));
      if (read.share) stats = mpi::ReduceStatistics(*stats, *read.share);
    }
    const Trace& trace = store ? store->trace() : loaded.trace;
    mpi::OnRoot(world, [&] { Print(args->format, trace, *stats); });
  });
}

}  // namespace macroscope::cli
