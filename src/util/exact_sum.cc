#include "util/exact_sum.h"

#include <cstddef>

namespace macroscope {

namespace {

// Shewchuk's step: `partials` and finite `x` become partials (increasing
// magnitude, non-overlapping) of the same exact sum.
void AddPartial(std::vector<double>& partials, double x) {
  size_t kept = 0;
  for (const double p : partials) {
    const double hi = x + p;
    const double p_in_hi = hi - x;
    const double lo = (x - (hi - p_in_hi)) + (p - p_in_hi);
    if (lo != 0) partials[kept++] = lo;
    x = hi;
  }
  partials.resize(kept);
  partials.push_back(x);
}

// Partials rounded to the nearest double, ties to even.
double Rounded(const std::vector<double>& partials) {
  size_t n = partials.size();
  if (n == 0) return 0;
  // From the largest partial down, until a partial no longer fits exactly:
  // then hi is the sum rounded to nearest, lo what that rounding left out.
  double hi = partials[--n], lo = 0;
  while (n > 0) {
    const double x = hi, y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);  // exact (fast two-sum): |y| <= |x|, the partials do not overlap
    if (lo != 0) break;
  }
  // A tie (lo is half an ulp of hi) was rounded to even; the partials
  // below break it: when they push the same way as lo, round away instead.
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const double twice = lo * 2, away = hi + twice;
    if (away - hi == twice) hi = away;
  }
  return hi;
}

}  // namespace

ExactSum::ExactSum(const ExactSum& other)
    : hi_(other.hi_), lo_(other.lo_),
      overflow_(other.overflow_ ? std::make_unique<Overflow>(*other.overflow_) : nullptr) {}

ExactSum& ExactSum::operator=(const ExactSum& other) {
  if (this != &other) *this = ExactSum(other);
  return *this;
}

void ExactSum::Spill(double error) {
  if (!std::isfinite(hi_) || !std::isfinite(lo_)) {  // beyond the largest double: infinite
    Rare().special += std::isfinite(hi_) ? lo_ : hi_;
    hi_ = lo_ = 0;
    return;
  }
  AddPartial(Rare().partials, error);
}

void ExactSum::Merge(const ExactSum& other) {
  if (!other.overflow_) {  // hi and lo are its terms (copied first: `other` may be this sum)
    const double hi = other.hi_, lo = other.lo_;
    Add(hi);
    Add(lo);
    return;
  }
  for (const double x : other.Terms()) Add(x);  // a copy: `other` may be this sum
}

double ExactSum::Value() const {
  // Without partials the exact sum is hi + lo, and one addition of two
  // doubles rounds it to nearest, ties to even.
  if (!overflow_) return hi_ + lo_;
  if (overflow_->special != 0) return overflow_->special;  // +-inf or NaN (0 while none)
  std::vector<double> partials = overflow_->partials;
  AddPartial(partials, lo_);
  AddPartial(partials, hi_);
  return Rounded(partials);
}

std::vector<double> ExactSum::Terms() const {
  std::vector<double> terms = overflow_ ? overflow_->partials : std::vector<double>();
  for (const double x : {lo_, hi_, overflow_ ? overflow_->special : 0.0})
    if (x != 0) terms.push_back(x);  // NaN too
  return terms;
}

}  // namespace macroscope
