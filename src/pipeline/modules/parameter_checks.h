// Checks of module parameters that several modules share: a choice among
// fixed words, a required output path. Problems are UserErrors naming the
// module instance and the parameter, as Params' own getters do.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "pipeline/params.h"

namespace macroscope::pipeline {

[[noreturn]] void BadParameter(const Params& params, std::string_view name, std::string_view problem);

// The position in `choices` of the word parameter `name` gives (or of
// `fallback` when it is absent; none: required).
size_t Choice(const Params& params, std::string_view name, std::initializer_list<std::string_view> choices,
              std::optional<std::string_view> fallback = std::nullopt);

// The required, non-empty `path` parameter.
std::string OutputPath(const Params& params);
// The same for a chart: a path ending in .svg or .png.
std::string ChartPath(const Params& params);

}  // namespace macroscope::pipeline
