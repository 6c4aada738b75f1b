// Quality measures of an aggregation (raw, unnormalised form) and the tie
// rule that makes optimal partitions deterministic.
//
// For a set of cells with values v, V = sum v and n cells:
//   gain = V log2 V - sum v log2 v        (0 when V = 0)
//   loss = V log2 n - gain
//   pIC  = p * gain - (1 - p) * loss,      p in [0, 1]
// All three are additive over the parts of a partition.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace macroscope::analysis {

// Relative tolerance of every quality comparison. Gains and losses are
// differences of x log2 x terms; their rounding error stays far below this.
inline constexpr double kRelativeEpsilon = 1e-9;

// log2 x for finite x > 0 (other inputs give an unspecified value, never a
// trap), within a few ulp of std::log2. Branch-free so that loops calling it
// vectorise; every quality goes through it, so equal inputs give bitwise
// equal terms (gain of a single cell is exactly 0).
// Design: x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(z) with
// z = (m - 1) / (m + 1), |z| <= 0.172, summed to z^23 (error < 1e-17).
inline double Log2(double x) {
  uint64_t bits = std::bit_cast<uint64_t>(x);
  const bool subnormal = (bits >> 52) == 0;
  // Every value is computed before it is selected: with trapping math the
  // compiler would not speculate a conditional operation, and would not
  // vectorise.
  const double scaled = x * 0x1p54;
  x = subnormal ? scaled : x;
  bits = std::bit_cast<uint64_t>(x);
  // The biased exponent as a double, without an int64 -> double conversion.
  double e = std::bit_cast<double>((bits >> 52) | 0x4330000000000000ULL) - 0x1p52;
  const double bias = subnormal ? 1023.0 + 54.0 : 1023.0;
  e -= bias;
  double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  const bool high = m > 1.4142135623730951;
  const double half = m * 0.5;
  const double e_up = e + 1.0;
  m = high ? half : m;
  e = high ? e_up : e;
  const double z = (m - 1.0) / (m + 1.0);
  // sum_{k=1..11} w^k / (2k + 1), w = z^2, by Estrin's scheme (short
  // dependency chains: this loop is latency-bound).
  const double w = z * z;
  const double w2 = w * w;
  const double w4 = w2 * w2;
  const double w8 = w4 * w4;
  const double p0 = 1.0 / 3 + w * (1.0 / 5);
  const double p1 = 1.0 / 7 + w * (1.0 / 9);
  const double p2 = 1.0 / 11 + w * (1.0 / 13);
  const double p3 = 1.0 / 15 + w * (1.0 / 17);
  const double p4 = 1.0 / 19 + w * (1.0 / 21);
  const double q0 = p0 + w2 * p1;
  const double q1 = p2 + w2 * p3;
  const double q2 = p4 + w2 * (1.0 / 23);
  const double series = w * ((q0 + w4 * q1) + w8 * q2);
  // ln m = 2z + 2z * series; log2 = ln / ln 2.
  const double two_z = 2.0 * z;
  const double ln_m = two_z + two_z * series;
  return e + ln_m * 1.4426950408889634;
}

// x log2 x with 0 log2 0 = 0 (x >= 0).
inline double XLog2X(double x) {
  const double product = x * Log2(x);
  return x > 0 ? product : 0.0;
}

inline double Pic(double p, double gain, double loss) { return p * gain - (1 - p) * loss; }

// The quality of a partition (or of one part).
struct Quality {
  double gain = 0;
  double loss = 0;
  int64_t parts = 0;
};

// The tie rule, with tolerances scaled to a reference quality: the full
// aggregate of the sub-problem being solved, whose gain and loss bound
// those of every partition of it. a is better than b when
//   pIC_a > pIC_b, or equal pIC and gain_a > gain_b,
//   or equal pIC and gain and loss_a < loss_b,
// "equal" meaning within kRelativeEpsilon of the reference's magnitude.
class TieRule {
 public:
  TieRule(double p, double reference_gain, double reference_loss)
      : p_(p),
        tol_gain_(kRelativeEpsilon * std::fabs(reference_gain)),
        tol_loss_(kRelativeEpsilon * std::fabs(reference_loss)),
        tol_pic_(p * tol_gain_ + (1 - p) * tol_loss_) {}

  double p() const { return p_; }
  double pic_tolerance() const { return tol_pic_; }

  // True when (pic_a, gain_a, loss_a) is strictly better than b.
  bool Better(double pic_a, double gain_a, double loss_a, double pic_b, double gain_b,
              double loss_b) const {
    if (pic_a > pic_b + tol_pic_) return true;
    if (pic_a < pic_b - tol_pic_) return false;
    if (gain_a > gain_b + tol_gain_) return true;
    if (gain_a < gain_b - tol_gain_) return false;
    return loss_a < loss_b - tol_loss_;
  }

  // Same gain and loss within tolerance: the same point on the curves.
  bool Same(const Quality& a, const Quality& b) const {
    return std::fabs(a.gain - b.gain) <= tol_gain_ && std::fabs(a.loss - b.loss) <= tol_loss_;
  }

 private:
  double p_;
  double tol_gain_;
  double tol_loss_;
  double tol_pic_;
};

}  // namespace macroscope::analysis
