// Printing the value computed by a loop body as an expression of the loop
// indices, shared by the text report and the C emitter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope::loops {

// One coefficient of the body's multilinear polynomial: a number, or a
// periodic number written by the caller (e.g. "[4, 10]_t2").
struct Coefficient {
  bool zero = true;
  bool constant = true;   // `value` is meaningful
  int64_t value = 0;
  std::string text;       // when not constant
};

// Factors sum_j c_j * monomial_j over `vars` (outermost first; entry j
// holds vars[b] iff bit b of j is clear) as in the seed's reports:
// "(6*t2 + 4)*t1 + t2 + 3".
std::string FactorPolynomial(const std::vector<Coefficient>& coefs, const std::vector<std::string>& vars);

// Coefficients of one literal element of width w.
std::vector<Coefficient> ConstantCoefficients(const uint64_t* values, int width);

}  // namespace macroscope::loops
