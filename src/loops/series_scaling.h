// Turning a series of doubles (times in seconds, variable values) into the
// integer series the modeller works on: a power-of-ten scale, chosen as the
// coarsest that loses nothing, then rounding to the nearest integer.
// Independent of the trace model; `macroscope loops --from` uses it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::loops {

// A tick unit for times given in seconds.
struct TickUnit {
  std::string_view name;  // "s", "ms", "us", "ns"
  double per_second;      // ticks in one second: 1, 1e3, 1e6, 1e9
};

// The units `--unit` accepts, coarsest first: s, ms, us, ns.
std::span<const TickUnit> TickUnits();
// The unit named `name`, or nullptr.
const TickUnit* FindTickUnit(std::string_view name);

// True when x is an integer up to the error of reading a decimal into a
// double and multiplying it by a power of ten (a few units in the last
// place): |x - round(x)| <= 8 * DBL_EPSILON * max(1, |x|).
bool NearlyIntegral(double x);

// The index of the first (coarsest) factor f in `factors` such that every
// value * f is NearlyIntegral, or -1 when there is none.
int CoarsestIntegralFactor(std::span<const double> values, std::span<const double> factors);

struct ScaledSeries {
  std::vector<int64_t> values;
  int64_t rounded = 0;      // values that were not NearlyIntegral
  double max_error = 0;     // largest |value * factor - result|, in scaled units
  int64_t first_rounded = -1;  // index of the first of them, -1 if none
};

// values[i] * factor rounded to the nearest integer. Throws UserError
// "<what> <value> is not finite" or "<what> <value> does not fit a 64-bit
// integer after scaling by <factor>" when a result cannot be an int64.
ScaledSeries ScaleToIntegers(std::span<const double> values, double factor, std::string_view what);

// Writes a double the short way ("0.013", "1e+20"), for messages.
std::string FormatDouble(double value);

}  // namespace macroscope::loops
