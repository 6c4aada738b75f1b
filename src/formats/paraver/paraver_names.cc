#include "formats/paraver/paraver_names.h"

#include <cmath>
#include <cstdio>

#include "formats/paraver/paraver_lines.h"
#include "util/error.h"

namespace macroscope::paraver {

namespace {

enum class Section { kNone, kOther, kStates, kColors, kEventType, kValues };

// A line that opens a section: one word of capitals and underscores.
bool IsKeyword(std::string_view line) {
  if (line.empty()) return false;
  for (char c : line)
    if (!((c >= 'A' && c <= 'Z') || c == '_')) return false;
  return true;
}

Section SectionOf(std::string_view keyword) {
  if (keyword == "STATES") return Section::kStates;
  if (keyword == "STATES_COLOR") return Section::kColors;
  if (keyword == "EVENT_TYPE") return Section::kEventType;
  if (keyword == "VALUES") return Section::kValues;
  return Section::kOther;
}

// The leading number of `line` and the trimmed rest; false without one.
bool NumberAndRest(std::string_view line, uint64_t& number, std::string_view& rest) {
  const size_t end = line.find_first_of(" \t");
  if (!ParseUnsigned(line.substr(0, end), number)) return false;
  rest = end == std::string_view::npos ? std::string_view() : Trim(line.substr(end));
  return true;
}

}  // namespace

PcfNames ParsePcf(std::string_view text, const std::string& name) {
  PcfNames pcf;
  Lines lines(text);
  std::string_view line;
  Section section = Section::kNone;
  std::vector<uint64_t> group;  // the event types of the last EVENT_TYPE block
  while (lines.Next(line)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (IsKeyword(line)) {
      section = SectionOf(line);
      if (section == Section::kEventType) group.clear();
      continue;
    }
    uint64_t number = 0;
    std::string_view rest;
    auto fail = [&](const std::string& what) { ThrowAt(name, lines.line(), what); };
    switch (section) {
      case Section::kNone:
      case Section::kOther:
        break;
      case Section::kStates:
        if (!NumberAndRest(line, number, rest)) fail("expected a state: <number> <name>");
        pcf.states[number] = {std::string(rest), lines.line()};
        break;
      case Section::kColors: {
        if (!NumberAndRest(line, number, rest)) fail("expected a state colour: <number> {r,g,b}");
        std::string color = PajeColor(rest);
        if (color.empty()) fail("expected a colour {r,g,b} (0 to 255 each), not '" + std::string(rest) + "'");
        pcf.colors[number] = color;
        break;
      }
      case Section::kEventType: {
        // "<gradient> <type> <name>"
        uint64_t gradient = 0, type = 0;
        std::string_view after_gradient;
        if (!NumberAndRest(line, gradient, after_gradient) || !NumberAndRest(after_gradient, type, rest))
          fail("expected an event type: <gradient> <type> <name>");
        pcf.event_types[type].label = {std::string(rest), lines.line()};
        group.push_back(type);
        break;
      }
      case Section::kValues: {
        if (group.empty()) fail("VALUES without an EVENT_TYPE before it");
        const size_t end = line.find_first_of(" \t");
        std::string value;
        if (!ParseInteger(line.substr(0, end), value)) fail("expected an event value: <number> <name>");
        rest = end == std::string_view::npos ? std::string_view() : Trim(line.substr(end));
        for (uint64_t type : group) pcf.event_types[type].values[value] = {std::string(rest), lines.line()};
        break;
      }
    }
  }
  return pcf;
}

RowNames ParseRow(std::string_view text, const std::string& name) {
  RowNames row;
  Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (Trim(line).empty() || line.starts_with('#')) continue;
    // LEVEL <NAME> SIZE <n>
    char level[64];
    unsigned long long size = 0;
    int used = 0;
    const std::string header(Trim(line));
    if (std::sscanf(header.c_str(), "LEVEL %63s SIZE %llu%n", level, &size, &used) != 2 ||
        static_cast<size_t>(used) != header.size())
      ThrowAt(name, lines.line(), "expected 'LEVEL <name> SIZE <count>', not '" + header + "'");
    RowNames::Level& l = row.levels[level];
    l = {{}, lines.line()};
    for (unsigned long long i = 0; i < size; ++i) {
      if (!lines.Next(line))
        ThrowAt(name, lines.line(), "LEVEL " + std::string(level) + " announces " + std::to_string(size) +
                                        " names, the file ends after " + std::to_string(i));
      l.names.emplace_back(Trim(line));
    }
  }
  return row;
}

std::string PajeColor(std::string_view paraver_rgb) {
  unsigned rgb[3];
  char close = 0;
  const std::string text(paraver_rgb);
  if (std::sscanf(text.c_str(), "{%u,%u,%u%c", &rgb[0], &rgb[1], &rgb[2], &close) != 4 || close != '}' ||
      text.back() != '}')
    return {};
  std::string out;
  for (unsigned c : rgb) {
    if (c > 255) return {};
    char part[32];
    std::snprintf(part, sizeof part, "%s%.6g", out.empty() ? "" : " ", c / 255.0);
    out += part;
  }
  return out;
}

bool ParaverColor(std::string_view paje_rgb, std::string& out) {
  double rgb[3];
  const std::string text(paje_rgb);
  int used = 0;
  if (std::sscanf(text.c_str(), "%lf %lf %lf%n", &rgb[0], &rgb[1], &rgb[2], &used) != 3) return false;
  out = "{";
  for (int i = 0; i < 3; ++i) {
    if (!(rgb[i] >= 0 && rgb[i] <= 1)) return false;
    out += (i ? "," : "") + std::to_string(std::lround(rgb[i] * 255));
  }
  out += "}";
  return true;
}

}  // namespace macroscope::paraver
