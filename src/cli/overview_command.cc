// `macroscope overview`: the picture of an aggregation (SVG or PNG) that a
// person would put in a report — the views of the optimal partition at p,
// the quality curves and a legend. Same model options as `aggregate`;
// described in docs/overview.md.
#include <memory>
#include <string>
#include <vector>

#include "analysis/p_list.h"
#include "cli/aggregate_options.h"
#include "cli/commands.h"
#include "render/canvas.h"
#include "render/overview_picture.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

struct OverviewOptions {
  AggregateOptions shared;
  std::string output;
  int width = 1200;
  int height = 800;
};

constexpr int kMaxSide = 20000;

render::ImageFormat Validate(const OverviewOptions& o) {
  ValidateAggregateOptions(o.shared);
  auto format = render::FormatFromPath(o.output);
  if (!format) throw UserError("-o " + o.output + ": the file name must end in .svg or .png");
  if (o.width < render::kMinOverviewWidth || o.width > kMaxSide) {
    throw UserError("--width must be in [" + std::to_string(render::kMinOverviewWidth) + ", " +
                    std::to_string(kMaxSide) + "]");
  }
  if (o.height < render::kMinOverviewHeight || o.height > kMaxSide) {
    throw UserError("--height must be in [" + std::to_string(render::kMinOverviewHeight) + ", " +
                    std::to_string(kMaxSide) + "]");
  }
  return *format;
}

std::string BaseName(const std::string& path) {
  if (path == "-") return "standard input";
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void RunOverview(const OverviewOptions& o) {
  const render::ImageFormat format = Validate(o);
  ModelTimings timings;
  analysis::MicroModel model = LoadAggregateModel(o.shared, &timings);
  std::unique_ptr<analysis::Aggregation> aggregation = MakeAggregation(model, o.shared);
  const std::vector<analysis::PListEntry> list = analysis::SignificantPsExact(*aggregation);
  const double p = o.shared.p_given() ? o.shared.p : analysis::KneeP(list, aggregation->FullAggregate());
  const analysis::Partition partition = aggregation->Best(p);

  render::OverviewInput input;
  input.model = &model;
  input.aggregation = aggregation.get();
  input.partition = &partition;
  input.p_list = &list;
  input.p = p;
  input.mode = o.shared.mode == "spatiotemporal" ? render::OverviewMode::kSpatiotemporal
                                                 : render::OverviewMode::kTemporal;
  input.metric = o.shared.model_in.empty() ? o.shared.metric : "from CSV";
  input.title = BaseName(o.shared.trace.empty() ? o.shared.model_in : o.shared.trace);
  // A trace's model counts ticks of its clock from the trace start (or from
  // --start); a CSV model's range has no unit.
  input.time.seconds = o.shared.model_in.empty();
  input.time.origin = o.shared.start_given() ? "range start" : "trace start";

  render::Canvas canvas(o.width, o.height, format);
  render::DrawOverview(canvas, input);
  canvas.Save(o.output);
}

}  // namespace

void RegisterOverviewCommand(CLI::App& app) {
  auto options = std::make_shared<OverviewOptions>();
  CLI::App* cmd = app.add_subcommand(
      "overview", "Picture of an aggregation (SVG or PNG): views, quality curves, legend");
  AddAggregateOptions(*cmd, options->shared);
  cmd->add_option("-o,--output", options->output, "Picture to write: FILE.svg or FILE.png")
      ->required();
  cmd->add_option("--width", options->width, "Width in pixels")->capture_default_str();
  cmd->add_option("--height", options->height, "Height in pixels")->capture_default_str();
  AddThreadsOption(*cmd, options->shared);
  cmd->footer(
      "Without --p: the significant partition whose normalised gain exceeds its normalised "
      "loss the most (the knee of the quality curves), at the middle of its p range.");
  cmd->callback([options] { RunOverview(*options); });
}

}  // namespace macroscope::cli
