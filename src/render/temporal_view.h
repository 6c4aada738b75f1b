// The temporal views of a partition, stacked over one time axis:
//   (a) partition: one rectangle per part, coloured by position;
//   (b) stacked histogram: per part, each type's sum over the resources
//       per unit time, stacked in type order, on a linear scale up to the
//       largest part total;
//   (c) mode: per part, the colour of the dominant type with alpha =
//       0.3 + 0.7 x its share of the part's total (the mode's amplitude;
//       the floor keeps a weak mode visible).
//
// Visual aggregation in (b): the types of a part whose band would be
// thinner than min_band_px are merged into one black band on top of the
// stack; when even that band is thinner than one pixel, a dotted black
// line marks the top of the stack instead.
#pragma once

#include <string>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "render/canvas.h"
#include "analysis/part_values.h"
#include "render/time_axis.h"

namespace macroscope::render {

struct TemporalViewOptions {
  double band_height = 26;  // partition and mode bands
  double gap = 8;
  double min_band_px = 2;   // visual aggregation threshold of the histogram
  // Histogram heights per second of the clock (counts on a clock of ns
  // ticks would be per ns), not per unit of model time (state time per
  // time is a ratio either way).
  bool per_second = false;
};

struct TemporalViewStats {
  int64_t merged_bands = 0;  // parts drawn with a black merged band
  int64_t dotted_marks = 0;  // parts drawn with a dotted mark
};

// Draws inside `area` (x extent = the axis's); captions and the value
// scale go to the left of area.x. Returns what visual aggregation did.
TemporalViewStats DrawTemporalView(Canvas& canvas, const Rect& area, const TimeAxis& axis,
                                   const analysis::MicroModel& model,
                                   const analysis::Partition& partition,
                                   const std::vector<analysis::PartValues>& sums,
                                   const std::vector<Color>& type_colors,
                                   const TemporalViewOptions& options);

}  // namespace macroscope::render
