#include "pipeline/modules/parameter_checks.h"

#include "render/canvas.h"
#include "util/error.h"

namespace macroscope::pipeline {

void BadParameter(const Params& params, std::string_view name, std::string_view problem) {
  throw UserError("module '" + params.module() + "': parameter '" + std::string(name) + "': " + std::string(problem));
}

size_t Choice(const Params& params, std::string_view name, std::initializer_list<std::string_view> choices,
              std::optional<std::string_view> fallback) {
  const std::string word =
      params.String(name, fallback ? std::optional<std::string>(std::string(*fallback)) : std::nullopt);
  size_t i = 0;
  std::string list;
  for (std::string_view choice : choices) {
    if (choice == word) return i;
    list += (i++ ? ", " : "") + std::string(choice);
  }
  BadParameter(params, name, "'" + word + "' is not one of " + list);
}

std::string OutputPath(const Params& params) {
  std::string path = params.String("path");
  if (path.empty()) BadParameter(params, "path", "empty path");
  return path;
}

std::string ChartPath(const Params& params) {
  std::string path = OutputPath(params);
  if (!render::FormatFromPath(path)) BadParameter(params, "path", "'" + path + "': a chart is written as .svg or .png");
  return path;
}

}  // namespace macroscope::pipeline
