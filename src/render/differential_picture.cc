#include "render/differential_picture.h"

namespace macroscope::render {

std::string DifferentialTitle(const DifferentialPictureInput& input) {
  return input.a_name + " vs " + input.b_name + " (B - A), aligned at " + input.alignment;
}

OverviewStats DrawDifferentialOverview(Canvas& canvas, const DifferentialPictureInput& input) {
  const analysis::compare::DifferentialOverviewResult& overview = *input.overview;
  OverviewInput picture;
  picture.model = &overview.difference;
  picture.aggregation = overview.aggregation.get();
  picture.partition = &overview.partition;
  picture.p_list = &overview.p_list;
  picture.p = overview.p;
  picture.mode = input.mode;
  // The metric decides the histogram's unit (state time: states at once),
  // as for one run.
  picture.metric = input.metric;
  picture.title = DifferentialTitle(input);
  picture.time.seconds = true;
  picture.time.origin = "aligned " + input.alignment;
  return DrawOverview(canvas, picture);
}

}  // namespace macroscope::render
