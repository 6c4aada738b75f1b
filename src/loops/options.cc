#include "loops/options.h"

namespace macroscope::loops {

bool ParseMode(std::string_view text, Mode& mode) {
  if (text == "auto") mode = Mode::kAuto;
  else if (text == "af") mode = Mode::kAdjacentFixed;
  else if (text == "av") mode = Mode::kAdjacentVariable;
  else if (text == "df") mode = Mode::kDistantFixed;
  else if (text == "dv") mode = Mode::kDistantVariable;
  else return false;
  return true;
}

bool ParseAlgorithm(std::string_view text, Algorithm& algorithm) {
  if (text == "auto") algorithm = Algorithm::kAuto;
  else if (text == "search") algorithm = Algorithm::kSearch;
  else if (text == "bottom-up") algorithm = Algorithm::kBottomUp;
  else return false;
  return true;
}

std::string_view ModeName(Mode mode) {
  switch (mode) {
    case Mode::kAuto: return "auto";
    case Mode::kAdjacentFixed: return "af";
    case Mode::kAdjacentVariable: return "av";
    case Mode::kDistantFixed: return "df";
    case Mode::kDistantVariable: return "dv";
  }
  return "af";
}

std::string_view AlgorithmName(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kAuto: return "auto";
    case Algorithm::kSearch: return "search";
    case Algorithm::kBottomUp: return "bottom-up";
  }
  return "auto";
}

}  // namespace macroscope::loops
