// `macroscope stats`: per state value, count, total and mean time and share
// of a time window; per event and link value, a count. Text, JSON or CSV.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "analysis/aggregation_json.h"
#include "analysis/state_statistics.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "mpi/statistics_reduction.h"
#include "mpi/world.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

// The statistics as text, JSON or CSV on standard output.
void Print(const std::string& format, const Trace& trace, const analysis::Statistics& stats) {
  if (format == "json") {
    std::cout << analysis::StatisticsJson(stats).dump(2) << "\n";
  } else if (format == "csv") {  // times in model units, as the JSON's (docs/time.md)
    std::printf("kind,type,value,count,total_time,mean_time,share\n");
    for (auto& r : stats.rows)
      std::printf("%s,%s,%s,%llu,%.17g,%.17g,%.6g\n", r.kind.c_str(), CsvField(r.type).c_str(),
                  CsvField(r.value).c_str(), static_cast<unsigned long long>(r.count), r.total_time, r.mean_time,
                  r.share);
  } else {  // for people: times from the trace start, lengths in a readable unit
    const TimeBase& base = stats.base;
    auto human = [&](double ticks, bool sign) { return HumanSeconds(base.Seconds(ticks), 0, sign); };
    std::printf("window %s .. %s\n%-6s %-24s %-24s %10s %16s %16s %8s\n",
                human(stats.start - trace.start_time(), true).c_str(),
                human(stats.end - trace.start_time(), true).c_str(), "kind", "type", "value", "count", "total time",
                "mean time", "share %");
    for (auto& r : stats.rows)
      std::printf("%-6s %-24s %-24s %10llu %16s %16s %8.2f\n", r.kind.c_str(), r.type.c_str(), r.value.c_str(),
                  static_cast<unsigned long long>(r.count), r.kind == "state" ? human(r.total_time, false).c_str() : "",
                  r.kind == "state" ? human(r.mean_time, false).c_str() : "", r.share);
  }
}

}  // namespace

void RegisterStatsCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::StatisticsRequest request;
    std::string start, end;  // as given: clock seconds, +OFFSET or a date
    std::string format = "text";
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("stats", "Per value: count, total and mean state time, share of a window");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--start", args->start,
                  "Window start: the trace clock's seconds, +OFFSET from the trace start (+2.5s, +412us) or a UTC "
                  "date (default: the trace's start)");
  cmd->add_option("--end", args->end, "Window end, in the same forms (default: the trace's end)");
  cmd->add_option("--containers", args->request.containers, "Only these containers and their descendants");
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
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
    if (!stats) {
      loaded = LoadedTrace();
      LoadTrace(args->files, read, loaded);
      const Trace& trace = loaded.trace;
      analysis::StatisticsRequest request = args->request;
      if (!args->start.empty()) request.start = ParseTime(trace.time_base(), args->start, trace.start_time(), "--start");
      if (!args->end.empty()) request.end = ParseTime(trace.time_base(), args->end, trace.start_time(), "--end");
      stats = analysis::ComputeStatistics(trace, request);
      if (read.share) stats = mpi::ReduceStatistics(*stats, *read.share);
    }
    const Trace& trace = loaded.trace;
    mpi::OnRoot(world, [&] { Print(args->format, trace, *stats); });
  });
}

}  // namespace macroscope::cli
