#include "render/time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace macroscope::render {

namespace {

// The smallest step of 1, 2 or 5 times a power of ten that puts at most
// max_ticks ticks in [begin, end].
double NiceStep(double begin, double end, int max_ticks) {
  const double raw = (end - begin) / std::max(1, max_ticks);
  double power = std::pow(10.0, std::floor(std::log10(raw)) - 1);
  for (;; power *= 10) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * power;
      const double count = std::floor(end / step + 1e-9) - std::ceil(begin / step - 1e-9) + 1;
      if (count <= max_ticks) return step;
    }
  }
}

}  // namespace

std::vector<double> NiceTicks(double begin, double end, int max_ticks) {
  std::vector<double> ticks;
  if (!(end > begin) || !std::isfinite(begin) || !std::isfinite(end) || max_ticks < 2) return ticks;
  const double step = NiceStep(begin, end, max_ticks);
  // Tick k is k * step; for steps under 1, k / (1 / step), which is exact
  // for the decimals a label shows (3 * 0.2 is not 0.6, 3 / 5 is).
  const double inverse = step < 1 ? std::round(1 / step) : 0;
  for (double k = std::ceil(begin / step - 1e-9);; k += 1) {
    const double t = inverse > 0 ? k / inverse : k * step;
    if (t > end + step * 1e-9) break;
    ticks.push_back(t == 0 ? 0.0 : t);
  }
  return ticks;
}

std::string FormatTick(double value, double step) {
  int decimals = 0;
  if (step > 0 && step < 1) decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  decimals = std::clamp(decimals, 0, 9);
  char buffer[64];
  const double magnitude = std::max(std::fabs(value), step);
  if (magnitude >= 1e7 || (magnitude > 0 && magnitude < 1e-4)) {
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  }
  return buffer;
}

TimeAxis::TimeAxis(const std::optional<analysis::TimeRange>& range, int slices, double x_left,
                   double x_right, AxisTime time)
    : has_time_(range.has_value()),
      begin_(range ? range->begin : 0),
      end_(range ? range->end : slices),
      slices_(std::max(1, slices)),
      left_(x_left),
      right_(x_right),
      time_(std::move(time)),
      base_(range ? range->base : TimeBase{}) {}

std::vector<TimeAxis::Tick> TimeAxis::Ticks() const {
  const int max_ticks = std::clamp(static_cast<int>((right_ - left_) / 90), 2, 12);
  std::vector<Tick> ticks;
  if (in_seconds()) {
    // Round values of seconds from the range's begin; labels by HumanSeconds
    // at the step's resolution.
    const double span = base_.Seconds(end_ - begin_);
    const std::vector<double> seconds = NiceTicks(0, span, max_ticks);
    const double step = seconds.size() >= 2 ? seconds[1] - seconds[0] : span;
    const double largest = seconds.empty() ? span : seconds.back();  // one unit for the whole axis
    for (double s : seconds)
      ticks.push_back({left_ + (right_ - left_) * s / span, HumanSeconds(s, step, true, largest)});
    return ticks;
  }
  std::vector<double> values = NiceTicks(begin_, end_, max_ticks);
  if (!has_time_) {
    // Slice numbers: integers only.
    std::erase_if(values, [](double t) { return t != std::floor(t); });
  }
  const double step = values.size() >= 2 ? values[1] - values[0] : 1;
  for (double t : values) ticks.push_back({TimeX(t), FormatTick(t, step)});
  return ticks;
}

std::pair<std::string, std::string> TimeAxis::Captions() const {
  if (!has_time_) return {"slice", ""};
  if (!in_seconds()) return {"time (model units)", ""};
  const std::string wall = WallClock(base_, begin_);
  return {"time from " + time_.origin, wall.empty() ? "" : time_.origin + ": " + wall + " UTC"};
}

void TimeAxis::Draw(Canvas& canvas, double y) const {
  canvas.Line(left_, y, right_, y, kAxisColor, 1);
  TextStyle label{.size = 11, .color = kTextColor, .align = Align::kCenter};
  for (const Tick& tick : Ticks()) {
    canvas.Line(tick.x, y, tick.x, y + 4, kAxisColor, 1);
    canvas.Text(tick.x, y + 16, tick.label, label);
  }
  const auto [title, wall] = Captions();
  TextStyle caption{.size = 11, .color = kMutedTextColor, .align = Align::kRight};
  canvas.Text(right_, y + 31, title, caption);
  if (!wall.empty()) {
    TextStyle note{.size = 11, .color = kMutedTextColor};
    canvas.Text(left_, y + 31, wall, note, (right_ - left_) * 0.6);
  }
}

void TimeAxis::DrawGrid(Canvas& canvas, double y_top, double y_bottom) const {
  for (const Tick& tick : Ticks()) canvas.Line(tick.x, y_top, tick.x, y_bottom, kGridColor, 1);
}

}  // namespace macroscope::render
