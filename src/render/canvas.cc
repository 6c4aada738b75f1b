#include "render/canvas.h"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::render {

namespace {

cairo_status_t AppendToString(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void CheckStatus(cairo_status_t status, const char* what) {
  if (status != CAIRO_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cairo: ") + what + ": " +
                             cairo_status_to_string(status));
  }
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Bytes of `text` up to `length`, not cutting a UTF-8 sequence.
std::string_view Utf8Prefix(std::string_view text, size_t length) {
  while (length > 0 && length < text.size() &&
         (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) {
    --length;
  }
  return text.substr(0, length);
}

}  // namespace

std::optional<ImageFormat> FormatFromPath(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return std::nullopt;
  }
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "svg") return ImageFormat::kSvg;
  if (ext == "png") return ImageFormat::kPng;
  return std::nullopt;
}

Canvas::Canvas(int width, int height, ImageFormat format)
    : width_(width), height_(height), format_(format) {
  if (width < 1 || height < 1) throw std::invalid_argument("Canvas: empty size");
  if (format == ImageFormat::kSvg) {
    surface_ = cairo_svg_surface_create_for_stream(AppendToString, &svg_bytes_, width, height);
  } else {
    surface_ = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  }
  CheckStatus(cairo_surface_status(surface_), "surface");
  cr_ = cairo_create(surface_);
  CheckStatus(cairo_status(cr_), "context");
  FillRect({0, 0, static_cast<double>(width), static_cast<double>(height)}, kWhite);
}

Canvas::~Canvas() {
  if (cr_ != nullptr) cairo_destroy(cr_);
  if (surface_ != nullptr) cairo_surface_destroy(surface_);
}

void Canvas::SetColor(const Color& color) {
  cairo_set_source_rgba(cr_, color.r, color.g, color.b, color.a);
}

void Canvas::FillRect(const Rect& rect, const Color& color) {
  if (rect.width <= 0 || rect.height <= 0) return;
  SetColor(color);
  cairo_rectangle(cr_, rect.x, rect.y, rect.width, rect.height);
  cairo_fill(cr_);
}

void Canvas::StrokeRect(const Rect& rect, const Color& color, double line_width) {
  SetColor(color);
  cairo_set_line_width(cr_, line_width);
  cairo_rectangle(cr_, rect.x, rect.y, rect.width, rect.height);
  cairo_stroke(cr_);
}

void Canvas::HatchRect(const Rect& rect, const Color& color, double spacing, double line_width) {
  if (rect.width <= 0 || rect.height <= 0) return;
  cairo_save(cr_);
  cairo_rectangle(cr_, rect.x, rect.y, rect.width, rect.height);
  cairo_clip(cr_);
  SetColor(color);
  cairo_set_line_width(cr_, line_width);
  // Lines x - y = c, aligned on the canvas so neighbouring hatched areas join.
  const double start = std::floor((rect.x - rect.bottom()) / spacing) * spacing;
  for (double c = start; c <= rect.right() - rect.y; c += spacing) {
    cairo_move_to(cr_, c + rect.y, rect.y);
    cairo_line_to(cr_, c + rect.bottom(), rect.bottom());
  }
  cairo_stroke(cr_);
  cairo_restore(cr_);
}

void Canvas::Line(double x1, double y1, double x2, double y2, const Color& color,
                  double line_width, bool dashed) {
  SetColor(color);
  cairo_set_line_width(cr_, line_width);
  if (dashed) {
    const double dashes[] = {4, 3};
    cairo_set_dash(cr_, dashes, 2, 0);
  }
  cairo_move_to(cr_, x1, y1);
  cairo_line_to(cr_, x2, y2);
  cairo_stroke(cr_);
  cairo_set_dash(cr_, nullptr, 0, 0);
}

void Canvas::Polyline(const std::vector<double>& xs, const std::vector<double>& ys,
                      const Color& color, double line_width) {
  const size_t n = std::min(xs.size(), ys.size());
  if (n < 2) return;
  SetColor(color);
  cairo_set_line_width(cr_, line_width);
  cairo_set_line_join(cr_, CAIRO_LINE_JOIN_MITER);
  cairo_move_to(cr_, xs[0], ys[0]);
  for (size_t i = 1; i < n; ++i) cairo_line_to(cr_, xs[i], ys[i]);
  cairo_stroke(cr_);
}

void Canvas::DottedLine(double x1, double x2, double y, const Color& color, double dot_radius) {
  SetColor(color);
  const double step = std::max(3 * dot_radius, 2.0);
  for (double x = x1 + dot_radius; x <= x2 - dot_radius + 1e-9; x += step) {
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, x, y, dot_radius, 0, 2 * M_PI);
  }
  // A single dot for a part narrower than two dots.
  if (x2 - x1 < 2 * dot_radius) cairo_arc(cr_, (x1 + x2) / 2, y, dot_radius, 0, 2 * M_PI);
  cairo_fill(cr_);
}

void Canvas::SetFont(const TextStyle& style) {
  cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr_, style.size);
}

double Canvas::TextWidth(std::string_view text, const TextStyle& style) {
  SetFont(style);
  std::string s(text);
  cairo_text_extents_t extents;
  cairo_text_extents(cr_, s.c_str(), &extents);
  return extents.x_advance;
}

std::string Canvas::Fit(std::string_view text, const TextStyle& style, double max_width) {
  if (max_width <= 0 || TextWidth(text, style) <= max_width) return std::string(text);
  static constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
  size_t length = text.size();
  while (length > 0) {
    --length;
    std::string candidate = std::string(Utf8Prefix(text, length)) + std::string(kEllipsis);
    if (TextWidth(candidate, style) <= max_width) return candidate;
  }
  return "";
}

void Canvas::Text(double x, double y, std::string_view text, const TextStyle& style,
                  double max_width) {
  std::string s = Fit(text, style, max_width);
  if (s.empty()) return;
  texts_.emplace_back(text);
  const double width = TextWidth(s, style);
  SetColor(style.color);
  double left = x;
  if (style.align == Align::kCenter) left = x - width / 2;
  if (style.align == Align::kRight) left = x - width;
  cairo_move_to(cr_, left, y);
  cairo_show_text(cr_, s.c_str());
  cairo_new_path(cr_);
}

void Canvas::VerticalText(double x, double y, std::string_view text, const TextStyle& style) {
  std::string s(text);
  texts_.push_back(s);
  const double width = TextWidth(s, style);
  cairo_save(cr_);
  cairo_translate(cr_, x, y);
  cairo_rotate(cr_, -M_PI / 2);
  SetColor(style.color);
  cairo_move_to(cr_, -width / 2, 0);
  cairo_show_text(cr_, s.c_str());
  cairo_new_path(cr_);
  cairo_restore(cr_);
}

std::string Canvas::Encode() {
  if (encoded_) return *encoded_;
  if (format_ == ImageFormat::kPng) {
    std::string bytes;
    cairo_surface_flush(surface_);
    CheckStatus(cairo_surface_write_to_png_stream(surface_, AppendToString, &bytes), "png");
    encoded_ = std::move(bytes);
    return *encoded_;
  }
  cairo_destroy(cr_);
  cr_ = nullptr;
  cairo_surface_finish(surface_);
  CheckStatus(cairo_surface_status(surface_), "svg");
  // Searchable text: a <title> and a <desc> right after the <svg> tag.
  std::string svg = svg_bytes_;
  const size_t open = svg.find("<svg");
  const size_t tag_end = open == std::string::npos ? open : svg.find('>', open);
  if (tag_end != std::string::npos) {
    std::string meta = "\n<title>" + XmlEscape(title_) + "</title>\n<desc>";
    for (const auto& text : texts_) meta += XmlEscape(text) + "\n";
    meta += "</desc>";
    svg.insert(tag_end + 1, meta);
  }
  encoded_ = std::move(svg);
  return *encoded_;
}

void Canvas::Save(const std::string& path) {
  const std::string bytes = Encode();
  AtomicFile file(path);
  if (std::fwrite(bytes.data(), 1, bytes.size(), file.stream()) != bytes.size()) {
    throw UserError(path + ": cannot write");
  }
  file.Commit();
}

}  // namespace macroscope::render
