#include "formats/gstreamer/gstreamer_reader.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <unordered_set>

#include "formats/gstreamer/debug_line.h"
#include "model/time_base.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::gstreamer {

namespace {

using paje::SimulationError;
using paje::Simulator;

// Pajé colours ("r g b") of the levels, in kLevels order: red for errors
// down to greys for the chattiest, the same in every log so that two runs
// compare at a glance.
constexpr std::string_view kLevelColors[] = {"1 0 0",       "1 0.55 0",    "0.8 0 0.8",       "0 0.6 0",
                                             "0.2 0.4 1",   "0.5 0.5 0.5", "0.75 0.75 0.75", "0.6 0.4 0.2"};
static_assert(std::size(kLevelColors) == std::size(kLevels));

// The parsed text is let go of in steps of this many bytes (a hint to the
// kernel: the pages come back from the file if they are read again).
constexpr uint64_t kReleaseStep = uint64_t{16} << 20;

class Importer {
 public:
  Importer(Trace& trace, const paje::SimulatorOptions& simulation) : trace_(trace), sim_(trace, simulation) {
    // Known from the start: a streaming sink sees it from the first hand-over.
    trace_.SetTimeBase({.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt});
    root_ = S("0");
    process_type_ = S("P");
    thread_type_ = S("T");
    level_type_ = S("L");
    message_type_ = S("M");
    sim_.DefineContainerType(root_, S("Process"), process_type_);
    sim_.DefineContainerType(process_type_, S("Thread"), thread_type_);
    sim_.DefineEntityType(TypeKind::kState, thread_type_, S("Level"), level_type_, kEmptyString);
    sim_.DefineEntityType(TypeKind::kEvent, thread_type_, S("Message"), message_type_, kEmptyString);
    // Every level, in order of severity, whether the log has it or not: the
    // legend and the colours are the same for every log.
    for (size_t i = 0; i < std::size(kLevels); ++i) {
      levels_[i] = S(kLevels[i]);
      sim_.DefineValue(level_type_, levels_[i], kEmptyString, S(kLevelColors[i]));
    }
    k_pid_ = S("pid");
    k_category_ = S("category");
    k_level_ = S("level");
    k_file_ = S("file");
    k_line_ = S("line");
    k_function_ = S("function");
    k_object_ = S("object");
    k_text_ = S("text");
  }

  // `mapped`: the file `text` is mapped from, whose pages are released as
  // the reading leaves them behind; null for text held otherwise.
  void AddFile(std::string_view text, const std::string& name, const MappedFile* mapped);
  ReadReport Finish(const std::string& last_file);

 private:
  StringId S(std::string_view s) { return trace_.strings().Intern(s); }
  void AddMessage(const DebugLine& m, const std::string& file, uint64_t line);

  Trace& trace_;
  Simulator sim_;
  ReadReport report_;
  StringId root_, process_type_, thread_type_, level_type_, message_type_;
  StringId k_pid_, k_category_, k_level_, k_file_, k_line_, k_function_, k_object_, k_text_;
  std::array<StringId, std::size(kLevels)> levels_{};
  std::unordered_set<StringId> containers_;  // aliases of the processes and threads created
  std::string alias_, scratch_;
  int64_t first_ = std::numeric_limits<int64_t>::max(), last_ = std::numeric_limits<int64_t>::min();
};

void Importer::AddMessage(const DebugLine& m, const std::string& file, uint64_t line) {
  if (static_cast<double>(m.ns) >= kMaxWholeTicks) {
    if (m.ns == std::numeric_limits<int64_t>::max())  // saturated (debug_line.h): its ticks are unknown
      ThrowAt(file, line, "a time of 2^63 ns or more, beyond 2^53 ticks, which macroscope cannot hold exactly");
    CheckWholeTicks(m.ns, file + ":" + std::to_string(line));
  }
  first_ = std::min(first_, m.ns);
  last_ = std::max(last_, m.ns);
  const auto t = static_cast<double>(m.ns);
  ++report_.messages;
  ++report_.per_level[m.level];

  alias_.assign("p").append(m.pid);
  const StringId process = S(alias_);
  alias_.append(":").append(m.thread);
  const StringId thread = S(alias_);
  try {
    if (containers_.insert(process).second) {
      const ExtraField pid{k_pid_, S(m.pid)};
      sim_.CreateContainer(t, process_type_, root_, S("Process " + std::string(m.pid)), process, {&pid, 1});
      ++report_.processes;
    }
    if (containers_.insert(thread).second) {
      sim_.CreateContainer(t, thread_type_, process, S(m.thread), thread, {});
      ++report_.threads;
    }
    const StringId category = S(m.category);
    const ExtraField state_fields[] = {{k_category_, category}};
    sim_.SetState(t, level_type_, thread, levels_[m.level], state_fields);
    const ExtraField event_fields[] = {{k_level_, levels_[m.level]}, {k_file_, S(m.file)},
                                       {k_line_, S(m.line)},         {k_function_, S(m.function)},
                                       {k_object_, S(m.object)},     {k_text_, S(m.text)}};
    sim_.NewEvent(t, message_type_, thread, category, event_fields);
  } catch (const SimulationError& e) {
    ThrowAt(file, line, e.what());
  }
}

void Importer::AddFile(std::string_view text, const std::string& name, const MappedFile* mapped) {
  report_.bytes += text.size();
  const uint64_t messages_before = report_.messages;
  uint64_t line = 0, released = 0;
  DebugLine m;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(pos, end - pos);
    ++line;
    if (ParseDebugLine(l, scratch_, m)) {
      AddMessage(m, name, line);
    } else if (l.find_first_not_of(" \t\r") != std::string_view::npos) {
      if (report_.skipped_lines++ == 0) {
        report_.first_skipped_file = name;
        report_.first_skipped_line = line;
      }
    }
    pos = end + 1;
    if (mapped && pos - released >= kReleaseStep) {
      mapped->ReleaseRange(released, pos - released);
      released = pos;
    }
  }
  if (report_.messages == messages_before)
    ThrowAt(name, line == 0 ? 1 : line,
            "no GStreamer debug message in " + std::to_string(line) + " line(s) (expected lines like "
            "\"0:00:00.000097244  5515 0x5632fa28c200 INFO  GST_INIT gst.c:576:init_pre: text\")");
  if (mapped) mapped->ReleaseRange(0, text.size());
}

ReadReport Importer::Finish(const std::string& last_file) {
  try {
    sim_.Finish(static_cast<double>(last_));
  } catch (const SimulationError& e) {
    ThrowAt(last_file, 1, e.what());
  }
  trace_.SetTimeSpan(static_cast<double>(first_), static_cast<double>(last_));
  return report_;
}

}  // namespace

std::vector<std::string> ReadReport::Warnings() const {
  std::vector<std::string> out;
  if (skipped_lines)
    out.push_back(std::to_string(skipped_lines) +
                  (skipped_lines == 1 ? " line that is not a GStreamer debug message" :
                                        " lines that are not GStreamer debug messages") +
                  " skipped (the first: " + first_skipped_file + ":" + std::to_string(first_skipped_line) + ")");
  return out;
}

ReadReport ReadGstreamerText(std::string_view text, const std::string& name, Trace& trace,
                             const paje::SimulatorOptions& simulation) {
  Importer importer(trace, simulation);
  importer.AddFile(text, name, nullptr);
  return importer.Finish(name);
}

ReadReport ReadGstreamer(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& simulation) {
  Importer importer(trace, simulation);
  for (const std::string& f : files) {
    MappedFile mapped(f);
    importer.AddFile(mapped.bytes(), f, &mapped);
  }
  return importer.Finish(files.back());
}

bool LooksLikeGstreamer(std::string_view head) {
  std::string scratch;
  DebugLine m;
  for (size_t pos = 0; pos < head.size();) {
    size_t end = std::min(head.find('\n', pos), head.size());
    if (ParseDebugLine(head.substr(pos, end - pos), scratch, m)) return true;
    pos = end + 1;
  }
  return false;
}

}  // namespace macroscope::gstreamer
