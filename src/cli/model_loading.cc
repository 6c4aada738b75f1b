#include "cli/model_loading.h"

#include <algorithm>
#include <chrono>

#include "analysis/model_csv.h"
#include "analysis/trace_model.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

double Since(std::chrono::steady_clock::time_point& last) {
  auto now = std::chrono::steady_clock::now();
  double s = std::chrono::duration<double>(now - last).count();
  last = now;
  return s;
}

// --types names model types ("State:running") or entity types ("State",
// meaning all its values); the result keeps the model's type order.
std::vector<std::string> ExpandTypes(const analysis::MicroModel& model, const std::vector<std::string>& wanted) {
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

analysis::MicroModel LoadModel(const ModelSource& source, ModelTimings* timings) {
  auto last = std::chrono::steady_clock::now();
  std::optional<analysis::MicroModel> model;
  if (!source.model_in.empty()) {
    model.emplace(analysis::ReadModelCsv(source.model_in, source.slices));
    timings->read = Since(last);
    if (source.start && source.end) model->set_range({*source.start, *source.end});
  } else {
    auto metric = analysis::MetricFromName(source.metric);
    if (!metric) {
      std::string known;
      for (const auto& name : analysis::MetricNames()) known += (known.empty() ? "" : ", ") + name;
      throw UserError("unknown --metric '" + source.metric + "' (known: " + known + ")");
    }
    LoadedTrace loaded;
    LoadTrace(source.trace, source.read, loaded);
    timings->read = Since(last);
    analysis::ModelRequest request;
    request.metric = *metric;
    request.slices = source.slices.value_or(100);
    request.start = source.start;
    request.end = source.end;
    model.emplace(analysis::BuildModel(loaded.trace, request));
  }
  if (!source.types.empty()) model.emplace(model->SelectTypes(ExpandTypes(*model, source.types)));
  if (!source.containers.empty()) model.emplace(model->SelectContainers(source.containers));
  timings->model = Since(last);
  return std::move(*model);
}

}  // namespace macroscope::cli
