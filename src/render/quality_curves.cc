#include "render/quality_curves.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "render/time_axis.h"

namespace macroscope::render {

namespace {

double Ratio(double value, double full) { return full > 0 ? std::clamp(value / full, 0.0, 1.0) : 0; }

}  // namespace

void DrawQualityCurves(Canvas& canvas, const Rect& area,
                       const std::vector<analysis::PListEntry>& list,
                       const analysis::Quality& full_aggregate, double chosen_p,
                       int64_t chosen_parts) {
  TextStyle title{.size = 12, .color = kTextColor, .bold = true};
  canvas.Text(area.x, area.y + 12, "Quality against p", title);
  const Rect plot{area.x + 34, area.y + 24, area.width - 44, area.height - 24 - 36};
  canvas.StrokeRect(plot, kAxisColor, 1);
  TextStyle label{.size = 10, .color = kTextColor, .align = Align::kRight};
  for (double v : {0.0, 0.5, 1.0}) {
    const double y = plot.bottom() - plot.height * v;
    if (v > 0 && v < 1) canvas.Line(plot.x, y, plot.right(), y, kGridColor, 1);
    canvas.Text(plot.x - 4, y + 3.5, FormatTick(v, 0.5), label);
  }
  // Breakpoints usually crowd near p = 0: then p is on a log scale from
  // the decade below the first non-zero breakpoint.
  const bool log_scale = list.size() > 1 && list[1].p > 0 && list[1].p < 0.05;
  const double low = log_scale ? std::pow(10.0, std::floor(std::log10(list[1].p))) : 0;
  auto x_of = [&](double p) {
    if (!log_scale) return plot.x + plot.width * p;
    const double t = (std::log10(std::max(p, low)) - std::log10(low)) / -std::log10(low);
    return plot.x + plot.width * t;
  };
  label.align = Align::kCenter;
  std::vector<double> ticks;
  if (log_scale) {
    const int decades = static_cast<int>(std::lround(-std::log10(low)));
    const int every = decades > 4 ? 2 : 1;
    for (int d = decades; d >= 0; d -= every) ticks.push_back(std::pow(10.0, -d));
  } else {
    ticks = {0.0, 0.25, 0.5, 0.75, 1.0};
  }
  for (double p : ticks) {
    const double x = x_of(p);
    canvas.Line(x, plot.bottom(), x, plot.bottom() + 3, kAxisColor, 1);
    char text[32];
    std::snprintf(text, sizeof text, "%g", p);
    canvas.Text(x, plot.bottom() + 14, text, label);
  }
  TextStyle caption{.size = 11, .color = kMutedTextColor, .align = Align::kCenter};
  canvas.Text(plot.x + plot.width / 2, plot.bottom() + 28, log_scale ? "p (log scale)" : "p",
              caption);

  auto steps = [&](bool gain) {
    std::vector<double> xs, ys;
    for (size_t k = 0; k < list.size(); ++k) {
      const double from = list[k].p;
      const double to = k + 1 < list.size() ? list[k + 1].p : 1.0;
      const double v = gain ? Ratio(list[k].quality.gain, full_aggregate.gain)
                            : Ratio(list[k].quality.loss, full_aggregate.loss);
      const double y = plot.bottom() - plot.height * v;
      xs.push_back(x_of(from));
      ys.push_back(y);
      xs.push_back(x_of(to));
      ys.push_back(y);
    }
    canvas.Polyline(xs, ys, gain ? kGainColor : kLossColor, 1.8);
  };
  steps(true);
  steps(false);

  const double x = x_of(std::clamp(chosen_p, 0.0, 1.0));
  const bool right_half = x > plot.x + plot.width / 2;
  canvas.Line(x, plot.y, x, plot.bottom(), kTextColor, 1, true);
  char text[64];
  std::snprintf(text, sizeof text, "p = %.3g, %lld parts", chosen_p,
                static_cast<long long>(chosen_parts));
  TextStyle mark{.size = 10, .color = kTextColor,
                 .align = right_half ? Align::kRight : Align::kLeft};
  canvas.Text(right_half ? x - 4 : x + 4, plot.y + 12, text, mark);

  // Key.
  TextStyle key{.size = 10, .color = kTextColor};
  const double ky = plot.y + plot.height / 2;
  const double kx = right_half ? plot.x + 8 : plot.right() - 70;
  canvas.Line(kx, ky, kx + 14, ky, kGainColor, 2);
  canvas.Text(kx + 18, ky + 3.5, "gain", key);
  canvas.Line(kx, ky + 14, kx + 14, ky + 14, kLossColor, 2);
  canvas.Text(kx + 18, ky + 17.5, "loss", key);
}

}  // namespace macroscope::render
