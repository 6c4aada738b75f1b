#include "render/overview_picture.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "render/palette.h"
#include "analysis/part_values.h"
#include "render/quality_curves.h"
#include "render/spatiotemporal_view.h"
#include "render/temporal_view.h"
#include "render/time_axis.h"

namespace macroscope::render {

namespace {

constexpr double kMargin = 18;
constexpr double kTitleHeight = 40;
constexpr double kTimeAxisHeight = 40;
constexpr double kRightColumn = 270;

std::string Number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", x);
  return buffer;
}

double Ratio(double value, double full) { return full > 0 ? value / full : 0; }

// Returns the y below the legend.
void DrawLegend(Canvas& canvas, const Rect& area, const OverviewInput& input,
                const std::vector<Color>& colors, const std::vector<double>& type_totals,
                double bottom_limit) {
  const analysis::MicroModel& model = *input.model;
  const analysis::Quality full = input.aggregation->FullAggregate();
  const analysis::Quality& q = input.partition->quality;
  TextStyle heading{.size = 12, .color = kTextColor, .bold = true};
  TextStyle text{.size = 11, .color = kTextColor};
  TextStyle muted{.size = 11, .color = kMutedTextColor};
  double y = area.y + 12;

  // The aggregation's facts.
  canvas.Text(area.x, y, "Aggregation", heading);
  y += 18;
  const bool spatial = input.mode == OverviewMode::kSpatiotemporal;
  const std::vector<std::pair<std::string, std::string>> facts = {
      {"mode", spatial ? "spatiotemporal" : "temporal"},
      {"metric", input.metric},
      {"p", Number(input.p)},
      {"parts", std::to_string(input.partition->parts.size())},
      {"gain", Number(Ratio(q.gain, full.gain)) + " of full aggregate"},
      {"loss", Number(Ratio(q.loss, full.loss)) + " of full aggregate"},
      {"model", std::to_string(model.leaf_count()) + " resources x " +
                    std::to_string(model.slices()) + " slices"},
  };
  for (const auto& [key, value] : facts) {
    canvas.Text(area.x, y, key, muted);
    canvas.Text(area.x + 52, y, value, text, area.width - 52);
    y += 15;
  }
  y += 10;

  // Types, largest total first.
  canvas.Text(area.x, y, "Types", heading);
  y += 16;
  std::vector<int32_t> order(model.type_count());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return type_totals[a] > type_totals[b]; });
  const double line = 15;
  const int extra_rows = 2;  // the visual-aggregation key
  int fitting = static_cast<int>((bottom_limit - y) / line) - extra_rows;
  fitting = std::max(fitting, 1);
  const int shown = std::min<int>(fitting < static_cast<int>(order.size()) ? fitting - 1 : fitting,
                                  static_cast<int>(order.size()));
  for (int i = 0; i < shown; ++i) {
    const int32_t type = order[i];
    canvas.FillRect({area.x, y - 9.5, 11, 11}, colors[type]);
    canvas.Text(area.x + 17, y, model.types()[type], text, area.width - 17);
    y += line;
  }
  if (shown < static_cast<int>(order.size())) {
    canvas.Text(area.x + 17, y, "+ " + std::to_string(order.size() - shown) + " more types",
                muted);
    y += line;
  }
  y += 4;
  if (spatial) {
    const Rect swatch{area.x, y - 9.5, 11, 11};
    canvas.FillRect(swatch, kGridColor);
    canvas.HatchRect(swatch, kTextColor.WithAlpha(0.6), 3, 0.8);
    canvas.Text(area.x + 17, y, "thin parts, drawn as their parent", muted, area.width - 17);
    y += line;
    canvas.Text(area.x + 17, y, "alpha: share of the dominant type", muted, area.width - 17);
  } else {
    canvas.FillRect({area.x, y - 9.5, 11, 11}, kMergedColor);
    canvas.Text(area.x + 17, y, "small types, merged", muted, area.width - 17);
    y += line;
    canvas.Text(area.x + 17, y, "mode alpha: share of the dominant type", muted, area.width - 17);
  }
}

}  // namespace

OverviewStats DrawOverview(Canvas& canvas, const OverviewInput& input,
                           const OverviewThresholds& thresholds) {
  const analysis::MicroModel& model = *input.model;
  const analysis::Partition& partition = *input.partition;
  const double width = canvas.width();
  const double height = canvas.height();
  OverviewStats stats;

  const bool spatial = input.mode == OverviewMode::kSpatiotemporal;
  canvas.set_title(input.title);
  TextStyle title{.size = 16, .color = kTextColor, .bold = true};
  canvas.Text(kMargin, kMargin + 16,
              input.title + (spatial ? " - spatiotemporal overview" : " - temporal overview"),
              title, width - 2 * kMargin);

  const std::vector<analysis::LeafSpan> spans = analysis::NodeLeafSpans(model.hierarchy());
  const std::vector<analysis::PartValues> sums = analysis::PartSums(model, partition, spans);
  const std::vector<Color> colors = input.type_colors.empty() ? TypeColors(model.types()) : input.type_colors;
  const analysis::PartValues whole =
      analysis::SumValues(model, spans[analysis::Hierarchy::kRoot], 0, model.slices() - 1);

  // Left: the views; right: legend over quality curves.
  const double right_x = width - kMargin - kRightColumn;
  const double views_top = kMargin + kTitleHeight;
  const double views_bottom = height - kMargin - kTimeAxisHeight;
  const double left_gutter =
      spatial ? std::clamp(width * 0.16, 110.0, 240.0) : 84.0;
  const double plot_left = kMargin + left_gutter;
  const double plot_right = right_x - 24;
  TimeAxis axis(model.range(), model.slices(), plot_left, plot_right, input.time);

  if (spatial) {
    const Rect plot{plot_left, views_top, plot_right - plot_left, views_bottom - views_top};
    const Rect axis_area{kMargin, views_top, left_gutter, plot.height};
    axis.DrawGrid(canvas, plot.y, plot.bottom());
    SpatiotemporalViewOptions options;
    options.min_part_px = thresholds.min_part_px;
    auto st = DrawSpatiotemporalView(canvas, plot, axis_area, axis, model, partition, sums, spans,
                                     colors, options);
    stats.hatched = st.hatched;
  } else {
    const Rect area{plot_left, views_top, plot_right - plot_left, views_bottom - views_top};
    TemporalViewOptions options;
    options.min_band_px = thresholds.min_type_band_px;
    options.per_second = axis.in_seconds() && input.metric != "state-time";
    auto st = DrawTemporalView(canvas, area, axis, model, partition, sums, colors, options);
    stats.merged_bands = st.merged_bands;
    stats.dotted_marks = st.dotted_marks;
  }
  axis.Draw(canvas, views_bottom + 4);

  const double curves_height = std::clamp(height * 0.42, 180.0, 340.0);
  const Rect curves{right_x, height - kMargin - curves_height, kRightColumn, curves_height};
  DrawLegend(canvas, {right_x, views_top - 8, kRightColumn, 0}, input, colors, whole.per_type,
             curves.y - 14);
  DrawQualityCurves(canvas, curves, *input.p_list, input.aggregation->FullAggregate(), input.p,
                    static_cast<int64_t>(partition.parts.size()));
  return stats;
}

}  // namespace macroscope::render
