#include "formats/chrome/event_time.h"

#include <cstdint>

namespace macroscope::chrome {

namespace {

__extension__ typedef unsigned __int128 Uint128;  // up to 38 significant digits, exactly

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The significant digits of a number as they come (no leading zeros; zeros
// after them held back, so that trailing zeros end up as a power of ten).
struct Significand {
  Uint128 value = 0;
  int64_t digits = 0;         // significant digits taken, trailing zeros excluded
  int64_t pending_zeros = 0;  // zeros after the last nonzero digit
  void Add(char c) {
    if (c == '0') {
      if (digits > 0) ++pending_zeros;
      return;
    }
    for (; pending_zeros > 0; --pending_zeros) Push(0);
    Push(c - '0');
  }
  void Push(int d) {
    if (++digits <= 38) value = value * 10 + static_cast<unsigned>(d);  // beyond, the outcome is decided
  }
};

}  // namespace

MicrosText ParseMicrosAsNs(std::string_view text, int64_t& ns) {
  while (!text.empty() && IsBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsBlank(text.back())) text.remove_suffix(1);
  // JSON's number: -? digits (. digits)? ([eE] [+-]? digits)?, as
  // significant digits times a power of ten.
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  Significand s;
  int64_t exponent = 0;
  const size_t integer_start = i;
  for (; i < text.size() && IsDigit(text[i]); ++i) s.Add(text[i]);
  if (i == integer_start) return MicrosText::kNotANumber;
  // nlohmann's lexer hands over its token with the locale's decimal point.
  if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
    const size_t fraction_start = ++i;
    for (; i < text.size() && IsDigit(text[i]); ++i, --exponent) s.Add(text[i]);
    if (i == fraction_start) return MicrosText::kNotANumber;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const bool minus = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (i == text.size() || !IsDigit(text[i])) return MicrosText::kNotANumber;
    int64_t e = 0;
    for (; i < text.size() && IsDigit(text[i]); ++i)
      if (e < 100000) e = e * 10 + (text[i] - '0');  // beyond, every outcome is already decided
    exponent += minus ? -e : e;
  }
  if (i != text.size()) return MicrosText::kNotANumber;
  if (s.digits == 0) {
    ns = 0;
    return MicrosText::kExact;
  }
  // Nanoseconds = significand * 10^(exponent + trailing zeros + 3).
  exponent += s.pending_zeros + 3;
  if (exponent < 0) return MicrosText::kFinerThanNs;
  if (s.digits + exponent > 19) return MicrosText::kOutOfRange;
  Uint128 value = s.value;
  for (int64_t e = 0; e < exponent; ++e) value *= 10;
  const Uint128 limit = static_cast<Uint128>(INT64_MAX) + (negative ? 1 : 0);
  if (value > limit) return MicrosText::kOutOfRange;
  // -2^63 is the one value whose magnitude is no int64_t.
  ns = !negative ? static_cast<int64_t>(value) : value > INT64_MAX ? INT64_MIN : -static_cast<int64_t>(value);
  return MicrosText::kExact;
}

}  // namespace macroscope::chrome
