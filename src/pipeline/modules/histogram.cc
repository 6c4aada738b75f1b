// histogram: how many numbers of a column fall in each of `bins` equal
// bins from the smallest to the largest, as SVG or PNG.
#include <cmath>

#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_reading.h"
#include "render/charts.h"

namespace macroscope::pipeline {

namespace {

class Histogram : public Module {
 public:
  Histogram(const std::string& name, std::string path, std::string value, int bins, std::string title)
      : Module(name), path_(std::move(path)), value_(std::move(value)), bins_(bins), title_(std::move(title)) {
    in_ = &AddInput<RowBatch>("in");
  }

  void Run() override {
    std::vector<double> values;
    size_t column = 0;
    bool found = false;
    while (const RowBatch* batch = in_->Next()) {
      if (!found) {
        column = ColumnIndex(*batch, value_, "histogram");
        found = true;
      }
      for (size_t r = 0; r < batch->rows(); ++r) {
        const std::optional<double> v = CellNumber(batch->at(r, column), "histogram", value_);
        if (v && std::isfinite(*v)) values.push_back(*v);
      }
    }
    const std::string title = !title_.empty() ? title_ : "Histogram of " + value_;
    render::SaveHistogram(render::BinValues(values, bins_), {.title = title, .x_axis = value_, .y_axis = "count"},
                          path_);
    RecordWritten(path_);
  }

 private:
  std::string path_, value_;
  int bins_;
  std::string title_;
  Input<RowBatch>* in_;
};

}  // namespace

ModuleInfo HistogramModule() {
  return {
      .kind = "histogram",
      .description = "Draws a histogram of a column: counts in equal bins from its smallest to its largest number",
      .params = {{"path", "the picture: .svg or .png", true},
                 {"value", "the column of numbers", true},
                 {"bins", "the number of bins, 1 to 10000 (default 20)"},
                 {"title", "the chart's title (default: 'Histogram of VALUE')"}},
      .inputs = {{"in", "rows", "rows with the value column"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(HistogramModule());
        const int64_t bins = params.Integer("bins", 20);
        if (bins < 1 || bins > 10000) BadParameter(params, "bins", "must be from 1 to 10000");
        return std::make_unique<Histogram>(name, ChartPath(params), params.String("value"), static_cast<int>(bins),
                                           params.String("title", ""));
      },
  };
}

}  // namespace macroscope::pipeline
