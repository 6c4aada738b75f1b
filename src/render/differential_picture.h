// The picture of a differential overview (analysis/compare/
// differential_overview.h): the overview picture (overview_picture.h) of the
// difference model — its parts, the stacked histogram of the "X +" and
// "X -" types, the quality curves — titled with the two runs and their
// alignment, times in seconds from the aligned origin.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare/differential_overview.h"
#include "render/canvas.h"
#include "render/overview_picture.h"

namespace macroscope::render {

struct DifferentialPictureInput {
  const analysis::compare::DifferentialOverviewResult* overview = nullptr;
  std::string a_name, b_name;  // e.g. the traces' file names
  std::string alignment;       // how the runs are aligned: "start", "end", "event:NAME"
  std::string metric;          // the model's metric name ("state-time")
  OverviewMode mode = OverviewMode::kTemporal;
};

// The colours of a difference model's types: "X +" in X's colour (as
// TypeColors gives it among the types X), "X -" in a paler tint of it.
std::vector<Color> DifferenceColors(const std::vector<std::string>& types);

// "A vs B (B - A), aligned at ALIGNMENT": the picture's title.
std::string DifferentialTitle(const DifferentialPictureInput& input);

OverviewStats DrawDifferentialOverview(Canvas& canvas, const DifferentialPictureInput& input);

}  // namespace macroscope::render
