// The overview picture of one aggregation, as a person would put it in a
// report: a title, the views of the partition (temporal: partition,
// stacked histogram, mode; spatiotemporal: hierarchy x time), the quality
// curves, and a legend (type colours, p, mode, metric, parts, gain and
// loss).
#pragma once

#include <string>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "render/canvas.h"
#include "render/palette.h"
#include "render/time_axis.h"

namespace macroscope::render {

enum class OverviewMode { kTemporal, kSpatiotemporal };

struct OverviewInput {
  const analysis::MicroModel* model = nullptr;
  const analysis::Aggregation* aggregation = nullptr;
  const analysis::Partition* partition = nullptr;  // the optimal partition at p
  const std::vector<analysis::PListEntry>* p_list = nullptr;  // exact list
  double p = 0;
  OverviewMode mode = OverviewMode::kTemporal;
  std::string metric;
  std::string title;  // e.g. the trace's file name
  AxisTime time;      // how the time axis reads the model's range
  // One per model type; empty: TypeColors(model->types()).
  std::vector<Color> type_colors;
};

// Visual aggregation thresholds, in pixels.
struct OverviewThresholds {
  double min_type_band_px = 2;  // temporal histogram: merge thinner types
  double min_part_px = 2;       // spatiotemporal: draw thinner parts as their parent
};

struct OverviewStats {
  int64_t merged_bands = 0;
  int64_t dotted_marks = 0;
  int64_t hatched = 0;
};

// Smallest size that stays readable.
inline constexpr int kMinOverviewWidth = 640;
inline constexpr int kMinOverviewHeight = 400;

OverviewStats DrawOverview(Canvas& canvas, const OverviewInput& input,
                           const OverviewThresholds& thresholds = {});

}  // namespace macroscope::render
