#include "server/static_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace macroscope::server {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNotBuiltPage =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>macroscope</title></head>\n"
    "<body style=\"font-family: sans-serif; max-width: 40em; margin: 3em auto\">\n"
    "<h1>macroscope</h1>\n"
    "<p>The web UI is not built. Build it from the source tree with <code>make web</code> "
    "(it writes <code>web/dist</code>), or give its directory with <code>--web DIR</code>, "
    "then restart <code>macroscope serve</code>.</p>\n"
    "<p>The JSON API is available meanwhile under <code>/api/</code> "
    "(see <code>docs/serve.md</code>).</p>\n</body></html>\n";

bool ReadWhole(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

// The path's segments, or false when one of them could step outside the
// directory or is not a plain name.
bool SafeSegments(std::string_view path, std::vector<std::string_view>& segments) {
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t slash = path.find('/', begin);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view segment = path.substr(begin, slash - begin);
    if (!segment.empty()) {
      if (segment == "." || segment == ".." || segment.find('\\') != std::string_view::npos ||
          segment.find('\0') != std::string_view::npos || segment.find(':') != std::string_view::npos) {
        return false;
      }
      segments.push_back(segment);
    }
    begin = slash + 1;
  }
  return true;
}

}  // namespace

std::string_view ContentType(std::string_view file_name) {
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".woff2", "font/woff2"},
      {".wasm", "application/wasm"},
  };
  for (const auto& [extension, type] : kTypes) {
    if (file_name.size() > extension.size() && file_name.ends_with(extension)) return type;
  }
  return "application/octet-stream";
}

StaticFiles::StaticFiles(std::string directory) {
  std::error_code ec;
  fs::path canonical = fs::canonical(directory, ec);
  built_ = !ec && fs::is_regular_file(canonical / "index.html", ec);
  directory_ = built_ ? canonical.string() : directory;
}

StaticAnswer StaticFiles::Get(std::string_view path) const {
  std::vector<std::string_view> segments;
  if (!SafeSegments(path, segments)) {
    return {400, "text/plain; charset=utf-8", "bad path\n"};
  }
  if (!built_) return {200, "text/html; charset=utf-8", std::string(kNotBuiltPage)};
  fs::path file(directory_);
  for (auto segment : segments) file /= std::string(segment);
  std::error_code ec;
  fs::path resolved = fs::canonical(file, ec);
  const std::string root = directory_ + "/";
  const bool inside = !ec && resolved.string().compare(0, root.size(), root) == 0;
  StaticAnswer answer;
  if (inside && fs::is_regular_file(resolved, ec) && ReadWhole(resolved, answer.body)) {
    answer.content_type = ContentType(resolved.filename().string());
    return answer;
  }
  if (!ReadWhole(fs::path(directory_) / "index.html", answer.body)) {
    return {500, "text/plain; charset=utf-8", "cannot read index.html\n"};
  }
  answer.content_type = ContentType("index.html");
  return answer;
}

}  // namespace macroscope::server
