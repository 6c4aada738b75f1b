#include "formats/chrome/event_time.h"

#include <cstdint>
#include <string>

namespace macroscope::chrome {

namespace {

__extension__ typedef unsigned __int128 Uint128;  // exact products of up to 19 digits and a power of ten

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

MicrosText ParseMicrosAsNs(std::string_view text, int64_t& ns) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  // JSON's number: -? digits (. digits)? ([eE] [+-]? digits)?, as
  // significant digits (no leading zeros) and a power of ten.
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  std::string digits;
  int64_t exponent = 0;
  size_t integer_digits = 0, fraction_digits = 0;
  for (; i < text.size() && IsDigit(text[i]); ++i, ++integer_digits)
    if (!digits.empty() || text[i] != '0') digits += text[i];
  // nlohmann's lexer hands over its token with the locale's decimal point.
  if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
    for (++i; i < text.size() && IsDigit(text[i]); ++i, ++fraction_digits, --exponent)
      if (!digits.empty() || text[i] != '0') digits += text[i];
    if (fraction_digits == 0) return MicrosText::kNotANumber;
  }
  if (integer_digits == 0) return MicrosText::kNotANumber;
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
  // Trailing zeros are powers of ten; then nanoseconds = digits * 10^(exponent + 3).
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (digits.empty()) {
    ns = 0;
    return MicrosText::kExact;
  }
  exponent += 3;
  if (exponent < 0) return MicrosText::kFinerThanNs;
  if (static_cast<int64_t>(digits.size()) + exponent > 19) return MicrosText::kOutOfRange;
  Uint128 value = 0;
  for (char c : digits) value = value * 10 + static_cast<unsigned>(c - '0');
  for (int64_t e = 0; e < exponent; ++e) value *= 10;
  const Uint128 limit = static_cast<Uint128>(INT64_MAX) + (negative ? 1 : 0);
  if (value > limit) return MicrosText::kOutOfRange;
  // -2^63 is the one value whose magnitude is no int64_t.
  ns = !negative ? static_cast<int64_t>(value) : value > INT64_MAX ? INT64_MIN : -static_cast<int64_t>(value);
  return MicrosText::kExact;
}

}  // namespace macroscope::chrome
