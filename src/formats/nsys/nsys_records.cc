#include "formats/nsys/nsys_records.h"

#include <algorithm>
#include <cassert>

namespace macroscope::nsys {

Fields::Fields(std::initializer_list<Field> fields) {
  assert(fields.size() <= kMax);
  for (const Field& f : fields)
    if (f.value != kNone) {
      names[count] = f.name;
      values[count++] = f.value;
    }
}

paje::Extras Fields::View(const FieldNameIds& ids, std::array<ExtraField, kMax>& buffer) const {
  for (uint32_t i = 0; i < count; ++i) buffer[i] = {ids[names[i]], values[i]};
  return {buffer.data(), count};
}

Nesting::Nesting(size_t memory) : spans_(memory, kRunPurpose, kRunNeed) {}

bool Nesting::Pull(Span& span) {
  if (ahead_) {
    span = *ahead_;
    ahead_.reset();
  } else if (!spans_.Next(span)) {
    return false;
  }
  if (span.open_end) span.end = last_;
  return true;
}

bool Nesting::Next(Span& span) {
  if (next_ending_last_ < ending_last_.size()) {
    span = ending_last_[next_ending_last_++];
    return true;
  }
  if (!Pull(span)) return false;
  if (!span.open_end) return true;
  // The first of its (container, type, start) ending at the trace end, as
  // sorted: the spans without an end, then those whose end is the trace's.
  // Taken together in reading order, as when every end is known.
  ending_last_.assign(1, span);
  next_ending_last_ = 0;
  Span s;
  while (Pull(s)) {
    if (s.container != span.container || s.kind != span.kind || s.start != span.start || s.end != last_) {
      ahead_ = s;
      break;
    }
    ending_last_.push_back(s);
  }
  std::sort(ending_last_.begin(), ending_last_.end(), [](const Span& a, const Span& b) { return a.index < b.index; });
  span = ending_last_[next_ending_last_++];
  return true;
}

uint64_t Nesting::Sweep(int64_t last, const std::function<void(const Action&)>& out) {
  last_ = last;
  uint64_t order = 0, cut = 0;
  std::vector<int64_t> stack;  // ends of the open spans of the store, innermost last
  uint32_t container = kNoContainer;
  Kind kind = kKinds;
  auto pop = [&] {
    out({stack.back(), order++, container, 0, kNone, kNone, Op::kPop, kind, Group::kNesting, {}});
    stack.pop_back();
  };
  Span s;
  while (Next(s)) {
    if (s.container != container || s.kind != kind)
      while (!stack.empty()) pop();
    container = s.container;
    kind = s.kind;
    while (!stack.empty() && stack.back() <= s.start) pop();
    if (!stack.empty() && s.end > stack.back()) {
      s.end = stack.back();
      ++cut;
    }
    out({s.start, order++, s.container, 0, s.value, kNone, Op::kPush, s.kind, Group::kNesting, s.fields});
    stack.push_back(s.end);
  }
  while (!stack.empty()) pop();
  return cut;
}

LaunchJoin::LaunchJoin(size_t memory)
    : launchers_(memory / 2, kRunPurpose, kRunNeed), works_(memory / 2, kRunPurpose, kRunNeed) {}

namespace {

// The call that launched `work` among `calls` (its correlationId's): of
// its process, the lowest rank, then the earliest, then the first read.
const Launcher* Preferred(const std::vector<Launcher>& calls, const GpuWork& work) {
  const Launcher* best = nullptr;
  for (const Launcher& l : calls) {
    if (!work.any_process && l.process != work.process) continue;
    if (!best || std::tie(l.rank, l.start) < std::tie(best->rank, best->start)) best = &l;
  }
  return best;
}

}  // namespace

void LaunchJoin::Join(const std::function<void(const GpuWork&, const Launcher&, int)>& link) {
  std::vector<Launcher> calls;  // of the correlationId at hand
  Launcher next{};
  bool more = launchers_.Next(next);
  std::optional<int64_t> current;
  int links = 0;
  GpuWork work{};
  while (works_.Next(work)) {
    if (work.correlation != current) {
      current = work.correlation;
      links = 0;
      calls.clear();
      while (more && next.correlation < work.correlation) more = launchers_.Next(next);
      while (more && next.correlation == work.correlation) {
        calls.push_back(next);
        more = launchers_.Next(next);
      }
    }
    if (const Launcher* call = Preferred(calls, work)) link(work, *call, ++links);
  }
}

}  // namespace macroscope::nsys
