#include "model/cell_summary.h"

#include <algorithm>

namespace macroscope {

namespace {

ValueTally& TallyOf(std::vector<ValueTally>& tallies, StringId value) {
  for (ValueTally& t : tallies) {
    if (t.value == value) return t;
  }
  return tallies.emplace_back(ValueTally{value, {}, 0});
}

}  // namespace

void CellSummary::Add(TypeKind kind, const EntityCopy& e) {
  const double a = e.Low(), b = e.High();
  if (count == 0) {
    start = a;
    end = b;
    longest = b - a;
    first = e;
    if (kind == TypeKind::kVariable) min = max = e.number;
  } else {
    start = std::min(start, a);
    end = std::max(end, b);
    longest = std::max(longest, b - a);
    if (e < first) first = e;
    if (kind == TypeKind::kVariable) {
      min = std::min(min, e.number);
      max = std::max(max, e.number);
    }
  }
  ++count;
  if (kind == TypeKind::kVariable) return;
  ValueTally& t = TallyOf(tallies, e.value);
  t.time.Add(b - a);
  ++t.count;
}

void CellSummary::Merge(TypeKind kind, const CellSummary& other) {
  if (other.count == 0) return;
  if (count == 0) {
    start = other.start;
    end = other.end;
    longest = other.longest;
    first = other.first;
    min = other.min;
    max = other.max;
  } else {
    start = std::min(start, other.start);
    end = std::max(end, other.end);
    longest = std::max(longest, other.longest);
    if (other.first < first) first = other.first;
    if (kind == TypeKind::kVariable) {
      min = std::min(min, other.min);
      max = std::max(max, other.max);
    }
  }
  count += other.count;
  for (const ValueTally& o : other.tallies) {
    ValueTally& t = TallyOf(tallies, o.value);
    t.time.Merge(o.time);
    t.count += o.count;
  }
}

StringId CellSummary::Dominant() const {
  const ValueTally* best = nullptr;
  double best_time = 0;
  for (const ValueTally& t : tallies) {
    const double time = t.time.Value();
    if (!best || time > best_time ||
        (time == best_time && (t.count > best->count || (t.count == best->count && t.value < best->value)))) {
      best = &t;
      best_time = time;
    }
  }
  return best ? best->value : kEmptyString;
}

void CellSummary::Clear() {
  count = 0;
  tallies.clear();
}

}  // namespace macroscope
