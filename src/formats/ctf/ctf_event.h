// One CTF event message as the rest of the CTF reader sees it: decoded by
// babeltrace_source.cc from babeltrace2's trace IR, free of babeltrace2 types,
// so the mapping to the model (event_mapper.h) is plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::ctf {

// What the reader knows of one CTF trace (one metadata, one UUID).
struct CtfTraceInfo {
  uint32_t index = 0;        // 0, 1, ... in the order the traces first show an event
  std::string name;          // babeltrace2's trace name (may be empty)
  std::string hostname;      // environment `hostname` (LTTng) or `host` (perf); may be empty
  std::string domain;        // environment `domain`: "kernel", "ust", "bare", ... (may be empty)
  std::string tracer_name;   // environment `tracer_name` (may be empty)
};

// One field of the event, flattened: nested structure members are named
// "outer.inner"; arrays, variants and options are one text field.
struct CtfField {
  std::string name;
  std::string text;                // as babeltrace2's text sink would show it, roughly
  std::optional<int64_t> integer;  // integer and enumeration fields (unsigned reinterpreted)
};

struct CtfEvent {
  const CtfTraceInfo* trace = nullptr;
  uint32_t stream = 0;             // global stream index, unique over all traces
  std::string_view stream_name;    // babeltrace2's stream name, or "stream <id>"
  std::optional<int64_t> time_ns;  // default clock snapshot, ns from origin; none without a clock
  bool unix_epoch = false;         // that origin is 1970-01-01 UTC (LTTng's clocks; not perf's)
  std::string_view name;           // event class name
  uint64_t event_class_id = 0;     // its id (the muxer's order among equal times)
  std::optional<int64_t> cpu_id;   // packet context `cpu_id`, else context `cpu_id` / `perf_cpu`
  // Common context, then specific context, then payload fields.
  std::vector<CtfField> fields;

  const CtfField* Field(std::string_view field_name) const {
    for (const CtfField& f : fields)
      if (f.name == field_name) return &f;
    return nullptr;
  }
  std::optional<int64_t> Integer(std::string_view field_name) const {
    const CtfField* f = Field(field_name);
    return f ? f->integer : std::nullopt;
  }
};

}  // namespace macroscope::ctf
