// curve: y against x, one line per group (the text of a column, in order
// of first appearance) through its points in x order, as SVG or PNG.
#include <cmath>

#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_reading.h"
#include "render/charts.h"

namespace macroscope::pipeline {

namespace {

class Curve : public Module {
 public:
  Curve(const std::string& name, std::string path, std::string x, std::string y, std::string group, std::string title)
      : Module(name),
        path_(std::move(path)),
        x_(std::move(x)),
        y_(std::move(y)),
        group_(std::move(group)),
        title_(std::move(title)) {
    in_ = &AddInput<RowBatch>("in");
  }

  void Run() override {
    RowGroups groups;
    std::vector<render::CurveSeries> series;
    size_t x_column = 0, y_column = 0, group_column = 0;
    bool found = false;
    while (const RowBatch* batch = in_->Next()) {
      if (!found) {
        x_column = ColumnIndex(*batch, x_, "curve");
        y_column = ColumnIndex(*batch, y_, "curve");
        if (!group_.empty()) group_column = ColumnIndex(*batch, group_, "curve");
        found = true;
      }
      for (size_t r = 0; r < batch->rows(); ++r) {
        const size_t g = groups.Number(group_.empty() ? y_ : analysis::CellText(batch->at(r, group_column)));
        if (g == series.size()) series.push_back({groups.names()[g], {}, {}});
        const std::optional<double> x = CellNumber(batch->at(r, x_column), "curve", x_);
        const std::optional<double> y = CellNumber(batch->at(r, y_column), "curve", y_);
        if (!x || !y || !std::isfinite(*x) || !std::isfinite(*y)) continue;
        series[g].x.push_back(*x);
        series[g].y.push_back(*y);
      }
    }
    const std::string title = !title_.empty() ? title_ : y_ + " against " + x_;
    render::SaveCurves(series, {.title = title, .x_axis = x_, .y_axis = y_}, path_);
    RecordWritten(path_);
  }

 private:
  std::string path_, x_, y_, group_, title_;
  Input<RowBatch>* in_;
};

}  // namespace

ModuleInfo CurveModule() {
  return {
      .kind = "curve",
      .description = "Draws y against x as lines, one per group, through the points in x order",
      .params = {{"path", "the picture: .svg or .png", true},
                 {"x", "the column of x values", true},
                 {"y", "the column of y values", true},
                 {"group", "the column naming each row's line (default: one line)"},
                 {"title", "the chart's title (default: 'Y against X')"}},
      .inputs = {{"in", "rows", "rows with the x, y (and group) columns"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(CurveModule());
        return std::make_unique<Curve>(name, ChartPath(params), params.String("x"), params.String("y"),
                                       params.String("group", ""), params.String("title", ""));
      },
  };
}

}  // namespace macroscope::pipeline
