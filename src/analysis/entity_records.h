// One entity as the streaming analyses (kernel subsystems, anomalies,
// correlation) take it, whoever delivers it: a command reading a trace
// through an EntitySink (RecordSink below) or a workflow module reading
// EntityBatches. Both feed the same analysis class this way, so the logic
// exists once. Names are StringIds of `trace` (the source being read): an
// analysis may read their text at any time, never intern.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::analysis {

struct EntityRecord {
  TypeKind kind = TypeKind::kEvent;
  uint16_t level = 0;               // states: nesting depth on their stack
  StringId type = kEmptyString;     // the entity type's name
  StringId value = kEmptyString;    // states, events, links: the value's name
  ContainerId container = kNone;    // in `trace`
  double start = 0, end = 0;        // model times; end == start for events
  std::span<const ExtraField> fields;  // its user fields (valid during the call that hands it over)
};

// An EntitySink that hands every completed entity to `each(trace, record)`.
class RecordSink : public EntitySink {
 public:
  using Each = std::function<void(const Trace&, const EntityRecord&)>;
  explicit RecordSink(Each each) : each_(std::move(each)) {}

  void Completed(const Trace& trace, const EntityStore& s, size_t begin, size_t end) override {
    EntityRecord r;
    fields_.clear();
    r.kind = s.kind;
    r.type = trace.type(s.type).name;
    r.container = s.container;
    for (size_t i = begin; i < end; ++i) {
      r.level = s.level.empty() ? 0 : s.level[i];
      r.value = s.value.empty() ? kEmptyString : s.value[i];
      r.start = s.start[i];
      r.end = s.End(i);
      if (!s.extras.empty()) {
        fields_.clear();
        s.extras.ForEach(i, [&](const ExtraField& f) { fields_.push_back(f); });
      }
      r.fields = fields_;
      each_(trace, r);
    }
  }

 private:
  Each each_;
  std::vector<ExtraField> fields_;
};

}  // namespace macroscope::analysis
