// The two companion files of a Paraver trace, which only name things: the
// .pcf (state names and colours, event type names and their value names)
// and the .row (the names of the objects of each level: APPL, TASK,
// THREAD, NODE, CPU...). Both are optional; docs/paraver.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::paraver {

struct Label {
  std::string text;
  uint64_t line = 0;  // where the .pcf gives it, for messages
};

struct PcfNames {
  std::map<uint64_t, Label> states;         // STATES
  std::map<uint64_t, std::string> colors;   // STATES_COLOR, as a Pajé colour "r g b" in [0, 1]
  struct EventType {
    Label label;
    std::map<std::string, Label> values;    // its VALUES block, by the value's number (it may be negative)
  };
  std::map<uint64_t, EventType> event_types;  // EVENT_TYPE
};

// Throws UserError "NAME:LINE: problem" for a line of a known section that
// does not parse. Several EVENT_TYPE lines may share the VALUES block that
// follows them. Sections that only set Paraver's display (DEFAULT_OPTIONS,
// DEFAULT_SEMANTIC, GRADIENT_COLOR, GRADIENT_NAMES...) are skipped, as is
// the gradient (a display colour index) of each EVENT_TYPE line.
PcfNames ParsePcf(std::string_view text, const std::string& name);

struct RowNames {
  struct Level {
    std::vector<std::string> names;
    uint64_t line = 0;  // of its LEVEL line
  };
  std::map<std::string, Level> levels;  // "THREAD" -> its names, in object order
};

// "LEVEL <NAME> SIZE <n>" followed by n lines of names, for each level
// (WORKLOAD, APPL, TASK, THREAD, SYSTEM, NODE, CPU, or any other name);
// lines starting with '#' between levels are comments.
RowNames ParseRow(std::string_view text, const std::string& name);

// Pajé colour "r g b" ([0, 1]) <-> Paraver's "{r,g,b}" ([0, 255]); empty /
// false when the text is not a colour.
std::string PajeColor(std::string_view paraver_rgb);
bool ParaverColor(std::string_view paje_rgb, std::string& out);

}  // namespace macroscope::paraver
