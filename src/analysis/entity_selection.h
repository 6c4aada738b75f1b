// What the anomalies and correlation analyses take from a trace, as a user
// names it: a SELECTION "TYPE" or "TYPE=VALUE" (the entity type's name, and
// optionally the value's name; "*" as TYPE is any type, and a VALUE ending
// in "*" matches by prefix: "Interrupt=softirq:*"), and --containers (those
// containers, by name or alias, and their descendants). docs/anomalies.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis {

class EntitySelection {
 public:
  // Throws UserError naming `option` for an empty TYPE.
  EntitySelection(std::string_view text, std::string_view option);
  const std::string& text() const { return text_; }

  // Calls each(i) for every entity i of `chunk` that is selected: the
  // chunk's type name is matched once, then each entity's value. The
  // answer per StringId is worked out once from its text (the only part of
  // `trace` read, so a trace still being read will do) and cached, so the
  // ids must all be of one trace. Returns whether every entity was selected.
  template <class Each>
  bool ForEachMatch(const Trace& trace, const EntityChunk& chunk, Each&& each) {
    if (!Cached(type_cache_, chunk.type_name, trace, type_, any_type_, false)) return chunk.empty();
    bool all = true;
    for (size_t i = 0; i < chunk.size(); ++i) {
      if (Cached(value_cache_, chunk.Value(i), trace, value_, !has_value_, value_prefix_))
        each(i);
      else
        all = false;
    }
    return all;
  }

 private:
  bool Cached(std::vector<uint8_t>& cache, StringId id, const Trace& trace, const std::string& pattern, bool any,
              bool prefix);

  std::string text_, type_, value_;
  bool any_type_ = false, has_value_ = false, value_prefix_ = false;
  std::vector<uint8_t> type_cache_, value_cache_;  // by StringId: 0 unknown, 1 yes, 2 no
};

// A model duration or time (ticks of `base`) in whole nanoseconds, rounded
// (exact for nanosecond clocks).
int64_t Nanoseconds(const TimeBase& base, double ticks);

}  // namespace macroscope::analysis
