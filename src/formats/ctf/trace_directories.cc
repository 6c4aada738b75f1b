#include "formats/ctf/trace_directories.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace macroscope::ctf {

namespace fs = std::filesystem;

namespace {

// How deep below the given directory traces are looked for: LTTng session
// folders hold kernel/ and ust/uid/<uid>/<bits>-bit/ trace directories.
constexpr int kMaxDepth = 6;

bool IsMetadataFile(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  std::ifstream in(file, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  return LooksLikeCtfMetadata(std::string_view(head, static_cast<size_t>(in.gcount())));
}

void Search(const fs::path& dir, int depth, std::vector<std::string>& out) {
  std::error_code ec;
  if (fs::exists(dir / "metadata", ec)) {  // a trace: not searched further
    out.push_back(dir.string());
    return;
  }
  if (depth >= kMaxDepth) return;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec)) Search(it->path(), depth + 1, out);
  }
}

}  // namespace

bool LooksLikeCtfMetadata(std::string_view head) {
  if (head.substr(0, 6) == "/* CTF") return true;
  static constexpr unsigned char kBig[4] = {0x75, 0xD1, 0x1D, 0x57};
  static constexpr unsigned char kLittle[4] = {0x57, 0x1D, 0xD1, 0x75};
  return head.size() >= 4 && (std::memcmp(head.data(), kBig, 4) == 0 || std::memcmp(head.data(), kLittle, 4) == 0);
}

bool LooksLikeCtf(const std::string& path) {
  std::error_code ec;
  fs::path p(path);
  if (fs::is_directory(p, ec)) return !FindTraceDirectories(path).empty();
  return p.filename() == "metadata" && IsMetadataFile(p);
}

std::vector<std::string> FindTraceDirectories(const std::string& path) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::path p(path);
  if (!fs::is_directory(p, ec)) {
    if (p.filename() == "metadata") out.push_back(p.has_parent_path() ? p.parent_path().string() : ".");
    return out;
  }
  Search(p, 0, out);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace macroscope::ctf
