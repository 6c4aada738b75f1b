// `macroscope stats`: per state value, count, total and mean time and share
// of a time window; per event and link value, a count. Text, JSON or CSV.
#include <cstdio>
#include <iostream>
#include <memory>

#include "analysis/aggregation_json.h"
#include "analysis/state_statistics.h"
#include "cli/commands.h"
#include "cli/csv.h"
#include "cli/trace_loading.h"

namespace macroscope::cli {

void RegisterStatsCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::StatisticsRequest request;
    std::string format = "text";
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("stats", "Per value: count, total and mean state time, share of a window");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--start", args->request.start, "Window start (default: the trace's start)");
  cmd->add_option("--end", args->request.end, "Window end (default: the trace's end)");
  cmd->add_option("--containers", args->request.containers, "Only these containers and their descendants");
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    LoadedTrace loaded;
    LoadTrace(args->files, args->read, loaded);
    analysis::Statistics stats = analysis::ComputeStatistics(loaded.trace, args->request);
    if (args->format == "json") {
      std::cout << analysis::StatisticsJson(stats).dump(2) << "\n";
    } else if (args->format == "csv") {
      std::printf("kind,type,value,count,total_time,mean_time,share\n");
      for (auto& r : stats.rows)
        std::printf("%s,%s,%s,%llu,%.9g,%.9g,%.6g\n", r.kind.c_str(), CsvField(r.type).c_str(),
                    CsvField(r.value).c_str(), static_cast<unsigned long long>(r.count), r.total_time, r.mean_time,
                    r.share);
    } else {
      std::printf("window %g .. %g\n%-6s %-24s %-24s %10s %14s %14s %8s\n", stats.start, stats.end, "kind", "type",
                  "value", "count", "total time", "mean time", "share %");
      for (auto& r : stats.rows)
        std::printf("%-6s %-24s %-24s %10llu %14.6g %14.6g %8.2f\n", r.kind.c_str(), r.type.c_str(), r.value.c_str(),
                    static_cast<unsigned long long>(r.count), r.total_time, r.mean_time, r.share);
    }
  });
}

}  // namespace macroscope::cli
