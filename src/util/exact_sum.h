// The exact sum of doubles, rounded once when read: the same double for the
// same terms in any order and any split into sums merged later, so that a
// trace read in parts (docs/mpi.md) sums state times as a whole reading does.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

namespace macroscope {

// hi + lo + the partials is the exact sum of the terms. Adding a term is
// two two-sum steps (Knuth's: exact whatever the magnitudes); what lo
// cannot hold exactly goes to Shewchuk's non-overlapping partials, which
// terms of one scale (state times, whole or short decimals) seldom reach:
// the common step has no branch that the terms make unpredictable.
class ExactSum {
 public:
  ExactSum() = default;
  ExactSum(const ExactSum& other);
  ExactSum& operator=(const ExactSum& other);
  ExactSum(ExactSum&&) noexcept = default;
  ExactSum& operator=(ExactSum&&) noexcept = default;

  void Add(double x) {
    if (!std::isfinite(x)) {
      Rare().special += x;
      return;
    }
    const double hi = hi_ + x, hi_error = TwoSumError(hi_, x, hi);
    const double lo = lo_ + hi_error, lo_error = TwoSumError(lo_, hi_error, lo);
    hi_ = hi, lo_ = lo;
    if (lo_error != 0) Spill(lo_error);  // NaN too: hi or lo beyond the largest double
  }
  // Adds every term `other` holds, exactly.
  void Merge(const ExactSum& other);

  // The exact sum rounded to the nearest double (ties to even); infinite or
  // NaN if a term was (inf + -inf is NaN, as in any order), infinite if the
  // sum went beyond the largest double.
  double Value() const;

  // When the sum has no other terms (nothing spilled, nothing infinite or
  // NaN): two doubles whose exact sum it is, and true. What a store of
  // many sums keeps in 16 bytes each (model_accumulator.h); their one
  // addition is the sum rounded to nearest, as Value().
  bool AsPair(double& hi, double& lo) const {
    if (overflow_) return false;
    hi = hi_;
    lo = lo_;
    return true;
  }

  // Doubles whose exact sum is this sum (with the non-finite terms' sum if
  // any): what a sum sends to be merged elsewhere by Add.
  std::vector<double> Terms() const;

 private:
  // The error of s = a + b: a + b == s + error exactly.
  static double TwoSumError(double a, double b, double s) {
    const double b_in_s = s - a;
    return (a - (s - b_in_s)) + (b - b_in_s);
  }
  void Spill(double error);

  // What few sums ever need, apart: a microscopic model holds one sum per
  // cell (model_accumulator.h), 24 bytes instead of 48.
  struct Overflow {
    std::vector<double> partials;  // increasing magnitude, non-overlapping
    double special = 0;            // the sum of the non-finite terms
  };
  Overflow& Rare() {
    if (!overflow_) overflow_ = std::make_unique<Overflow>();
    return *overflow_;
  }

  double hi_ = 0, lo_ = 0;
  std::unique_ptr<Overflow> overflow_;
};

}  // namespace macroscope
