#include "loops/expression.h"

namespace macroscope::loops {

std::vector<Coefficient> ConstantCoefficients(const uint64_t* values, int width) {
  std::vector<Coefficient> coefs(static_cast<size_t>(width));
  for (int j = 0; j < width; ++j) {
    coefs[j].value = static_cast<int64_t>(values[j]);
    coefs[j].zero = values[j] == 0;
  }
  return coefs;
}

namespace {

struct Piece {
  bool zero = true;
  bool constant = false;  // a plain number
  int64_t value = 0;
  std::string text;       // printed form when not a plain number
};

std::string Number(int64_t v) { return std::to_string(v); }

// Joins "a + b", folding a leading minus of b into " - ".
std::string Sum(const std::string& a, const std::string& b) {
  if (!b.empty() && b[0] == '-') return a + " - " + b.substr(1);
  return a + " + " + b;
}

Piece Factor(const std::vector<Coefficient>& coefs, size_t first_var, const std::vector<std::string>& vars) {
  Piece piece;
  if (coefs.size() == 1) {
    const Coefficient& c = coefs[0];
    piece.zero = c.zero;
    piece.constant = c.constant;
    piece.value = c.value;
    piece.text = c.constant ? Number(c.value) : c.text;
    return piece;
  }
  // Split on the outermost remaining variable: even entries contain it.
  std::vector<Coefficient> with, without;
  for (size_t j = 0; j < coefs.size(); ++j) (j % 2 == 0 ? with : without).push_back(coefs[j]);
  const Piece p1 = Factor(with, first_var + 1, vars);
  const Piece p0 = Factor(without, first_var + 1, vars);
  const std::string& var = vars[first_var];
  if (p1.zero) return p0;
  std::string term;
  if (p1.constant) {
    if (p1.value == 1) term = var;
    else if (p1.value == -1) term = "-" + var;
    else term = Number(p1.value) + "*" + var;
  } else if (p1.text.find(' ') == std::string::npos) {
    term = p1.text + "*" + var;
  } else {
    term = "(" + p1.text + ")*" + var;
  }
  piece.zero = false;
  piece.constant = false;
  piece.text = p0.zero ? term : Sum(term, p0.text);
  return piece;
}

}  // namespace

std::string FactorPolynomial(const std::vector<Coefficient>& coefs, const std::vector<std::string>& vars) {
  const Piece piece = Factor(coefs, 0, vars);
  if (piece.zero) return "0";
  return piece.text;
}

}  // namespace macroscope::loops
