// The time axis shared by the views of one picture: maps a time (or a
// slice boundary) to x, and places ticks at round numbers.
//
// A model with a time range maps slice i to [begin + i*d, begin + (i+1)*d);
// a model without one (CSV) uses slice numbers as its times, so the axis
// reads "slice".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/micro_model.h"
#include "render/canvas.h"

namespace macroscope::render {

// Round tick values inside [begin, end]: steps of 1, 2 or 5 times a power
// of ten, at most max_ticks of them (at least 2 when the range allows).
std::vector<double> NiceTicks(double begin, double end, int max_ticks);
// A tick label with as many decimals as the step needs ("0.25", "1500").
std::string FormatTick(double value, double step);

class TimeAxis {
 public:
  // x_left, x_right: the pixels of the range's ends.
  TimeAxis(const std::optional<analysis::TimeRange>& range, int slices, double x_left,
           double x_right);

  // x of the left edge of slice s (s = slices: the right end).
  double SliceX(double s) const { return left_ + (right_ - left_) * s / slices_; }
  double TimeX(double t) const { return left_ + (right_ - left_) * (t - begin_) / (end_ - begin_); }
  // Duration of one slice, in time units (1 for slice numbers).
  double SliceDuration() const { return (end_ - begin_) / slices_; }
  bool has_time() const { return has_time_; }
  double left() const { return left_; }
  double right() const { return right_; }

  // Tick marks and labels below y (the axis line is drawn at y), and the
  // unit caption ("time" or "slice") at the right end.
  void Draw(Canvas& canvas, double y) const;
  // Light vertical grid lines at the ticks, from y_top to y_bottom.
  void DrawGrid(Canvas& canvas, double y_top, double y_bottom) const;

 private:
  std::vector<double> Ticks() const;

  bool has_time_;
  double begin_, end_;
  int slices_;
  double left_, right_;
};

}  // namespace macroscope::render
