// The times of a Chrome event ("ts", "dur": microseconds, maybe with a
// fraction) as whole nanoseconds, read from the number's text so that no
// digit is rounded through a double (docs/time.md).
#pragma once

#include <cstdint>
#include <string_view>

namespace macroscope::chrome {

enum class MicrosText {
  kExact,       // `ns` holds the value
  kNotANumber,  // not a JSON number (NaN, Infinity, text)
  kFinerThanNs, // digits below the nanosecond that are not zeros ("1.0005")
  kOutOfRange,  // beyond what an int64_t counts in nanoseconds (292 years)
};

// `text`: a JSON number (leading and trailing blanks allowed), in
// microseconds: "1672531200001.123", "1.5e3", "-2". Exact or refused: the
// result is never rounded.
MicrosText ParseMicrosAsNs(std::string_view text, int64_t& ns);

}  // namespace macroscope::chrome
