#include "render/differential_picture.h"

#include <algorithm>

#include "analysis/compare/differential_model.h"

namespace macroscope::render {

std::vector<Color> DifferenceColors(const std::vector<std::string>& types) {
  std::vector<std::string> changed;  // each type X once, in the model's order
  for (const std::string& type : types) {
    std::string x = analysis::compare::ChangedType(type);
    if (std::find(changed.begin(), changed.end(), x) == changed.end()) changed.push_back(std::move(x));
  }
  const std::vector<Color> of_changed = TypeColors(changed);
  std::vector<Color> out;
  for (const std::string& type : types) {
    const std::string x = analysis::compare::ChangedType(type);
    const Color c = of_changed[static_cast<size_t>(std::find(changed.begin(), changed.end(), x) - changed.begin())];
    // X - paler than X +: more and less of X side by side in one hue.
    const bool less = type == analysis::compare::DecreaseType(x);
    out.push_back(less ? Color{c.r + (1 - c.r) * 0.55, c.g + (1 - c.g) * 0.55, c.b + (1 - c.b) * 0.55, c.a} : c);
  }
  return out;
}

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
  picture.type_colors = DifferenceColors(overview.difference.types());
  return DrawOverview(canvas, picture);
}

}  // namespace macroscope::render
