// Charts of a table's numbers, for the workflow modules box-plot, curve and
// histogram: one plot with labelled axes at round-number ticks
// (time_axis.h's NiceTicks), drawn on a Canvas and saved as SVG or PNG by
// the path's extension (FormatFromPath), atomically (Canvas::Save).
//
// Errors: UserError when the path is neither .svg nor .png or cannot be
// written. Values must be finite (callers drop the others).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope::render {

struct ChartText {
  std::string title;   // above the plot; also the SVG's <title>
  std::string x_axis;  // axis titles ("" : none)
  std::string y_axis;
};

// A box of a box plot: quartiles interpolated between order statistics
// (numpy's and R's default), whiskers at the most extreme values within
// 1.5 interquartile ranges of the box, the values beyond as outliers.
struct BoxSummary {
  size_t count = 0;
  double q1 = 0, median = 0, q3 = 0;
  double low = 0, high = 0;  // whisker ends
  std::vector<double> outliers;
};
// `values` must not be empty.
BoxSummary SummarizeBox(std::vector<double> values);

struct BoxGroup {
  std::string name;
  std::vector<double> values;  // none: the group is labelled, with no box
};
// One box per group, left to right in the given order.
void SaveBoxPlot(const std::vector<BoxGroup>& groups, const ChartText& text, const std::string& path);

struct CurveSeries {
  std::string name;  // in the legend when there are several series
  std::vector<double> x, y;
};
// One line per series through its points in x order.
void SaveCurves(const std::vector<CurveSeries>& series, const ChartText& text, const std::string& path);

// Equal bins from the smallest value to the largest (which falls in the
// last bin); values all equal: one bin of width 1 centred on them.
struct Bins {
  double low = 0, width = 1;
  std::vector<int64_t> counts;
};
Bins BinValues(const std::vector<double>& values, int bins);
void SaveHistogram(const Bins& bins, const ChartText& text, const std::string& path);

}  // namespace macroscope::render
