// filter: entities that match every given condition go to "matched", the
// others to "unmatched", in their order. Names are compared as text
// (name_matching.h); the time window and durations are given in seconds
// and compared in the source's ticks, converted once per time base.
#include <limits>
#include <optional>
#include <utility>

#include "pipeline/modules/modules.h"
#include "pipeline/modules/name_matching.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

namespace {

struct FilterConditions {
  uint8_t kinds = 0;  // bit per TypeKind; 0: any
  std::vector<std::string> types, values, containers;
  std::optional<double> from, to;  // seconds from the trace's origin
  std::string field;
  std::optional<std::string> field_value;
  std::optional<double> min_duration, max_duration;  // seconds
};

FilterConditions ParseConditions(const Params& p) {
  FilterConditions c;
  for (const std::string& kind : p.Strings("kind", std::vector<std::string>{})) {
    if (kind == "state")
      c.kinds |= 1 << static_cast<int>(TypeKind::kState);
    else if (kind == "event")
      c.kinds |= 1 << static_cast<int>(TypeKind::kEvent);
    else if (kind == "variable")
      c.kinds |= 1 << static_cast<int>(TypeKind::kVariable);
    else if (kind == "link")
      c.kinds |= 1 << static_cast<int>(TypeKind::kLink);
    else
      BadParameter(p, "kind", "'" + kind + "' is not one of state, event, variable, link");
  }
  c.types = p.Strings("type", std::vector<std::string>{});
  c.values = p.Strings("value", std::vector<std::string>{});
  c.containers = p.Strings("container", std::vector<std::string>{});
  auto number = [&](std::string_view name) {
    return p.Has(name) ? std::optional<double>(p.Number(name)) : std::nullopt;
  };
  c.from = number("from");
  c.to = number("to");
  if (c.from && c.to && *c.from > *c.to) BadParameter(p, "from", "the window ends ('to') before it starts");
  c.field = p.String("field", "");
  if (p.Has("field_value")) {
    if (c.field.empty()) BadParameter(p, "field_value", "needs 'field', the name of the user field");
    c.field_value = p.String("field_value");
  }
  c.min_duration = number("min_duration");
  c.max_duration = number("max_duration");
  if (c.min_duration && c.max_duration && *c.min_duration > *c.max_duration)
    BadParameter(p, "min_duration", "greater than max_duration");
  return c;
}

class Filter : public Module {
 public:
  Filter(const std::string& name, FilterConditions c)
      : Module(name),
        c_(std::move(c)),
        types_(c_.types),
        values_(c_.values),
        containers_(c_.containers),
        field_names_(c_.field.empty() ? std::vector<std::string>{} : std::vector<std::string>{c_.field}),
        field_values_(c_.field_value ? std::vector<std::string>{*c_.field_value} : std::vector<std::string>{}) {
    in_ = &AddInput<EntityBatch>("in");
    matched_ = &AddOutput<EntityBatch>("matched");
    unmatched_ = &AddOutput<EntityBatch>("unmatched");
  }

  void Run() override {
    Side matched{matched_, matched_->linked(), false, {}}, unmatched{unmatched_, unmatched_->linked(), false, {}};
    std::shared_ptr<const Trace> trace;
    std::optional<TimeBase> base;
    while (const EntityBatch* in = in_->Next()) {
      if (in->trace != trace) {
        trace = in->trace;
        for (NameMatcher* m : {&types_, &values_, &containers_, &field_names_, &field_values_}) m->Reset();
      }
      if (!base || !(*base == in->base)) {
        base = in->base;
        SetTicks(*base);
      }
      for (size_t k = 0; k < in->chunks(); ++k) Sort(in->chunk(k), *in->trace, matched, unmatched);
      Send(matched, *in);
      Send(unmatched, *in);
    }
    // A reader of an output that got no entity still learns the source
    // (a writer copies its types and containers).
    for (Side* side : {&matched, &unmatched}) {
      if (side->wanted && !side->sent && trace) {
        EntityBatch& slot = side->out->Claim();
        slot.Clear();
        slot.trace = trace;
        slot.base = *base;
        side->out->Publish();
      }
    }
  }

 private:
  struct Side {
    Output<EntityBatch>* out;
    bool wanted;
    bool sent = false;
    EntityBatch batch;  // filled here, then swapped into the ring's slot
  };

  void SetTicks(const TimeBase& base) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    from_ = c_.from ? base.Ticks(*c_.from) : -kInf;
    to_ = c_.to ? base.Ticks(*c_.to) : kInf;
    min_ = c_.min_duration ? base.Ticks(*c_.min_duration) : -kInf;
    max_ = c_.max_duration ? base.Ticks(*c_.max_duration) : kInf;
  }

  // Sends the chunk's entities to their sides, in runs of entities that
  // go to the same side.
  void Sort(const EntityChunk& c, const Trace& t, Side& matched, Side& unmatched) {
    if (!ChunkMatches(c, t)) {
      if (unmatched.wanted) unmatched.batch.Append(c);
      return;
    }
    for (size_t i = 0; i < c.size();) {
      const bool match = Matches(c, i, t);
      size_t end = i + 1;
      while (end < c.size() && Matches(c, end, t) == match) ++end;
      Side& side = match ? matched : unmatched;
      if (side.wanted) side.batch.Append(c.Sub(i, end - i));
      i = end;
    }
  }

  // The conditions every entity of a chunk meets or fails together.
  bool ChunkMatches(const EntityChunk& c, const Trace& t) {
    if (c_.kinds != 0 && !(c_.kinds & (1 << static_cast<int>(c.kind)))) return false;
    if (!types_.empty() && !types_.Matches(c.type_name, t)) return false;
    if (!containers_.empty() && !containers_.Matches(c.container_name, t)) return false;
    return true;
  }

  // The others, for entity i.
  bool Matches(const EntityChunk& c, size_t i, const Trace& t) {
    if (!values_.empty() && !values_.Matches(c.Value(i), t)) return false;
    const double start = c.start[i], end = c.End(i);
    if (end < from_ || start > to_) return false;
    const double duration = end - start;
    if (duration < min_ || duration > max_) return false;
    if (!field_names_.empty()) {
      bool found = false;
      c.ForEachField(i, [&](const ExtraField& f) {
        found = found ||
                (field_names_.Matches(f.name, t) && (field_values_.empty() || field_values_.Matches(f.value, t)));
      });
      if (!found) return false;
    }
    return true;
  }

  static void Send(Side& side, const EntityBatch& in) {
    if (side.batch.empty()) return;
    EntityBatch& slot = side.out->Claim();
    std::swap(slot, side.batch);
    side.batch.Clear();
    slot.trace = in.trace;
    slot.base = in.base;
    side.out->Publish();
    side.sent = true;
  }

  FilterConditions c_;
  NameMatcher types_, values_, containers_, field_names_, field_values_;
  double from_ = 0, to_ = 0, min_ = 0, max_ = 0;  // in ticks of the current base
  Input<EntityBatch>* in_;
  Output<EntityBatch>*matched_, *unmatched_;
};

}  // namespace

ModuleInfo FilterModule() {
  return {
      .kind = "filter",
      .description = "Entities matching every given condition to 'matched', the others to 'unmatched'",
      .params =
          {
              {"kind", "state, event, variable or link, or a list of them"},
              {"type", "entity type name(s)"},
              {"value", "value name(s): a state's value, an event's or a link's name"},
              {"container", "container name(s)"},
              {"from", "keeps entities that end at or after this time (seconds from the trace's origin)"},
              {"to", "keeps entities that start at or before this time (seconds from the trace's origin)"},
              {"field", "keeps entities having this user field"},
              {"field_value", "... with this text (needs 'field')"},
              {"min_duration", "keeps entities lasting at least this (seconds; events last 0)"},
              {"max_duration", "keeps entities lasting at most this (seconds)"},
          },
      .inputs = {{"in", "entities", "entities to sort"}},
      .outputs = {{"matched", "entities", "the entities matching every condition"},
                  {"unmatched", "entities", "the others"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(FilterModule());
        return std::make_unique<Filter>(name, ParseConditions(params));
      },
  };
}

}  // namespace macroscope::pipeline
