// `macroscope campaign RUNS…`: which run of a set is not like the others
// (docs/compare.md, "Campaigns"). RUNS are traces and folders (a folder
// that is not itself a trace: every trace in it, by name), or --group, a
// catalog group. Per function (default) the distribution of its inclusive
// time across the runs, or per run its distances; in text, each flagged
// run's diff against the median run below. analysis/compare/campaign.h
// computes it; `-o` draws the box plots.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analysis/compare/campaign.h"
#include "catalog/catalog.h"
#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "formats/trace_folder.h"
#include "query/opened_trace.h"
#include "render/canvas.h"
#include "render/charts.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

// The box plots of the functions of widest spread, in ms.
void SaveBoxPlots(const analysis::compare::Campaign& campaign, size_t count, const std::string& output) {
  std::vector<render::BoxGroup> groups;
  for (const size_t i : analysis::compare::WidestSpread(campaign, count)) {
    const auto& values = campaign.values[i];
    render::BoxGroup group{values.function, {}};
    for (const int64_t ns : values.inclusive_ns) group.values.push_back(static_cast<double>(ns) * 1e-6);
    groups.push_back(std::move(group));
  }
  render::SaveBoxPlot(groups,
                      {"Inclusive time across " + std::to_string(campaign.profile_distances.size()) +
                           " runs (functions of widest spread)",
                       "function", "inclusive time (ms)"},
                      output);
}

}  // namespace

void RegisterCampaignCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> runs;
    std::string group, catalog, by = "function", output;
    analysis::compare::CampaignRequest request;
    size_t boxes = 12;
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "campaign", "Which run of a set is not like the others: per function its time across the runs, per run "
                  "its distance from them, the runs far above flagged (mean + 3σ/√n) and their diff against the "
                  "median run");
  cmd->add_option("runs", args->runs, "Traces, or folders of traces (every trace in one, by name)");
  cmd->add_option("--group", args->group, "The runs of a catalog group (catalog group add), before RUNS");
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_option("--by", args->by, "function (default): the distribution per function; run: the distances");
  cmd->add_option("--slices", args->request.slices, "Slices of each run's model over its own span (default 100)");
  cmd->add_option("--diff-rows", args->request.diff_rows, "Rows of each flagged run's diff (default 5)");
  cmd->add_option("-o,--output", args->output, "Box plots of the functions of widest spread: F.svg or F.png");
  cmd->add_option("--boxes", args->boxes, "How many functions -o draws (default 12)");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    if (args->by != "function" && args->by != "run")
      throw UserError("--by: '" + args->by + "' is not a view: function or run");
    if (!args->output.empty() && !render::FormatFromPath(args->output))
      throw UserError(args->output + ": a picture's name ends in .svg or .png");
    std::vector<std::string> files;
    if (!args->group.empty()) {
      catalog::Catalog cat(CatalogFile(args->catalog));
      const auto members = cat.Group(args->group);
      if (!members) throw UserError("--group: no group '" + args->group + "' in the catalog " + cat.path());
      files = *members;
    }
    for (const std::string& run : args->runs)
      for (std::string& file : formats::TracesAt(run)) files.push_back(std::move(file));
    // Stores are read as the tables reach their chunks: runs of any size.
    std::vector<std::unique_ptr<query::OpenedTrace>> opened;
    std::vector<analysis::compare::Run> runs;
    for (const std::string& file : files) {
      opened.push_back(std::make_unique<query::OpenedTrace>(std::vector<std::string>{file}, args->read,
                                                            store::CacheBudget::Scanning(),
                                                            query::OpenedTrace::Indexes::kSkip));
      runs.push_back({opened.back()->source(), file + " (" + std::string(formats::Detect(file).name) + ")"});
    }
    const analysis::compare::Campaign campaign = analysis::compare::AnalyzeCampaign(runs, args->request);
    if (!args->output.empty()) SaveBoxPlots(campaign, args->boxes, args->output);
    const analysis::Table& table = args->by == "run" ? campaign.runs : campaign.functions;
    if (args->format != analysis::TableFormat::kText) {
      std::fprintf(stderr, "macroscope: campaign: %s\n", campaign.summary.c_str());
      PrintTable(table, args->format);
    } else {
      std::printf("%s\n\n", campaign.summary.c_str());
      std::fflush(stdout);
      PrintTable(table, args->format);
      for (const auto& diff : campaign.diffs) {
        std::printf("\nrun %zu (%s) against the median run %zu (%s):\n", diff.run + 1, runs[diff.run].name.c_str(),
                    campaign.median_run + 1, runs[campaign.median_run].name.c_str());
        std::fflush(stdout);
        PrintTable(diff.diff, args->format);
      }
    }
  });
}

}  // namespace macroscope::cli
