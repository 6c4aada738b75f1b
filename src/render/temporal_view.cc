#include "render/temporal_view.h"

#include <algorithm>
#include <cmath>

namespace macroscope::render {

namespace {

constexpr double kCaptionGap = 8;

void Caption(Canvas& canvas, const Rect& band, const std::string& text) {
  TextStyle style{.size = 11, .color = kMutedTextColor, .align = Align::kRight};
  canvas.Text(band.x - kCaptionGap, band.y + band.height / 2 + 4, text, style);
}

void DrawValueScale(Canvas& canvas, const Rect& plot, double max_value, const char* title) {
  const int max_ticks = std::clamp(static_cast<int>(plot.height / 45), 2, 8);
  std::vector<double> ticks = NiceTicks(0, max_value, max_ticks);
  const double step = ticks.size() >= 2 ? ticks[1] - ticks[0] : max_value;
  TextStyle label{.size = 10, .color = kTextColor, .align = Align::kRight};
  for (double v : ticks) {
    const double y = plot.bottom() - plot.height * v / max_value;
    canvas.Line(plot.x, y, plot.right(), y, kGridColor, 1);
    canvas.Line(plot.x - 4, y, plot.x, y, kAxisColor, 1);
    canvas.Text(plot.x - 6, y + 3.5, FormatTick(v, step), label);
  }
  canvas.Line(plot.x, plot.y, plot.x, plot.bottom(), kAxisColor, 1);
  TextStyle caption{.size = 11, .color = kMutedTextColor};
  canvas.VerticalText(plot.x - 52, plot.y + plot.height / 2, title, caption);
}

}  // namespace

TemporalViewStats DrawTemporalView(Canvas& canvas, const Rect& area, const TimeAxis& axis,
                                   const analysis::MicroModel& model,
                                   const analysis::Partition& partition,
                                   const std::vector<analysis::PartValues>& sums,
                                   const std::vector<Color>& type_colors,
                                   const TemporalViewOptions& options) {
  TemporalViewStats stats;
  const Rect partition_band{area.x, area.y, area.width, options.band_height};
  const Rect mode_band{area.x, area.bottom() - options.band_height, area.width,
                       options.band_height};
  const Rect plot{area.x, partition_band.bottom() + options.gap, area.width,
                  mode_band.y - options.gap - partition_band.bottom() - options.gap};

  // Per-part density: value per unit time, or per second of the trace's clock.
  const double slice_duration = options.per_second ? axis.SliceSeconds() : axis.SliceDuration();
  double max_density = 0;
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    const auto& part = partition.parts[i];
    const double duration = slice_duration * (part.last_slice - part.first_slice + 1);
    max_density = std::max(max_density, sums[i].total / duration);
  }
  if (!(max_density > 0)) max_density = 1;

  // (a) partition.
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    const auto& part = partition.parts[i];
    const double x0 = axis.SliceX(part.first_slice);
    const double x1 = axis.SliceX(part.last_slice + 1);
    canvas.FillRect({x0, partition_band.y, x1 - x0, partition_band.height},
                    PartColor(static_cast<int64_t>(i)));
  }
  for (size_t i = 1; i < partition.parts.size(); ++i) {
    const double x = axis.SliceX(partition.parts[i].first_slice);
    canvas.Line(x, partition_band.y, x, partition_band.bottom(), kWhite, 1);
  }
  Caption(canvas, partition_band, "parts");

  // (b) stacked histogram.
  DrawValueScale(canvas, plot, max_density, options.per_second ? "value per second" : "value per unit time");
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    const auto& part = partition.parts[i];
    const double x0 = axis.SliceX(part.first_slice);
    const double x1 = axis.SliceX(part.last_slice + 1);
    const double duration = slice_duration * (part.last_slice - part.first_slice + 1);
    double y = plot.bottom();
    double merged = 0;
    for (int32_t type = 0; type < model.type_count(); ++type) {
      const double h = plot.height * sums[i].per_type[type] / duration / max_density;
      if (h <= 0) continue;
      if (h < options.min_band_px) {
        merged += h;
        continue;
      }
      canvas.FillRect({x0, y - h, x1 - x0, h}, type_colors[type]);
      y -= h;
    }
    if (merged >= 1) {
      canvas.FillRect({x0, y - merged, x1 - x0, merged}, kMergedColor);
      y -= merged;
      ++stats.merged_bands;
    } else if (merged > 0) {
      canvas.DottedLine(x0, x1, y - 2, kMergedColor, 1);
      ++stats.dotted_marks;
    }
  }
  // Part boundaries over the histogram, thin and light.
  for (size_t i = 1; i < partition.parts.size(); ++i) {
    const double x = axis.SliceX(partition.parts[i].first_slice);
    canvas.Line(x, plot.y, x, plot.bottom(), kWhite.WithAlpha(0.7), 1);
  }

  // (c) mode.
  canvas.FillRect(mode_band, kGridColor.WithAlpha(0.4));
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    const auto& part = partition.parts[i];
    if (sums[i].dominant < 0) continue;
    const double x0 = axis.SliceX(part.first_slice);
    const double x1 = axis.SliceX(part.last_slice + 1);
    const double share = sums[i].per_type[sums[i].dominant] / sums[i].total;
    canvas.FillRect({x0, mode_band.y, x1 - x0, mode_band.height}, kWhite);
    canvas.FillRect({x0, mode_band.y, x1 - x0, mode_band.height},
                    type_colors[sums[i].dominant].WithAlpha(0.3 + 0.7 * share));
  }
  for (size_t i = 1; i < partition.parts.size(); ++i) {
    const double x = axis.SliceX(partition.parts[i].first_slice);
    canvas.Line(x, mode_band.y, x, mode_band.bottom(), kWhite, 1);
  }
  Caption(canvas, mode_band, "mode");
  return stats;
}

}  // namespace macroscope::render
