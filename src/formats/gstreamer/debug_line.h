// One line of a GStreamer debug log (GST_DEBUG=... on standard error, or
// GST_DEBUG_FILE), as gst_debug_log_default writes it:
//
//   0:00:00.000097244  5515 0x5632fa28c200 INFO                GST_INIT gst.c:576:init_pre: text
//   TIME               PID  THREAD         LEVEL           CATEGORY FILE:LINE:FUNCTION:[<OBJECT>] TEXT
//
// with or without ANSI colours (GST_DEBUG_COLOR_MODE=on/unix), which are
// removed first so that both forms read the same.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace macroscope::gstreamer {

// GStreamer's levels, most severe first, as the log spells them.
inline constexpr std::string_view kLevels[] = {"ERROR", "WARN", "FIXME", "INFO", "DEBUG", "LOG", "TRACE", "MEMDUMP"};

struct DebugLine {
  // H:MM:SS.NNNNNNNNN since GStreamer's start, in ns; saturated at INT64_MAX
  // for hours no clock reaches (the caller refuses what model times cannot hold).
  int64_t ns = 0;
  std::string_view pid, thread, category, file, line, function;
  std::string_view object;  // without its <>; empty when the message has none
  std::string_view text;    // the rest of the line after one space; may be empty
  uint8_t level = 0;        // index in kLevels
};

// Parses `line` (without its '\n'; a trailing '\r' is ignored). False when
// it is not a debug message (program output, a cut line). `scratch` holds
// the line without its colours when it has any: the views of `out` point
// into `line` or into `scratch`.
bool ParseDebugLine(std::string_view line, std::string& scratch, DebugLine& out);

}  // namespace macroscope::gstreamer
