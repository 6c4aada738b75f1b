#include "loops/series_scaling.h"

#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "util/error.h"

namespace macroscope::loops {

namespace {

constexpr std::array<TickUnit, 4> kUnits{{{"s", 1.0}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}}};

// Doubles at or beyond 2^63 do not convert to int64.
constexpr double kInt64Bound = 9223372036854775808.0;

}  // namespace

std::span<const TickUnit> TickUnits() { return kUnits; }

const TickUnit* FindTickUnit(std::string_view name) {
  for (const TickUnit& unit : kUnits) {
    if (unit.name == name) return &unit;
  }
  return nullptr;
}

bool NearlyIntegral(double x) {
  if (!std::isfinite(x)) return false;
  return std::fabs(x - std::nearbyint(x)) <= 8 * DBL_EPSILON * std::fmax(1.0, std::fabs(x));
}

int CoarsestIntegralFactor(std::span<const double> values, std::span<const double> factors) {
  for (size_t f = 0; f < factors.size(); ++f) {
    bool all = true;
    for (double v : values) {
      if (!NearlyIntegral(v * factors[f])) {
        all = false;
        break;
      }
    }
    if (all) return static_cast<int>(f);
  }
  return -1;
}

std::string FormatDouble(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  // The shortest of %.{6..17}g that reads back as the same double.
  for (int precision = 6; precision < 17; ++precision) {
    char shorter[40];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return text;
}

ScaledSeries ScaleToIntegers(std::span<const double> values, double factor, std::string_view what) {
  ScaledSeries out;
  out.values.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double x = values[i] * factor;
    if (!std::isfinite(x)) throw UserError(std::string(what) + " " + FormatDouble(values[i]) + " is not finite");
    const double r = std::nearbyint(x);
    if (!(r >= -kInt64Bound && r < kInt64Bound)) {
      throw UserError(std::string(what) + " " + FormatDouble(values[i]) +
                      " does not fit a 64-bit integer after scaling by " + FormatDouble(factor));
    }
    if (!NearlyIntegral(x)) {
      if (out.rounded++ == 0) out.first_rounded = static_cast<int64_t>(i);
      out.max_error = std::fmax(out.max_error, std::fabs(x - r));
    }
    out.values.push_back(static_cast<int64_t>(r));
  }
  return out;
}

}  // namespace macroscope::loops
