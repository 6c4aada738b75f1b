#include "formats/trace_folder.h"

#include <algorithm>
#include <filesystem>

#include "formats/format.h"
#include "util/error.h"

namespace macroscope::formats {

namespace {

bool IsTrace(const std::string& path) {
  try {
    Detect(path);
    return true;
  } catch (const UserError&) {
    return false;
  }
}

}  // namespace

std::vector<std::string> TracesAt(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error) || IsTrace(path)) return {path};
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.path().filename().string().starts_with(".")) continue;
    if (IsTrace(entry.path().string())) out.push_back(entry.path().string());
  }
  if (error) throw UserError(path + ": cannot list the folder: " + error.message());
  if (out.empty()) throw UserError(path + ": no trace in this folder");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace macroscope::formats
