// The text form of an integer trace: 64-bit signed integers separated by
// whitespace (spaces, tabs, newlines).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace macroscope::loops {

// Parses `bytes`; `name` is the file name used in messages. Throws
// UserError "name:line:col: not an integer 'tok'" for junk,
// "name:line:col: integer out of range 'tok'" for overflow and
// "name:1:1: empty trace (no integers)" when nothing is found.
std::vector<int64_t> ParseTrace(std::string_view bytes, std::string_view name);

}  // namespace macroscope::loops
