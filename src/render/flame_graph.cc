#include "render/flame_graph.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/time_base.h"
#include "util/error.h"

namespace macroscope::render {

namespace {

constexpr double kFrameHeight = 17, kMargin = 10, kTitleHeight = 44, kMinWidth = 0.3;

size_t Column(const analysis::Table& table, const std::string& name) {
  const auto it = std::find(table.columns.begin(), table.columns.end(), name);
  if (it == table.columns.end()) throw std::invalid_argument("a call tree has no column " + name);
  return static_cast<size_t>(it - table.columns.begin());
}

int64_t Integer(const analysis::Cell& cell) {
  const auto* i = std::get_if<int64_t>(&cell);
  return i ? *i : 0;
}

std::string Text(const analysis::Cell& cell) {
  const auto* s = std::get_if<std::string>(&cell);
  return s ? *s : std::string();
}

// The picture on a canvas of its own size.
std::unique_ptr<Canvas> Draw(const analysis::Table& tree, const FlameGraphOptions& options, ImageFormat format) {
  const size_t id = Column(tree, "id"), parent = Column(tree, "parent"), depth = Column(tree, "depth"),
               function = Column(tree, "function"), calls = Column(tree, "calls"),
               inclusive = Column(tree, "inclusive_ns");
  const size_t n = tree.rows();
  // Rows come a parent before its children, siblings in drawing order:
  // each row starts where its parent's previous child ended.
  std::vector<int64_t> total_of(n + 1, 0), next_of(n + 1, 0);  // by id: inclusive, where its next child starts
  std::vector<int64_t> offset(n + 1, 0);
  int64_t roots = 0;
  int64_t deepest = 0;
  for (size_t r = 0; r < n; ++r) {
    const int64_t i = Integer(tree.at(r, id));
    if (i < 1 || i > static_cast<int64_t>(n)) throw std::invalid_argument("a call tree's ids are its rows, from 1");
    total_of[i] = std::max<int64_t>(0, Integer(tree.at(r, inclusive)));
    const int64_t p = Integer(tree.at(r, parent));
    if (p == 0) {
      offset[i] = roots;
      roots += total_of[i];
    } else {
      offset[i] = next_of[p];
      next_of[p] += total_of[i];
    }
    next_of[i] = offset[i];
    deepest = std::max(deepest, Integer(tree.at(r, depth)));
  }
  const double plot_width = options.width - 2 * kMargin;
  const double levels = static_cast<double>(deepest + 1);
  const int height = static_cast<int>(kTitleHeight + levels * kFrameHeight + 2 * kMargin + 16);
  auto picture = std::make_unique<Canvas>(options.width, height, format);
  Canvas& canvas = *picture;
  canvas.set_title(options.title);
  canvas.FillRect({0, 0, static_cast<double>(options.width), static_cast<double>(height)}, kWhite);
  canvas.Text(options.width / 2.0, 20, options.title, {16, kTextColor, Align::kCenter, true});
  if (!options.subtitle.empty())
    canvas.Text(options.width / 2.0, 36, options.subtitle, {11, kMutedTextColor, Align::kCenter}, plot_width);
  const double scale = roots > 0 ? plot_width / static_cast<double>(roots) : 0;
  const double bottom = height - kMargin - 16;
  for (size_t r = 0; r < n; ++r) {
    const int64_t i = Integer(tree.at(r, id));
    const double width = static_cast<double>(total_of[i]) * scale;
    if (width < kMinWidth) continue;
    const double x = kMargin + static_cast<double>(offset[i]) * scale;
    const double y = bottom - static_cast<double>(Integer(tree.at(r, depth)) + 1) * kFrameHeight;
    const std::string name = Text(tree.at(r, function));
    const Rect box{x, y, width, kFrameHeight - 1};
    canvas.FillRect(box, TypeColor(name).WithAlpha(0.85));
    canvas.StrokeRect(box, kWhite, 0.5);
    if (width > 24) {
      const std::string label = name + " (" + std::to_string(Integer(tree.at(r, calls))) + ")";
      canvas.Text(x + 3, y + kFrameHeight - 5, label, {10, kTextColor, Align::kLeft}, width - 6);
    }
  }
  // The time the bottom line spans.
  canvas.Text(kMargin, height - kMargin, "width: inclusive time, " + HumanSeconds(static_cast<double>(roots) * 1e-9, 0, false) + " in all",
              {10, kMutedTextColor, Align::kLeft});
  return picture;
}

}  // namespace

std::string DrawFlameGraph(const analysis::Table& tree, const FlameGraphOptions& options, ImageFormat format) {
  return Draw(tree, options, format)->Encode();
}

void SaveFlameGraph(const analysis::Table& tree, const FlameGraphOptions& options, const std::string& path) {
  const std::optional<ImageFormat> format = FormatFromPath(path);
  if (!format) throw UserError(path + ": a picture's name ends in .svg or .png");
  Draw(tree, options, *format)->Save(path);
}

}  // namespace macroscope::render
