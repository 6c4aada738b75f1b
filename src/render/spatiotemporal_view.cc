#include "render/spatiotemporal_view.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace macroscope::render {

namespace {

using analysis::Hierarchy;
using analysis::NodeId;

int Depth(const Hierarchy& tree, NodeId node) {
  int depth = 0;
  for (; node != Hierarchy::kRoot; node = tree.Parent(node)) ++depth;
  return depth;
}

void DrawHierarchyAxis(Canvas& canvas, const Rect& area, const Rect& plot,
                       const analysis::MicroModel& model, const std::vector<analysis::LeafSpan>& spans,
                       int max_levels) {
  const Hierarchy& tree = model.hierarchy();
  const double row = plot.height / std::max(1, model.leaf_count());
  int depth_max = 0;
  std::vector<int> depth(tree.size(), 0);
  for (NodeId node = 1; node < tree.size(); ++node) {
    depth[node] = Depth(tree, node);
    depth_max = std::max(depth_max, depth[node]);
  }
  const int levels = std::clamp(depth_max, 1, max_levels);
  const double column = area.width / levels;
  TextStyle style{.size = 11, .color = kTextColor, .align = Align::kLeft};
  for (NodeId node = 1; node < tree.size(); ++node) {
    if (depth[node] > levels) continue;
    const double x = area.x + column * (depth[node] - 1);
    const double y0 = plot.y + row * spans[node].first;
    const double y1 = y0 + row * spans[node].count;
    // A tick at the node's top edge, longer for higher levels, reaching
    // into the plot's margin.
    canvas.Line(x, y0, plot.x, y0, kGridColor, 1);
    canvas.Line(plot.x - 6.0 * (levels - depth[node] + 1), y0, plot.x, y0, kAxisColor, 1);
    if (y1 - y0 >= style.size + 2) {
      // The deepest shown level gets the rest of the width too.
      const double width = depth[node] == levels ? plot.x - x - 8 : column - 6;
      canvas.Text(x + 3, (y0 + y1) / 2 + style.size * 0.35, tree.Name(node), style, width);
    }
  }
  canvas.Line(plot.x, plot.bottom(), area.x, plot.bottom(), kGridColor, 1);
  canvas.Line(plot.x, plot.y, plot.x, plot.bottom(), kAxisColor, 1);
}

}  // namespace

SpatiotemporalViewStats DrawSpatiotemporalView(Canvas& canvas, const Rect& plot,
                                               const Rect& axis_area, const TimeAxis& axis,
                                               const analysis::MicroModel& model,
                                               const analysis::Partition& partition,
                                               const std::vector<analysis::PartValues>& sums,
                                               const std::vector<analysis::LeafSpan>& spans,
                                               const std::vector<Color>& type_colors,
                                               const SpatiotemporalViewOptions& options) {
  SpatiotemporalViewStats stats;
  const Hierarchy& tree = model.hierarchy();
  const double row = plot.height / std::max(1, model.leaf_count());
  auto rect_of = [&](NodeId node, int32_t first, int32_t last) {
    const double x0 = axis.SliceX(first);
    const double x1 = axis.SliceX(last + 1);
    return Rect{x0, plot.y + row * spans[node].first, x1 - x0, row * spans[node].count};
  };

  // Thin parts, grouped by the ancestor (and slices) they are drawn as.
  std::map<std::tuple<NodeId, int32_t, int32_t>, bool> hatched;
  std::vector<bool> thin(partition.parts.size(), false);
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    const auto& part = partition.parts[i];
    const Rect r = rect_of(part.node, part.first_slice, part.last_slice);
    // Only height: going up the tree cannot widen a part.
    if (r.height >= options.min_part_px) continue;
    thin[i] = true;
    NodeId ancestor = part.node;
    while (ancestor != Hierarchy::kRoot && row * spans[ancestor].count < options.min_part_px) {
      ancestor = tree.Parent(ancestor);
    }
    hatched[{ancestor, part.first_slice, part.last_slice}] = true;
  }

  std::vector<analysis::PartValues> ancestor_sums;
  for (const auto& [key, unused] : hatched) {
    const auto& [node, first, last] = key;
    ancestor_sums.push_back(analysis::SumValues(model, spans[node], first, last));
  }
  // Alpha: the mode's relative amplitude, its share of the part's total.
  // (Against the largest value of the picture instead, one busy resource
  // would wash every other one out.) Empty parts stay white.
  auto fill = [&](const Rect& r, const analysis::PartValues& v) {
    if (v.dominant < 0) return;
    const double alpha = std::clamp(v.per_type[v.dominant] / v.total, 0.15, 1.0);
    canvas.FillRect(r, type_colors[v.dominant].WithAlpha(alpha));
  };

  size_t k = 0;
  for (const auto& [key, unused] : hatched) {
    const auto& [node, first, last] = key;
    const Rect r = rect_of(node, first, last);
    fill(r, ancestor_sums[k++]);
    canvas.HatchRect(r, kTextColor.WithAlpha(0.45), 4, 0.8);
    ++stats.hatched;
  }
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    if (thin[i]) continue;
    const auto& part = partition.parts[i];
    const Rect r = rect_of(part.node, part.first_slice, part.last_slice);
    canvas.FillRect(r, kWhite);
    fill(r, sums[i]);
    // A thin outline so that neighbouring parts of one type stay apart.
    canvas.StrokeRect({r.x + 0.25, r.y + 0.25, std::max(0.0, r.width - 0.5),
                       std::max(0.0, r.height - 0.5)},
                      kWhite, 0.5);
  }
  DrawHierarchyAxis(canvas, axis_area, plot, model, spans, options.max_levels);
  return stats;
}

}  // namespace macroscope::render
