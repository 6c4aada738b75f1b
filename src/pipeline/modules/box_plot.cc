// box-plot: the numbers of one column, one box per group (the text of
// another column, in order of first appearance, or in numeric order when
// every group is a whole number, as runs are), as SVG or PNG.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_reading.h"
#include "render/charts.h"

namespace macroscope::pipeline {

namespace {

class BoxPlot : public Module {
 public:
  BoxPlot(const std::string& name, std::string path, std::string group, std::string value, std::string title)
      : Module(name),
        path_(std::move(path)),
        group_(std::move(group)),
        value_(std::move(value)),
        title_(std::move(title)) {
    in_ = &AddInput<RowBatch>("in");
  }

  // Groups that are all whole numbers (collect's runs, which arrive
  // interleaved) in numeric order; other groups keep their first-seen order.
  static void SortNumberedGroups(std::vector<render::BoxGroup>& boxes) {
    std::vector<std::pair<long long, size_t>> numbers;
    for (size_t i = 0; i < boxes.size(); ++i) {
      const std::string& label = boxes[i].name;
      char* end = nullptr;
      long long n = std::strtoll(label.c_str(), &end, 10);
      if (label.empty() || *end != '\0') return;
      numbers.emplace_back(n, i);
    }
    std::sort(numbers.begin(), numbers.end());
    std::vector<render::BoxGroup> sorted;
    for (auto& [n, i] : numbers) sorted.push_back(std::move(boxes[i]));
    boxes = std::move(sorted);
  }

  void Run() override {
    RowGroups groups;
    std::vector<render::BoxGroup> boxes;
    size_t value_column = 0, group_column = 0;
    bool found = false;
    while (const RowBatch* batch = in_->Next()) {
      if (!found) {
        value_column = ColumnIndex(*batch, value_, "box-plot");
        if (!group_.empty()) group_column = ColumnIndex(*batch, group_, "box-plot");
        found = true;
      }
      for (size_t r = 0; r < batch->rows(); ++r) {
        const size_t g = groups.Number(group_.empty() ? value_ : analysis::CellText(batch->at(r, group_column)));
        if (g == boxes.size()) boxes.push_back({groups.names()[g], {}});
        const std::optional<double> v = CellNumber(batch->at(r, value_column), "box-plot", value_);
        if (v && std::isfinite(*v)) boxes[g].values.push_back(*v);
      }
    }
    SortNumberedGroups(boxes);
    const std::string title = !title_.empty() ? title_ : group_.empty() ? value_ : value_ + " by " + group_;
    render::SaveBoxPlot(boxes, {.title = title, .x_axis = group_, .y_axis = value_}, path_);
    RecordWritten(path_);
  }

 private:
  std::string path_, group_, value_, title_;
  Input<RowBatch>* in_;
};

}  // namespace

ModuleInfo BoxPlotModule() {
  return {
      .kind = "box-plot",
      .description =
          "Draws a box plot of a column (quartiles, median, whiskers at 1.5 IQR, outliers), one box per group",
      .params = {{"path", "the picture: .svg or .png", true},
                 {"value", "the column of numbers", true},
                 {"group", "the column naming each row's box (default: one box)"},
                 {"title", "the chart's title (default: 'VALUE by GROUP')"}},
      .inputs = {{"in", "rows", "rows with the value (and group) columns"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(BoxPlotModule());
        return std::make_unique<BoxPlot>(name, ChartPath(params), params.String("group", ""), params.String("value"),
                                         params.String("title", ""));
      },
  };
}

}  // namespace macroscope::pipeline
