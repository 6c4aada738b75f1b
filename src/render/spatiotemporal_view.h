// The spatiotemporal view: x = time, y = the hierarchy's leaves in
// depth-first order. Each part is a rectangle over its node's leaves and
// its slices, in the colour of its dominant type (mode) with alpha = its
// relative amplitude: the dominant type's share of the part's total.
//
// Visual aggregation: a part less than min_part_px tall is drawn as its
// nearest ancestor that is tall enough, over the part's slices, in that
// ancestor's mode over those slices, hatched; the parts that are large
// enough are drawn over it.
//
// The hierarchy axis on the left has one column per shown level (the top
// max_levels levels below the root): a node's name sits in its column
// when its rows are tall enough for the text; tick marks separate the
// nodes of every shown level.
#pragma once

#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "render/canvas.h"
#include "analysis/part_values.h"
#include "render/time_axis.h"

namespace macroscope::render {

struct SpatiotemporalViewOptions {
  double min_part_px = 2;  // visual aggregation threshold
  int max_levels = 3;      // levels of the hierarchy axis
};

struct SpatiotemporalViewStats {
  int64_t hatched = 0;  // ancestor rectangles drawn for thin parts
};

// Draws the parts inside `plot`, the hierarchy axis inside `axis_area`
// (to the left of plot, same height).
SpatiotemporalViewStats DrawSpatiotemporalView(Canvas& canvas, const Rect& plot,
                                               const Rect& axis_area, const TimeAxis& axis,
                                               const analysis::MicroModel& model,
                                               const analysis::Partition& partition,
                                               const std::vector<analysis::PartValues>& sums,
                                               const std::vector<analysis::LeafSpan>& spans,
                                               const std::vector<Color>& type_colors,
                                               const SpatiotemporalViewOptions& options);

}  // namespace macroscope::render
