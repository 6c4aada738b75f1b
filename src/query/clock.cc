#include "query/clock.h"

#include <algorithm>
#include <cmath>

namespace macroscope::query {

namespace {
__extension__ typedef __int128 Int128;  // exact products of ticks and rates
}  // namespace

Clock::Clock(const TimeBase& base) : base_(base) {
  const Int128 scaled = static_cast<Int128>(base.num) * 1000000000;
  if (base.den != 0 && scaled % base.den == 0 && scaled / base.den <= INT64_MAX)
    ns_per_tick_ = static_cast<int64_t>(scaled / base.den);
}

int64_t Clock::Ns(int64_t ticks) const {
  if (ns_per_tick_ != 0) return ticks * ns_per_tick_;
  const Int128 scaled = static_cast<Int128>(ticks) * base_.num * 1000000000;
  const Int128 den = base_.den, half = den / 2;
  return static_cast<int64_t>(scaled >= 0 ? (scaled + half) / den : -((-scaled + half) / den));
}

std::pair<int64_t, int64_t> Clock::TicksAround(double ns) const {
  // ticks = ns * den / (num * 10^9), in doubles: a bound need not be exact,
  // only wide enough; two ticks and a relative margin cover the rounding.
  const double ticks = ns / 1e9 * static_cast<double>(base_.den) / static_cast<double>(base_.num);
  const double margin = 2 + std::abs(ticks) * 1e-12;
  const double lo = std::max(ticks - margin, -9.2e18), hi = std::min(ticks + margin, 9.2e18);
  return {static_cast<int64_t>(std::floor(lo)), static_cast<int64_t>(std::ceil(hi))};
}

analysis::Cell Clock::Time(double t) const {
  if (whole()) return Ticks(t);
  return t;
}

analysis::Cell Clock::TimeNs(double t) const {
  if (!whole()) return {};
  return Ns(Ticks(t));
}

double Clock::ModelTime(int64_t bound) const {
  if (!whole()) return static_cast<double>(bound);
  // In integers first: the difference is exact below 2^53.
  return static_cast<double>(static_cast<Int128>(bound) - base_.origin);
}

}  // namespace macroscope::query
