// Stores of format versions 1 and 2 (docs/store.md, "Older stores"): one
// section per column of all stores together, so they are read whole, or
// streamed store after store; never lazily. Kept so that older stores
// still open; nothing writes them any more.
#include "store/legacy_reader.h"

#include <algorithm>
#include <functional>

#include "store/trace_sections.h"

namespace macroscope::store {

namespace {

// Their sections after the shared ones (trace_sections.h), in file order.
enum LegacySection : uint32_t {
  kStart = kStores + 1, kEnd, kValue, kNumber, kLevelColumn, kKey, kPeerStart, kPeerEnd,
  kExtraFields, kExtraListBegin, kExtraAtStart, kExtraAtEnd, kSectionCount
};
constexpr const char* kSectionNames[kSectionCount] = {
    "meta", "string bytes", "string lengths", "types", "values", "containers", "stores",
    "start", "end", "value", "number", "level", "key", "peer_start", "peer_end",
    "extra fields", "extra list starts", "extra at start", "extra at end"};

struct StoreSizes {
  uint64_t n[12];
};
// StoreSizes::n's columns, in the stores section's order.
enum Column { kColStart, kColEnd, kColValue, kColNumber, kColLevel, kColKey, kColPeerStart, kColPeerEnd,
              kColExtraFields, kColExtraListBegin, kColExtraAtStart, kColExtraAtEnd };


// A double column's section: its mode byte, then per store a delta chain.
class DoubleColumn {
 public:
  explicit DoubleColumn(In in) : in_(std::move(in)), reader_(in_) {}
  DoubleColumn(const DoubleColumn&) = delete;
  DoubleColumn& operator=(const DoubleColumn&) = delete;
  void NextStore() { reader_.Restart(); }
  void Read(uint64_t n, std::vector<double>& column) { reader_.Read(n, column); }
  In& in() { return in_; }

 private:
  In in_;
  DoubleReader reader_;
};


// One store's user-field lists (fields and list starts), checked.
void ReadExtraLists(In& fields, In& begins, const StoreSizes& size, uint64_t n_strings, std::vector<ExtraField>& f,
                    std::vector<uint32_t>& b) {
  const uint64_t* n = size.n;
  // Filled value by value, not sized by the counts (claims until the values are there).
  f.reserve(std::min(n[kColExtraFields], kMaxReserve));
  for (uint64_t k = 0; k < n[kColExtraFields]; ++k) {
    StringId name = fields.Below(n_strings);
    f.push_back({name, fields.Below(n_strings)});
  }
  b.reserve(std::min(n[kColExtraListBegin], kMaxReserve));
  uint64_t at = 0;
  for (uint64_t k = 0; k < n[kColExtraListBegin]; ++k) {
    const uint64_t step = begins.U();
    if (step > f.size() - at) begins.Fail();  // so `at` cannot wrap
    at += step;
    b.push_back(static_cast<uint32_t>(at));
  }
  if (b.size() < 2 || b[0] != 0 || b[1] != 0 || b.back() != f.size()) begins.Fail();
}

// What the columns cannot check alone: the store's kind is its type's, and
// link peers are containers.
void CheckStore(const Trace& trace, const EntityStore& s, uint64_t n_containers, const std::string& path) {
  if (s.type != kNone && trace.type(s.type).kind != s.kind) throw UserError(path + ": corrupt store (store kinds)");
  for (auto* column : {&s.peer_start, &s.peer_end})
    for (ContainerId c : *column)
      if (c != kNone && c >= n_containers) throw UserError(path + ": corrupt store (link peers)");
}

// Streaming (ReadStore with a sink): the string pool first (the sink reads
// names), then store by store, a chunk of entities at a time, each chunk
// handed to the sink and dropped. The column sections are read side by
// side, as they hold the stores one after the other. Memory: one chunk, and
// the user-field lists of the store under way (docs/streaming.md).
template <class Open>
void StreamEntities(Open& open, const StoreFile& file, const StoreMeta& meta, const std::vector<StoreSizes>& sizes,
                    Trace& trace, EntitySink& sink) {
  const std::string& path = file.path();
  const uint64_t n_strings = meta.strings, n_containers = meta.containers;
  ReadStrings(file, meta, trace);
  DoubleColumn start(open(kStart)), end(open(kEnd)), number(open(kNumber));
  In value = open(kValue), key = open(kKey), level = open(kLevelColumn);
  In peer_start = open(kPeerStart), peer_end = open(kPeerEnd);
  In fields = open(kExtraFields), begins = open(kExtraListBegin);
  In at_start = open(kExtraAtStart), at_end = open(kExtraAtEnd);
  constexpr uint64_t kChunk = 65536;
  for (uint32_t i = 0; i < sizes.size(); ++i) {
    const uint64_t* n = sizes[i].n;
    const uint64_t count = n[kColStart];
    // A chunk takes the same entities from every column: each is full or empty.
    for (int c : {kColEnd, kColValue, kColNumber, kColLevel, kColKey, kColPeerStart, kColPeerEnd})
      if (n[c] != 0 && n[c] != count) throw UserError(path + ": corrupt store (column lengths)");
    if (n[kColExtraAtStart] > count || n[kColExtraAtEnd] > count)
      throw UserError(path + ": corrupt store (column lengths)");
    EntityStore& s = trace.store(i);
    const bool extras = n[kColExtraFields] != 0 || n[kColExtraListBegin] != 0 || n[kColExtraAtStart] != 0 ||
                        n[kColExtraAtEnd] != 0;
    if (extras) {
      std::vector<ExtraField> f;
      std::vector<uint32_t> b;
      ReadExtraLists(fields, begins, sizes[i], n_strings, f, b);
      s.extras.Restore(std::move(f), std::move(b), {}, {});
    }
    const uint64_t lists = s.extras.list_begin().size() - 1;
    start.NextStore();
    end.NextStore();
    number.NextStore();
    auto take = [&](uint64_t c, uint64_t len) { return n[c] == 0 ? 0 : len; };
    for (uint64_t first = 0; first < count; first += kChunk) {
      const uint64_t len = std::min(kChunk, count - first);
      for (auto* column : {&s.start, &s.end, &s.number}) column->clear();
      for (auto* column : {&s.value, &s.key, &s.peer_start, &s.peer_end}) column->clear();
      s.level.clear();
      start.Read(len, s.start);
      end.Read(take(kColEnd, len), s.end);
      number.Read(take(kColNumber, len), s.number);
      ReadIds(value, take(kColValue, len), n_strings, s.value);
      ReadIds(key, take(kColKey, len), n_strings, s.key);
      ReadIds(level, take(kColLevel, len), 65536, s.level);
      ReadIds(peer_start, take(kColPeerStart, len), uint64_t{UINT32_MAX} + 1, s.peer_start);
      ReadIds(peer_end, take(kColPeerEnd, len), uint64_t{UINT32_MAX} + 1, s.peer_end);
      if (extras) {
        // Entity k of the chunk is entity first + k of the store; the tail
        // of the previous chunk's lists is cleared.
        const size_t set = std::max({s.extras.at_start().size(), s.extras.at_end().size(), size_t{len}});
        for (uint64_t k = 0; k < set; ++k) {
          const uint64_t e = first + k;
          s.extras.SetStart(k, k < len && e < n[kColExtraAtStart] ? at_start.Below(lists) : ExtraColumn::kNoList);
          s.extras.SetEnd(k, k < len && e < n[kColExtraAtEnd] ? at_end.Below(lists) : ExtraColumn::kNoList);
        }
      }
      CheckStore(trace, s, n_containers, path);
      EntityChunk chunk = EntityChunk::Of(trace, s, 0, len);
      chunk.index = first;
      sink.Completed(trace, chunk);
    }
    EntityStore empty;
    empty.kind = s.kind;
    empty.container = s.container;
    empty.type = s.type;
    s = std::move(empty);
  }
  for (In* in : {&start.in(), &end.in(), &number.in(), &value, &key, &level, &peer_start, &peer_end, &fields, &begins,
                 &at_start, &at_end})
    in->ExpectDone();
}

}  // namespace

StoreStats ReadLegacy(const StoreFile& file, Trace& trace, EntitySink* sink) {
  const std::string& path = file.path();
  if (file.section_count() < kSectionCount) throw UserError(path + ": corrupt store (directory)");
  const StoreMeta meta = ReadTraceSections(file, trace);
  const uint64_t n_strings = meta.strings, n_types = meta.types, n_containers = meta.containers,
                 n_stores = meta.stores;
  auto open = [&](uint32_t id) { return file.OpenSection(id, kSectionNames[id]); };
  auto raw = [&](uint32_t id) { return file.section(id).raw; };
  std::vector<StoreSizes> sizes;  // grown store by store: n_stores is a claim
  uint64_t totals[12] = {};
  {
    In in = open(kStores);
    for (uint64_t i = 0; i < n_stores; ++i) {
      EntityStore s;
      sizes.emplace_back();
      s.kind = static_cast<TypeKind>(in.Below(5));
      s.container = in.IdBelow(n_containers);
      s.type = in.IdBelow(n_types);
      for (int c = 0; c < 12; ++c) {
        // A value takes at least one byte of its column's section.
        uint64_t n = in.U();
        static constexpr LegacySection kColumn[12] = {kStart, kEnd, kValue, kNumber, kLevelColumn, kKey, kPeerStart,
                                                kPeerEnd, kExtraFields, kExtraListBegin, kExtraAtStart, kExtraAtEnd};
        totals[c] += n;
        if (n > raw(kColumn[c]) || totals[c] > raw(kColumn[c])) in.Fail();
        sizes[i].n[c] = n;
      }
      trace.AppendStore(std::move(s));
    }
    in.ExpectDone();
  }

  if (sink != nullptr) {
    StreamEntities(open, file, meta, sizes, trace, *sink);
    return meta.stats;
  }

  // The columns and the string pool, on two threads, largest first.
  std::vector<std::pair<uint64_t, std::function<void()>>> tasks;
  tasks.emplace_back(raw(kStringBytes) + raw(kStringLengths), [&] {
    ReadStrings(file, meta, trace);
  });
  // Each column is allocated by the task that fills it (its page faults
  // land on that task's thread) and filled by push_back (no zeroing first).
  // `c` indexes StoreSizes.
  auto doubles = [&](LegacySection id, std::vector<double> EntityStore::*member, int c) {
    tasks.emplace_back(raw(id), [&, id, member, c] {
      DoubleColumn in(open(id));
      for (uint64_t i = 0; i < n_stores; ++i) {
        std::vector<double>& column = trace.store(static_cast<uint32_t>(i)).*member;
        const uint64_t n = sizes[i].n[c];
        column.reserve(std::min(n, kMaxReserve));
        in.NextStore();
        in.Read(n, column);
      }
      in.in().ExpectDone();
    });
  };
  doubles(kStart, &EntityStore::start, 0);
  doubles(kEnd, &EntityStore::end, 1);
  doubles(kNumber, &EntityStore::number, 3);
  auto ints = [&](LegacySection id, auto member, uint64_t limit, int c) {
    tasks.emplace_back(raw(id), [&, id, member, limit, c] {
      In in = open(id);
      for (uint64_t i = 0; i < n_stores; ++i) {
        auto& column = trace.store(static_cast<uint32_t>(i)).*member;
        const uint64_t n = sizes[i].n[c];
        column.reserve(std::min(n, kMaxReserve));
        ReadIds(in, n, limit, column);
      }
      in.ExpectDone();
    });
  };
  ints(kValue, &EntityStore::value, n_strings, 2);
  ints(kKey, &EntityStore::key, n_strings, 5);
  ints(kLevelColumn, &EntityStore::level, 65536, 4);
  // Peers may be kNone? They are container ids; accept the full range checked below.
  ints(kPeerStart, &EntityStore::peer_start, uint64_t{UINT32_MAX} + 1, 6);
  ints(kPeerEnd, &EntityStore::peer_end, uint64_t{UINT32_MAX} + 1, 7);
  tasks.emplace_back(raw(kExtraFields) + raw(kExtraListBegin) + raw(kExtraAtStart) + raw(kExtraAtEnd),
                     [&] {
                       In fields = open(kExtraFields), begins = open(kExtraListBegin);
                       In starts = open(kExtraAtStart), ends = open(kExtraAtEnd);
                       for (uint64_t i = 0; i < n_stores; ++i) {
                         const uint64_t* n = sizes[i].n;
                         if (n[9] == 0 && n[8] == 0 && n[10] == 0 && n[11] == 0) continue;
                         std::vector<ExtraField> f;
                         std::vector<uint32_t> b, s, e;
                         ReadExtraLists(fields, begins, sizes[i], n_strings, f, b);
                         s.reserve(std::min(n[10], kMaxReserve));
                         ReadIds(starts, n[10], b.size() - 1, s);
                         e.reserve(std::min(n[11], kMaxReserve));
                         ReadIds(ends, n[11], b.size() - 1, e);
                         trace.store(static_cast<uint32_t>(i)).extras.Restore(std::move(f), std::move(b),
                                                                               std::move(s), std::move(e));
                       }
                       fields.ExpectDone();
                       begins.ExpectDone();
                       starts.ExpectDone();
                       ends.ExpectDone();
                     });
  std::sort(tasks.begin(), tasks.end(), [](auto& a, auto& b) { return a.first > b.first; });
  RunTasks(tasks.size(), [&](size_t i) { tasks[i].second(); });

  for (const EntityStore& s : trace.stores()) CheckStore(trace, s, n_containers, path);
  return meta.stats;
}

}  // namespace macroscope::store
