// A thin wrapper over cairo for the overview pictures: rectangles, lines,
// hatching, text, then the picture as SVG or PNG bytes or an atomically
// written file. Coordinates are in pixels (SVG: user units), origin at the
// top left.
//
// Cairo writes text as glyph outlines in SVG, which no one can search; so
// the SVG also carries a <title> and a <desc> listing every text drawn, one
// per line (what a reader or a screen reader can use).
//
// Not thread-safe. Errors: Save() throws UserError when the file cannot be
// written (nothing is left behind); a cairo failure throws
// std::runtime_error.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/palette.h"

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;

namespace macroscope::render {

enum class ImageFormat { kSvg, kPng };

// The format named by the path's extension (.svg or .png, any case).
std::optional<ImageFormat> FormatFromPath(std::string_view path);

struct Rect {
  double x = 0, y = 0, width = 0, height = 0;
  double right() const { return x + width; }
  double bottom() const { return y + height; }
};

enum class Align { kLeft, kCenter, kRight };

struct TextStyle {
  double size = 12;
  Color color = kTextColor;
  Align align = Align::kLeft;
  bool bold = false;
};

class Canvas {
 public:
  Canvas(int width, int height, ImageFormat format);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  ImageFormat format() const { return format_; }

  void FillRect(const Rect& rect, const Color& color);
  void StrokeRect(const Rect& rect, const Color& color, double line_width = 1);
  // Diagonal lines over `rect`, `spacing` pixels apart.
  void HatchRect(const Rect& rect, const Color& color, double spacing = 4, double line_width = 1);
  void Line(double x1, double y1, double x2, double y2, const Color& color, double line_width = 1,
            bool dashed = false);
  // A polyline through (xs[i], ys[i]).
  void Polyline(const std::vector<double>& xs, const std::vector<double>& ys, const Color& color,
                double line_width = 1.5);
  // A row of dots from (x1, y) to (x2, y).
  void DottedLine(double x1, double x2, double y, const Color& color, double dot_radius = 1);

  // Text with its baseline at y; `x` is the left, centre or right end as
  // `style.align` says. Text wider than max_width (when > 0) is cut and
  // ends with an ellipsis.
  void Text(double x, double y, std::string_view text, const TextStyle& style,
            double max_width = 0);
  // Same, turned a quarter counter-clockwise (reads bottom to top); (x, y)
  // is the baseline's centre.
  void VerticalText(double x, double y, std::string_view text, const TextStyle& style);
  double TextWidth(std::string_view text, const TextStyle& style);
  // `text` cut to fit max_width, with an ellipsis when cut.
  std::string Fit(std::string_view text, const TextStyle& style, double max_width);

  // Text for the SVG's <title>.
  void set_title(std::string title) { title_ = std::move(title); }

  // The finished picture (SVG text or PNG bytes). Ends the drawing.
  std::string Encode();
  // Encode() written to `path` through a temporary file beside it.
  void Save(const std::string& path);

 private:
  void SetFont(const TextStyle& style);
  void SetColor(const Color& color);

  int width_;
  int height_;
  ImageFormat format_;
  std::string svg_bytes_;  // filled by cairo's SVG stream
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  std::string title_;
  std::vector<std::string> texts_;
  std::optional<std::string> encoded_;
};

}  // namespace macroscope::render
