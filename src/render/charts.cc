#include "render/charts.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "render/canvas.h"
#include "render/palette.h"
#include "render/time_axis.h"
#include "util/error.h"
#include "util/quantile.h"

namespace macroscope::render {

namespace {

constexpr int kHeight = 440;
constexpr double kLeft = 80, kRight = 24, kTop = 46, kBottom = 64;
constexpr double kLegendWidth = 150;

ImageFormat FormatOf(const std::string& path) {
  const std::optional<ImageFormat> format = FormatFromPath(path);
  if (!format) throw UserError(path + ": a chart is written as .svg or .png");
  return *format;
}

// A linear axis from lo to hi, both on round ticks.
struct Scale {
  double lo = 0, hi = 1, step = 1;
  std::vector<double> ticks;
};

// `pad`: a fraction of the range added at both ends, so that no point
// sits on the frame. `integers`: counts, never ticks between whole numbers.
Scale MakeScale(double lo, double hi, double pad = 0, bool integers = false) {
  // The padding never crosses zero: durations do not get a negative axis.
  const double margin = (hi - lo) * pad;
  lo = lo >= 0 ? std::max(lo - margin, 0.0) : lo - margin;
  hi = hi <= 0 ? std::min(hi + margin, 0.0) : hi + margin;
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const std::vector<double> nice = NiceTicks(lo, hi, 8);
  Scale s;
  s.step = nice.size() >= 2 ? nice[1] - nice[0] : hi - lo;
  if (integers) s.step = std::max(s.step, 1.0);
  // Tick k is k / (1 / step) for steps under 1, as NiceTicks makes them.
  const double inverse = s.step < 1 ? std::round(1 / s.step) : 0;
  auto at = [&](double k) {
    const double t = inverse > 0 ? k / inverse : k * s.step;
    return t == 0 ? 0.0 : t;
  };
  const double first = std::floor(lo / s.step + 1e-9), last = std::ceil(hi / s.step - 1e-9);
  s.lo = at(first);
  s.hi = at(std::max(last, first + 1));
  for (double k = first; k <= std::max(last, first + 1) + 0.5; k += 1) s.ticks.push_back(at(k));
  return s;
}

// The plot area of a chart: title, y axis with its grid and title, x axis
// title; a numeric x axis on request. Finish() draws the frame last, over
// the data.
class Plot {
 public:
  Plot(Canvas& canvas, const ChartText& text, Scale y, double right_margin = kRight)
      : canvas_(canvas),
        y_(std::move(y)),
        area_{kLeft, kTop, canvas.width() - kLeft - right_margin, canvas.height() - kTop - kBottom} {
    canvas.set_title(text.title);
    if (!text.title.empty()) {
      canvas.Text(canvas.width() / 2.0, 28, text.title,
                  {.size = 15, .color = kTextColor, .align = Align::kCenter, .bold = true}, canvas.width() - 20);
    }
    const TextStyle label{.size = 11, .color = kTextColor, .align = Align::kRight};
    for (double v : y_.ticks) {
      canvas.Line(area_.x, Y(v), area_.right(), Y(v), kGridColor, 1);
      canvas.Text(area_.x - 6, Y(v) + 4, FormatTick(v, y_.step), label);
    }
    const TextStyle caption{.size = 12, .color = kMutedTextColor, .align = Align::kCenter};
    if (!text.y_axis.empty()) canvas.VerticalText(18, area_.y + area_.height / 2, text.y_axis, caption);
    if (!text.x_axis.empty()) canvas.Text(area_.x + area_.width / 2, canvas.height() - 12, text.x_axis, caption);
  }

  const Rect& area() const { return area_; }
  double Y(double v) const { return area_.bottom() - area_.height * (v - y_.lo) / (y_.hi - y_.lo); }
  double X(double v) const { return area_.x + area_.width * (v - x_.lo) / (x_.hi - x_.lo); }

  void NumericX(Scale x) {
    x_ = std::move(x);
    const TextStyle label{.size = 11, .color = kTextColor, .align = Align::kCenter};
    for (double v : x_.ticks) {
      canvas_.Line(X(v), area_.y, X(v), area_.bottom(), kGridColor, 1);
      canvas_.Line(X(v), area_.bottom(), X(v), area_.bottom() + 4, kAxisColor, 1);
      canvas_.Text(X(v), area_.bottom() + 17, FormatTick(v, x_.step), label);
    }
  }

  void Finish(const std::string& path) {
    canvas_.StrokeRect(area_, kAxisColor, 1);
    canvas_.Save(path);
  }

 private:
  Canvas& canvas_;
  Scale y_, x_;
  Rect area_;
};

void Dot(Canvas& canvas, double x, double y, const Color& color, double radius) {
  canvas.DottedLine(x, x, y, color, radius);  // a row of one dot
}

}  // namespace

BoxSummary SummarizeBox(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  BoxSummary s;
  s.count = values.size();
  s.q1 = Quantile(values, 0.25);
  s.median = Quantile(values, 0.5);
  s.q3 = Quantile(values, 0.75);
  const double reach = 1.5 * (s.q3 - s.q1);
  s.low = s.q1;
  s.high = s.q3;
  for (double v : values) {
    if (v < s.q1 - reach || v > s.q3 + reach) {
      s.outliers.push_back(v);
      continue;
    }
    s.low = std::min(s.low, v);
    s.high = std::max(s.high, v);
  }
  return s;
}

void SaveBoxPlot(const std::vector<BoxGroup>& groups, const ChartText& text, const std::string& path) {
  const ImageFormat format = FormatOf(path);
  const size_t n = std::max<size_t>(groups.size(), 1);
  const int width = static_cast<int>(std::clamp(kLeft + kRight + 90.0 * static_cast<double>(n), 480.0, 2400.0));
  Canvas canvas(width, kHeight, format);
  double lo = INFINITY, hi = -INFINITY;
  for (const BoxGroup& g : groups)
    for (double v : g.values) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo > hi) lo = hi = 0;
  Plot plot(canvas, text, MakeScale(lo, hi, 0.04));
  const Rect& area = plot.area();
  const double slot = area.width / static_cast<double>(n);
  const double w = std::min(56.0, slot * 0.6);
  const TextStyle label{.size = 11, .color = kTextColor, .align = Align::kCenter};
  const TextStyle count{.size = 10, .color = kMutedTextColor, .align = Align::kCenter};
  for (size_t i = 0; i < groups.size(); ++i) {
    const double cx = area.x + slot * (static_cast<double>(i) + 0.5);
    canvas.Text(cx, area.bottom() + 17, groups[i].name, label, slot - 4);
    canvas.Text(cx, area.bottom() + 31, "n = " + std::to_string(groups[i].values.size()), count, slot - 4);
    if (groups[i].values.empty()) continue;
    const BoxSummary s = SummarizeBox(groups[i].values);
    const Color color = PartColor(static_cast<int64_t>(i));
    canvas.Line(cx, plot.Y(s.high), cx, plot.Y(s.q3), kTextColor, 1);
    canvas.Line(cx, plot.Y(s.q1), cx, plot.Y(s.low), kTextColor, 1);
    canvas.Line(cx - w / 4, plot.Y(s.high), cx + w / 4, plot.Y(s.high), kTextColor, 1);
    canvas.Line(cx - w / 4, plot.Y(s.low), cx + w / 4, plot.Y(s.low), kTextColor, 1);
    const Rect box{cx - w / 2, plot.Y(s.q3), w, plot.Y(s.q1) - plot.Y(s.q3)};
    canvas.FillRect(box, color.WithAlpha(0.45));
    canvas.StrokeRect(box, kTextColor, 1);
    canvas.Line(cx - w / 2, plot.Y(s.median), cx + w / 2, plot.Y(s.median), kTextColor, 2);
    for (double v : s.outliers) Dot(canvas, cx, plot.Y(v), kTextColor, 2.5);
  }
  plot.Finish(path);
}

void SaveCurves(const std::vector<CurveSeries>& series, const ChartText& text, const std::string& path) {
  const ImageFormat format = FormatOf(path);
  const bool legend = series.size() > 1;
  Canvas canvas(legend ? 900 : 760, kHeight, format);
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  for (const CurveSeries& s : series) {
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      x_lo = std::min(x_lo, s.x[i]), x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, s.y[i]), y_hi = std::max(y_hi, s.y[i]);
    }
  }
  if (x_lo > x_hi) x_lo = x_hi = y_lo = y_hi = 0;
  Plot plot(canvas, text, MakeScale(y_lo, y_hi, 0.04), legend ? kRight + kLegendWidth : kRight);
  plot.NumericX(MakeScale(x_lo, x_hi));
  const TextStyle name{.size = 11, .color = kTextColor};
  // The type palette's colours, stable per series name (a run keeps its
  // colour), darkened: its light tones are too faint for lines.
  std::vector<std::string> names;
  for (const CurveSeries& s : series) names.push_back(s.name);
  const std::vector<Color> colors = TypeColors(names);
  for (size_t k = 0; k < series.size(); ++k) {
    const CurveSeries& s = series[k];
    const size_t n = std::min(s.x.size(), s.y.size());
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    std::vector<double> xs, ys;
    for (size_t i : order) {
      xs.push_back(plot.X(s.x[i]));
      ys.push_back(plot.Y(s.y[i]));
    }
    const Color color{colors[k].r * 0.75, colors[k].g * 0.75, colors[k].b * 0.75, 1};
    canvas.Polyline(xs, ys, color, 1.8);
    if (n <= 60)
      for (size_t i = 0; i < n; ++i) Dot(canvas, xs[i], ys[i], color, 2.5);
    if (legend) {
      const double x = plot.area().right() + 14, y = plot.area().y + 8 + 17 * static_cast<double>(k);
      if (y > plot.area().bottom()) continue;
      canvas.Line(x, y - 4, x + 16, y - 4, color, 2.5);
      canvas.Text(x + 22, y, s.name, name, kLegendWidth - 30);
    }
  }
  plot.Finish(path);
}

Bins BinValues(const std::vector<double>& values, int bins) {
  Bins b;
  bins = std::max(bins, 1);
  if (values.empty()) {
    b.counts.assign(static_cast<size_t>(bins), 0);
    return b;
  }
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*lo == *hi) {
    b.low = *lo - 0.5;
    b.counts = {static_cast<int64_t>(values.size())};
    return b;
  }
  b.low = *lo;
  b.width = (*hi - *lo) / bins;
  b.counts.assign(static_cast<size_t>(bins), 0);
  for (double v : values) {
    const auto k = static_cast<size_t>(std::clamp((v - *lo) / b.width, 0.0, static_cast<double>(bins - 1)));
    ++b.counts[k];
  }
  return b;
}

void SaveHistogram(const Bins& bins, const ChartText& text, const std::string& path) {
  const ImageFormat format = FormatOf(path);
  Canvas canvas(760, kHeight, format);
  int64_t most = 0;
  for (int64_t c : bins.counts) most = std::max(most, c);
  Plot plot(canvas, text, MakeScale(0, static_cast<double>(std::max<int64_t>(most, 1)) * 1.04, 0, true));
  const double end = bins.low + bins.width * static_cast<double>(bins.counts.size());
  plot.NumericX(MakeScale(bins.low, end));
  for (size_t k = 0; k < bins.counts.size(); ++k) {
    const double x0 = plot.X(bins.low + bins.width * static_cast<double>(k));
    const double x1 = plot.X(bins.low + bins.width * static_cast<double>(k + 1));
    const double top = plot.Y(static_cast<double>(bins.counts[k]));
    canvas.FillRect({x0 + 0.5, top, std::max(x1 - x0 - 1, 0.5), plot.Y(0) - top}, kGainColor);
  }
  plot.Finish(path);
}

}  // namespace macroscope::render
