#include "model/time_base.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iterator>

#include "util/error.h"

namespace macroscope {

namespace {

__extension__ typedef __int128 Int128;  // exact products of ticks and rates

constexpr Int128 Pow10(int n) {
  Int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// a / b rounded to nearest, ties away from zero (b > 0).
Int128 DivRound(Int128 a, Int128 b) {
  Int128 q = a / b, r = a % b;
  if (r < 0) r = -r;
  if (2 * r >= b) q += a < 0 ? -1 : 1;
  return q;
}

void AppendInt128(std::string& out, Int128 v) {
  if (v < 0) {
    out += '-';
    v = -v;
  }
  char digits[48];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v > 0);
  while (n > 0) out += digits[--n];
}

// ticks * num / den seconds, exactly, with `decimals` digits.
void AppendExact(std::string& out, Int128 ticks, const TimeBase& base, int decimals) {
  // Beyond 18 digits the int128 could overflow; the digits past them of a
  // tick count are zeros for every decimal clock (and noise otherwise).
  const int exact = decimals < 18 ? decimals : 18;
  const Int128 scaled = DivRound(ticks * static_cast<Int128>(base.num) * Pow10(exact), base.den);
  Int128 magnitude = scaled < 0 ? -scaled : scaled;
  if (scaled < 0) out += '-';
  AppendInt128(out, magnitude / Pow10(exact));
  if (decimals > 0) {
    out += '.';
    std::string fraction;
    AppendInt128(fraction, magnitude % Pow10(exact));
    out.append(static_cast<size_t>(exact) - fraction.size(), '0');
    out += fraction;
    out.append(static_cast<size_t>(decimals - exact), '0');
  }
}

void AppendFixed(std::string& out, double v, int decimals) {
  char tmp[512];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, decimals);
  out.append(tmp, r.ptr);
}

[[noreturn]] void Refuse(std::string_view option, std::string_view text, std::string_view why) {
  throw UserError(std::string(option) + ": cannot read the time '" + std::string(text) + "': " + std::string(why));
}

// A decimal number as mantissa * 10^exponent, exactly ("-2.50" -> -250, -2).
bool ParseDecimal(std::string_view text, Int128& mantissa, int& exponent) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  mantissa = 0;
  exponent = 0;
  int digits = 0;
  bool point = false, any = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any = true;
    if (digits < 30) {  // past 30 significant digits: dropped (below any tick)
      mantissa = mantissa * 10 + (c - '0');
      if (mantissa != 0) ++digits;
      if (point) --exponent;
    } else if (!point) {
      ++exponent;
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    int e = 0;
    auto r = std::from_chars(text.data() + i + 1 + (i + 1 < text.size() && text[i + 1] == '+'), text.data() + text.size(), e);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || e > 40 || e < -40) return false;
    exponent += e;
    i = text.size();
  }
  if (negative) mantissa = -mantissa;
  return any && i == text.size();
}

// mantissa * 10^exponent seconds in ticks of `base`, rounded to nearest.
Int128 SecondsToTicks(Int128 mantissa, int exponent, const TimeBase& base, std::string_view option,
                      std::string_view text) {
  if (exponent > 20 || exponent < -40) Refuse(option, text, "out of range");
  Int128 numerator = mantissa * static_cast<Int128>(base.den);
  Int128 denominator = static_cast<Int128>(base.num);
  if (exponent >= 0)
    numerator *= Pow10(exponent);
  else if (-exponent <= 27)
    denominator *= Pow10(-exponent);
  else
    return 0;
  return DivRound(numerator, denominator);
}

}  // namespace

std::string TimeBase::UnitName() const {
  if (num == 1 && den == 1) return "s";
  if (num == 1 && den == 1000) return "ms";
  if (num == 1 && den == 1000000) return "µs";
  if (num == 1 && den == 1000000000) return "ns";
  return std::to_string(num) + "/" + std::to_string(den) + " s";
}

bool ParseClockTicks(const TimeBase& base, std::string_view text, int64_t& ticks) {
  Int128 mantissa = 0;
  int exponent = 0;
  if (text.find_first_of("eE") != std::string_view::npos || !ParseDecimal(text, mantissa, exponent)) return false;
  // Bounds that keep SecondsToTicks' products inside 128 bits.
  const Int128 limit = Pow10(20);
  if (mantissa > limit || mantissa < -limit || exponent > 0 || exponent < -27 || base.den > 1000000000000ULL ||
      base.num == 0)
    return false;
  const Int128 t = SecondsToTicks(mantissa, exponent, base, "", text);
  if (t > 9 * Pow10(18) || t < -9 * Pow10(18)) return false;  // an int64_t
  ticks = static_cast<int64_t>(t);
  return true;
}

void CheckWholeTicks(int64_t ticks, std::string_view where) {
  if (static_cast<double>(ticks < 0 ? -ticks : ticks) >= kMaxWholeTicks)
    throw UserError(std::string(where) + ": a time " + std::to_string(ticks) +
                    " ticks from the trace's first event is beyond 2^53 ticks, which macroscope cannot hold exactly");
}

int DecimalsOfTick(const TimeBase& base) {
  for (int d = 0; d <= 12; ++d)
    if ((static_cast<Int128>(base.num) * Pow10(d)) % base.den == 0) return d;
  return 12;
}

int64_t ClockTicks(const TimeBase& base, double t) { return base.origin + static_cast<int64_t>(std::llround(t)); }

void AppendClockSeconds(std::string& out, const TimeBase& base, double t, int decimals) {
  if (base.whole_ticks)
    AppendExact(out, static_cast<Int128>(base.origin) + std::llround(t), base, decimals);
  else
    AppendFixed(out, base.Seconds(t), decimals);
}

void AppendDurationSeconds(std::string& out, const TimeBase& base, double d, int decimals) {
  if (base.whole_ticks)
    AppendExact(out, std::llround(d), base, decimals);
  else
    AppendFixed(out, base.Seconds(d), decimals);
}

int64_t DurationNanoseconds(const TimeBase& base, double d) {
  if (!base.whole_ticks) return std::llround(base.Seconds(d) * 1e9);
  return static_cast<int64_t>(DivRound(Int128{std::llround(d)} * base.num * Pow10(9), base.den));
}

double DurationTicks(const TimeBase& base, int64_t ns) {
  if (!base.whole_ticks) return base.Ticks(static_cast<double>(ns) * 1e-9);
  return static_cast<double>(DivRound(Int128{ns} * base.den, Int128{base.num} * Pow10(9)));
}

int64_t DurationNanoseconds(const TimeBase& base, const ExactSum& d) {
  if (!base.whole_ticks) return std::llround(base.Seconds(d.Value()) * 1e9);
  Int128 ticks = 0;  // the terms of a sum of whole ticks are whole
  for (const double x : d.Terms()) ticks += static_cast<Int128>(std::llround(x));
  return static_cast<int64_t>(DivRound(ticks * base.num * Pow10(9), base.den));
}

std::string HumanSeconds(double seconds, double resolution, bool sign, double magnitude) {
  static constexpr struct {
    double scale;
    const char* name;
    int max_decimals;
  } kUnits[] = {{1, "s", 9}, {1e-3, "ms", 6}, {1e-6, "µs", 3}, {1e-9, "ns", 0}};
  if (!(magnitude > 0)) magnitude = std::fabs(seconds) > 0 ? std::fabs(seconds) : resolution > 0 ? resolution : 1;
  size_t u = 0;
  while (u + 1 < std::size(kUnits) && magnitude < kUnits[u].scale * (1 - 1e-12)) ++u;
  int decimals = kUnits[u].max_decimals;
  if (resolution > 0 && std::isfinite(resolution)) {
    int needed = static_cast<int>(std::ceil(std::log10(kUnits[u].scale / resolution) - 1e-9));
    decimals = std::clamp(needed, 0, kUnits[u].max_decimals);
  }
  char number[64];
  std::snprintf(number, sizeof number, "%.*f", decimals, seconds / kUnits[u].scale);
  // Without a resolution: every digit the unit has, less whole groups of zeros.
  if (!(resolution > 0)) {
    std::string_view digits(number);
    while (decimals >= 3 && digits.ends_with("000")) digits.remove_suffix(3), decimals -= 3;
    if (decimals == 0 && digits.ends_with('.')) digits.remove_suffix(1);
    number[digits.size()] = '\0';
  }
  std::string out = sign && seconds >= 0 ? "+" : "";
  // Fraction digits in groups of three: "2.794 729".
  std::string_view text(number);
  size_t point = text.find('.');
  out += text.substr(0, point);
  if (point != std::string_view::npos) {
    out += '.';
    std::string_view fraction = text.substr(point + 1);
    for (size_t i = 0; i < fraction.size(); i += 3) {
      if (i > 0) out += ' ';
      out += fraction.substr(i, 3);
    }
  }
  out += ' ';
  out += kUnits[u].name;
  return out;
}

std::string WallClock(const TimeBase& base, double t) {
  if (!base.epoch_ns || !base.whole_ticks) return "";
  const Int128 ticks = std::llround(t);
  const Int128 ns = *base.epoch_ns + DivRound(ticks * static_cast<Int128>(base.num) * 1000000000, base.den);
  Int128 seconds = ns / 1000000000, fraction = ns % 1000000000;
  if (fraction < 0) fraction += 1000000000, --seconds;
  const std::time_t whole = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (gmtime_r(&whole, &tm) == nullptr) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%09d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(fraction));
  return text;
}

double ParseTime(const TimeBase& base, std::string_view text, double trace_start, std::string_view option) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) Refuse(option, text, "empty");
  Int128 mantissa = 0;
  int exponent = 0;
  // Wall clock: YYYY-MM-DD[ T]HH:MM:SS[.fraction].
  if (text.size() >= 19 && text[4] == '-' && text[7] == '-' && (text[10] == ' ' || text[10] == 'T')) {
    if (!base.epoch_ns || !base.whole_ticks) Refuse(option, text, "this trace's clock has no wall-clock time");
    std::tm tm{};
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, used = 0;
    std::string copy(text);
    if (std::sscanf(copy.c_str(), "%4d-%2d-%2d%*c%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second,
                    &used) != 6 || used != 19)
      Refuse(option, text, "expected YYYY-MM-DD HH:MM:SS[.fraction]");
    tm.tm_year = year - 1900, tm.tm_mon = month - 1, tm.tm_mday = day;
    tm.tm_hour = hour, tm.tm_min = minute, tm.tm_sec = second;
    const Int128 whole = timegm(&tm);
    Int128 fraction_ns = 0;
    if (text.size() > 19) {
      if (text[19] != '.' || !ParseDecimal(text.substr(19), mantissa, exponent) || mantissa < 0)
        Refuse(option, text, "expected YYYY-MM-DD HH:MM:SS[.fraction]");
      fraction_ns = exponent + 9 >= 0 ? mantissa * Pow10(exponent + 9) : mantissa / Pow10(-(exponent + 9));
    }
    const Int128 ns = whole * 1000000000 + fraction_ns - *base.epoch_ns;
    return static_cast<double>(DivRound(ns * static_cast<Int128>(base.den), static_cast<Int128>(base.num) * 1000000000));
  }
  // Relative to the trace start: +NUMBER[UNIT].
  if (text.front() == '+') {
    std::string_view body = text.substr(1);
    static constexpr struct {
      std::string_view suffix;
      int exponent;
    } kSuffixes[] = {{"ns", -9}, {"us", -6}, {"µs", -6}, {"ms", -3}, {"s", 0}};
    int unit = 0;
    for (const auto& s : kSuffixes)
      if (body.size() > s.suffix.size() && body.ends_with(s.suffix)) {
        body.remove_suffix(s.suffix.size());
        unit = s.exponent;
        break;
      }
    while (!body.empty() && body.back() == ' ') body.remove_suffix(1);
    if (!ParseDecimal(body, mantissa, exponent)) Refuse(option, text, "expected +NUMBER[s|ms|us|ns]");
    if (base.whole_ticks)
      return trace_start + static_cast<double>(SecondsToTicks(mantissa, exponent + unit, base, option, text));
    double seconds = 0;
    std::from_chars(body.data(), body.data() + body.size(), seconds);
    return trace_start + base.Ticks(seconds * std::pow(10.0, unit));
  }
  // The clock's own seconds.
  if (!ParseDecimal(text, mantissa, exponent)) Refuse(option, text, "expected a number of seconds, +OFFSET or a date");
  if (base.whole_ticks)
    return static_cast<double>(SecondsToTicks(mantissa, exponent, base, option, text) - base.origin);
  double seconds = 0;
  std::from_chars(text.data(), text.data() + text.size(), seconds);
  return base.Ticks(seconds);
}

}  // namespace macroscope
