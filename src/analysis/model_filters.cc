#include "analysis/model_filters.h"

#include <algorithm>

#include "util/error.h"

namespace macroscope::analysis {

namespace {

// The model types `wanted` names, in the model's type order.
std::vector<std::string> ExpandTypes(const MicroModel& model, const std::vector<std::string>& wanted) {
  std::vector<std::string> keep;
  for (const auto& w : wanted) {
    bool found = false;
    for (const auto& t : model.types()) {
      if (t == w || (t.size() > w.size() && t.compare(0, w.size(), w) == 0 && t[w.size()] == ':')) {
        if (std::find(keep.begin(), keep.end(), t) == keep.end()) keep.push_back(t);
        found = true;
      }
    }
    if (!found) throw UserError("unknown type '" + w + "' in --types");
  }
  std::vector<std::string> ordered;
  for (const auto& t : model.types())
    if (std::find(keep.begin(), keep.end(), t) != keep.end()) ordered.push_back(t);
  return ordered;
}

}  // namespace

MicroModel FilterModel(MicroModel model, const std::vector<std::string>& types,
                       const std::vector<std::string>& containers) {
  if (!types.empty()) model = model.SelectTypes(ExpandTypes(model, types));
  if (!containers.empty()) model = model.SelectContainers(containers);
  return model;
}

}  // namespace macroscope::analysis
