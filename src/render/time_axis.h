// The time axis shared by the views of one picture: maps a time (or a
// slice boundary) to x, and places ticks at round numbers.
//
// A model with a time range maps slice i to [begin + i*d, begin + (i+1)*d);
// a model without one (CSV) uses slice numbers as its times, so the axis
// reads "slice". The times of a trace's model are ticks of its clock
// (range->base): the axis labels them for people, in seconds from the
// range's begin (the trace start, unless the picture is of a window) at
// round values, written by HumanSeconds ("+500 ms", "+1.5 s"), and gives
// the wall-clock time of that start when the clock has one.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/micro_model.h"
#include "model/time_base.h"
#include "render/canvas.h"

namespace macroscope::render {

// Round tick values inside [begin, end]: steps of 1, 2 or 5 times a power
// of ten, at most max_ticks of them (at least 2 when the range allows).
std::vector<double> NiceTicks(double begin, double end, int max_ticks);
// A tick label with as many decimals as the step needs ("0.25", "1500").
std::string FormatTick(double value, double step);

// How the axis reads the range's times.
struct AxisTime {
  // The range is in ticks of range->base, labelled in seconds from its
  // begin; false: plain numbers in the model's own unit (a CSV model).
  bool seconds = true;
  // What the range's begin is, for the axis title: "time from trace start".
  std::string origin = "trace start";
};

class TimeAxis {
 public:
  // x_left, x_right: the pixels of the range's ends.
  TimeAxis(const std::optional<analysis::TimeRange>& range, int slices, double x_left,
           double x_right, AxisTime time = {});

  // x of the left edge of slice s (s = slices: the right end).
  double SliceX(double s) const { return left_ + (right_ - left_) * s / slices_; }
  double TimeX(double t) const { return left_ + (right_ - left_) * (t - begin_) / (end_ - begin_); }
  // Duration of one slice, in time units (1 for slice numbers).
  double SliceDuration() const { return (end_ - begin_) / slices_; }
  bool has_time() const { return has_time_; }
  // Whether times are labelled in seconds (a trace's clock); then the duration of a slice in seconds.
  bool in_seconds() const { return has_time_ && time_.seconds; }
  double SliceSeconds() const { return base_.Seconds(SliceDuration()); }
  double left() const { return left_; }
  double right() const { return right_; }

  // Tick marks and labels below y (the axis line is drawn at y), the title
  // at the right end ("time from trace start", "slice"), and under its
  // left end the wall-clock time of the range's begin when the clock has one.
  void Draw(Canvas& canvas, double y) const;
  // Light vertical grid lines at the ticks, from y_top to y_bottom.
  void DrawGrid(Canvas& canvas, double y_top, double y_bottom) const;

  struct Tick {
    double x;
    std::string label;
  };
  std::vector<Tick> Ticks() const;
  // What Draw writes below the labels: {title, wall-clock note or ""}.
  std::pair<std::string, std::string> Captions() const;

 private:
  bool has_time_;
  double begin_, end_;
  int slices_;
  double left_, right_;
  AxisTime time_;
  TimeBase base_;
};

}  // namespace macroscope::render
