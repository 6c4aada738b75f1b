// The simulator's streaming half: handing complete entities to the sink
// and forgetting them, so that a trace of any length reads in bounded
// memory (simulator.h). Without a sink none of this runs.
//
// What a drain keeps in a store: the states on its stack (still open; an
// interrupted state of -i is on the stack too, a later set may end it
// again) and a variable's last value (the next change ends it, adds to it,
// or changes it in place at the same instant); everything else is
// complete. The complete entities between two kept ones go to the sink as
// one range, in store order, so a state still open is handed over later
// than the states opened after it but closed before it. Each chunk says
// where its entities sit in the whole store (EntityChunk::index): the kept
// entities remember their places (Simulator::Place), and a range that
// holds some kept earlier is cut where the places jump.
#include <algorithm>

#include "formats/paje/simulator.h"

namespace macroscope::paje {

namespace {

// Keeps the elements at `keep` (ascending) at the front, in order. The
// capacity stays while the column filled a quarter of it since the last
// drain: the next interval will likely append as many, and freeing it
// made every busy store grow again from one element (a quarter of the
// simulating thread's time went to malloc). It is freed when far above
// that use, and all of it when nothing is left and nothing will come
// (`last`).
template <class T>
void KeepOnly(std::vector<T>& column, const std::vector<uint32_t>& keep, bool last) {
  if (last && keep.empty()) {
    std::vector<T>().swap(column);
    return;
  }
  if (column.empty()) return;
  const size_t used = column.size();
  for (size_t i = 0; i < keep.size(); ++i) column[i] = column[keep[i]];  // keep[i] >= i
  column.resize(keep.size());
  if (last || column.capacity() > 4 * used + 16) column.shrink_to_fit();
}

}  // namespace

void Simulator::Drain(bool all) {
  if (places_.size() < trace_.stores().size()) places_.resize(trace_.stores().size());
  if (all) {
    for (uint32_t si = 0; si < trace_.stores().size(); ++si) DrainStore(si, true);
  } else {
    for (uint32_t si : touched_) DrainStore(si, false);
  }
  for (uint32_t si : touched_) store_states_[si].touched = false;
  touched_.clear();
  appended_ = 0;
}

void Simulator::DrainStore(uint32_t si, bool all) {
  EntityStore& s = trace_.store(si);
  const size_t n = s.size();
  keep_.clear();
  if (n == 0) {
    if (all) {  // nothing more will come: free what an earlier drain left allocated
      EntityStore empty;
      empty.kind = s.kind;
      empty.container = s.container;
      empty.type = s.type;
      s = std::move(empty);
    }
    return;
  }
  StoreState& st = store_states_[si];
  auto& stack = st.stack;
  if (!all) {
    // Ascending: states are appended as they open.
    if (s.kind == TypeKind::kState) keep_.assign(stack.begin(), stack.end());
    if (s.kind == TypeKind::kVariable) keep_.push_back(static_cast<uint32_t>(n - 1));
  }
  if (keep_.size() == n) return;
  size_t begin = 0;
  for (uint32_t k : keep_) {
    if (k > begin) HandOver(si, begin, k);
    begin = k + 1;
  }
  if (n > begin) HandOver(si, begin, n);
  // The kept entities take their places to the front; the next appended
  // comes after every entity held now.
  Place& place = places_[si];
  kept_places_.clear();
  for (uint32_t k : keep_) kept_places_.push_back(place.At(k));
  place.next = place.At(n);
  place.kept.assign(kept_places_.begin(), kept_places_.end());

  // The last entity, when kept, is the last of those kept; when handed
  // over, its times stay the store's last (CheckTimeOrder).
  st.last_index = !keep_.empty() && keep_.back() == n - 1 ? static_cast<uint32_t>(keep_.size() - 1) : UINT32_MAX;
  if (!s.extras.empty()) CompactExtras(si);  // reads the old indices: before the columns move
  KeepOnly(s.start, keep_, all);
  KeepOnly(s.end, keep_, all);
  KeepOnly(s.value, keep_, all);
  KeepOnly(s.number, keep_, all);
  KeepOnly(s.level, keep_, all);
  KeepOnly(s.key, keep_, all);
  KeepOnly(s.peer_start, keep_, all);
  KeepOnly(s.peer_end, keep_, all);
  if (all) {
    stack.clear();
  } else if (s.kind == TypeKind::kState) {
    for (size_t i = 0; i < stack.size(); ++i) stack[i] = static_cast<uint32_t>(i);
  }
}

void Simulator::HandOver(uint32_t si, size_t begin, size_t end) {
  const Place& place = places_[si];
  while (begin < end) {
    // Places jump only within the kept front; past it they run on to `end`.
    size_t run = begin + 1;
    while (run < end && place.At(run) == place.At(run - 1) + 1) run = run < place.kept.size() ? run + 1 : end;
    EntityChunk chunk = EntityChunk::Of(trace_, trace_.store(si), begin, run);
    chunk.index = place.At(begin);
    options_.sink->Completed(trace_, chunk);
    begin = run;
  }
}

// Keeps the user-field lists the kept entities and the store's pending
// links refer to, renumbered in the order they are met; the others go.
void Simulator::CompactExtras(uint32_t si) {
  EntityStore& s = trace_.store(si);
  const ExtraColumn& x = s.extras;
  const std::vector<ExtraField>& fields = x.fields();
  const std::vector<uint32_t>& begins = x.list_begin();
  constexpr uint32_t kUnset = UINT32_MAX;
  std::vector<uint32_t> renumber(begins.size() - 1, kUnset);
  renumber[ExtraColumn::kNoList] = ExtraColumn::kNoList;
  std::vector<ExtraField> new_fields;
  std::vector<uint32_t> new_begins{0, 0};
  auto map = [&](uint32_t list) {
    if (renumber[list] == kUnset) {
      new_fields.insert(new_fields.end(), fields.begin() + begins[list], fields.begin() + begins[list + 1]);
      new_begins.push_back(static_cast<uint32_t>(new_fields.size()));
      renumber[list] = static_cast<uint32_t>(new_begins.size() - 2);
    }
    return renumber[list];
  };
  auto column = [&](const std::vector<uint32_t>& old) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < keep_.size(); ++i) {
      uint32_t list = keep_[i] < old.size() ? old[keep_[i]] : ExtraColumn::kNoList;
      if (list == ExtraColumn::kNoList) continue;
      out.resize(i + 1, ExtraColumn::kNoList);  // as ExtraColumn grows it: up to the last list set
      out[i] = map(list);
    }
    return out;
  };
  std::vector<uint32_t> at_start = column(x.at_start());
  std::vector<uint32_t> at_end = column(x.at_end());
  if (s.kind == TypeKind::kLink) {
    container_states_[s.container].keys.ForEach([&](StringId, uint32_t held) {
      if (held == kUsedKey || pending_links_[held].type != s.type) return;
      PendingLink& link = pending_links_[held];
      link.first_extras = map(link.first_extras);
      link.second_extras = map(link.second_extras);
    });
  }
  if (new_fields.empty()) {  // no list left: the column is as new
    s.extras = ExtraColumn();
    return;
  }
  s.extras.Restore(std::move(new_fields), std::move(new_begins), std::move(at_start), std::move(at_end));
}

}  // namespace macroscope::paje
