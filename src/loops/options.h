// Options of the model search (what `macroscope loops` exposes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace macroscope::loops {

// The seed's configurations: adjacent/distant intervals of fixed/variable
// size. kAuto: the smallest exact model over all of them (FindModel).
enum class Mode { kAuto, kAdjacentFixed, kAdjacentVariable, kDistantFixed, kDistantVariable };

// kAuto: search for short traces (the seed's exhaustive top-down search,
// quadratic), bottom-up above kAutoSearchLimit values; in the automatic
// mode, both up to the limit and the smaller model wins.
enum class Algorithm { kAuto, kSearch, kBottomUp };

inline constexpr int64_t kAutoSearchLimit = 20000;
// In the automatic mode the variable and distant searches (costlier than
// af) are tried on traces up to this length.
inline constexpr int64_t kAutoModesLimit = 4000;

struct Options {
  Mode mode = Mode::kAuto;
  Algorithm algorithm = Algorithm::kAuto;
  // Share (0 <= tolerance < 1) of a phase's values that may be exceptions.
  double tolerance = 0.0;
  // Maximum number of nested loop dimensions of a phase.
  int max_depth = 8;
  // Order of the periodic-linear recurrences searched (RPLI); 0 = none.
  int recurrence_order = 0;
};

// Parsing and printing of the enumerations, for the CLI and reports.
bool ParseMode(std::string_view text, Mode& mode);
bool ParseAlgorithm(std::string_view text, Algorithm& algorithm);
std::string_view ModeName(Mode mode);
std::string_view AlgorithmName(Algorithm algorithm);

}  // namespace macroscope::loops
