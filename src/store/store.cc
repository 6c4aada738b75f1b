#include "store/store.h"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <thread>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::store {

namespace {

constexpr char kMagic[8] = {'\x89', 'M', 'S', 'T', 'O', 'R', 'E', '\n'};
constexpr char kEndMagic[8] = {'M', 'S', 'T', 'O', 'R', 'E', 'N', 'D'};
constexpr size_t kHeaderSize = 16;   // magic, u32 version, u32 flags
constexpr size_t kEntrySize = 32;    // u64 offset, compressed size, raw size, hash
constexpr size_t kFooterSize = 32;   // u64 directory offset, count, checksum, end magic
constexpr int kLevel = 3;
// Fuzz builds skip the checksums so that mutated inputs reach the decoders.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kVerifyChecksums = false;
#else
constexpr bool kVerifyChecksums = true;
#endif
// zstd's best ratio: a 128 KiB RLE block takes 4 bytes. A section that
// claims more raw bytes than that lies, and must size no allocation.
constexpr uint64_t kMaxZstdRatio = 32768;
// A column's count is checked against its section's raw size only: most of
// it is reserved up front (the pages are touched as values arrive), and a
// lie that costs no memory here would still exceed a fuzzer's malloc limit,
// so fuzz builds reserve less and grow.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr uint64_t kMaxReserve = uint64_t{1} << 16;
#else
constexpr uint64_t kMaxReserve = UINT64_MAX;
#endif
// Fuzz builds decode on one thread: the threads' timing would change what
// the fuzzer sees from run to run (fuzz/run's check mode must give the same
// result for the same commit).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kHelperThread = false;
#else
constexpr bool kHelperThread = true;
#endif

// The sections, in file order (docs/store.md).
enum Section : uint32_t {
  kMeta, kStringBytes, kStringLengths, kTypes, kValues, kContainers, kStores,
  kStart, kEnd, kValue, kNumber, kLevelColumn, kKey, kPeerStart, kPeerEnd,
  kExtraFields, kExtraListBegin, kExtraAtStart, kExtraAtEnd, kSectionCount
};
constexpr const char* kSectionNames[kSectionCount] = {
    "meta", "string bytes", "string lengths", "types", "values", "containers", "stores",
    "start", "end", "value", "number", "level", "key", "peer_start", "peer_end",
    "extra fields", "extra list starts", "extra at start", "extra at end"};

// A fast 64-bit hash of bytes, a word at a time (each step is a bijection of
// the state, so any change of one word changes the result). Given the mapped
// store and where `p` lies in it, the pages leave memory as they are hashed,
// 8 MiB at a time (the decoder reads them again as it goes).
uint64_t Hash64(const uint8_t* p, size_t n, const MappedFile* file = nullptr, size_t offset = 0) {
  constexpr size_t kStep = size_t{8} << 20;  // a multiple of 8: the words are the same
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  size_t i = 0;
  for (size_t step_end = std::min(n, kStep);; step_end = std::min(n, step_end + kStep)) {
    for (; i + 8 <= step_end; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 0x100000001b3ULL;
      h ^= h >> 29;
    }
    if (file) file->ReleaseRange(offset + step_end - std::min(step_end, kStep), std::min(step_end, kStep));
    if (step_end == n) break;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h ^ (h >> 32);
}

void PutU64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// ---- encoding ----

class Out {
 public:
  std::vector<uint8_t> bytes;
  void U(uint64_t v) {
    while (v >= 0x80) {
      bytes.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes.push_back(static_cast<uint8_t>(v));
  }
  void S(int64_t v) { U((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Id(uint32_t id) { U(id == kNone ? 0 : uint64_t{id} + 1); }  // kNone-able ids
  void D(double d) { U(std::bit_cast<uint64_t>(d)); }
};

constexpr double kPow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
constexpr int kMaxDecimals = 9;

// True when d == k / 10^decimals bit for bit, for an integer k (set).
bool Decimal(double d, int decimals, int64_t& k) {
  double scaled = d * kPow10[decimals];
  if (!(std::fabs(scaled) < 9007199254740992.0)) return false;  // also NaN
  k = std::llround(scaled);
  return std::bit_cast<uint64_t>(static_cast<double>(k) / kPow10[decimals]) == std::bit_cast<uint64_t>(d);
}

// A double column of all stores: a mode byte (0: bit patterns; 1 + d:
// integers k with value = k / 10^d), then per value the zigzag varint of
// its difference with the previous value of the same store (0 first).
template <class Get>
std::vector<uint8_t> EncodeDoubles(const Trace& trace, Get get) {
  int decimals = 0;
  bool decimal = true;
  for (const EntityStore& s : trace.stores()) {
    const std::vector<double>& column = get(s);
    for (double d : column) {
      int64_t k = 0;
      while (decimal && !Decimal(d, decimals, k)) {
        if (++decimals > kMaxDecimals) decimal = false;
      }
      if (!decimal) break;
    }
    if (!decimal) break;
  }
  Out out;
  out.bytes.push_back(static_cast<uint8_t>(decimal ? 1 + decimals : 0));
  for (const EntityStore& s : trace.stores()) {
    int64_t prev = 0;
    for (double d : get(s)) {
      int64_t k = 0;
      if (decimal) Decimal(d, decimals, k);
      else k = static_cast<int64_t>(std::bit_cast<uint64_t>(d));
      out.S(static_cast<int64_t>(static_cast<uint64_t>(k) - static_cast<uint64_t>(prev)));
      prev = k;
    }
  }
  return std::move(out.bytes);
}

template <class Get>
std::vector<uint8_t> EncodeInts(const Trace& trace, Get get) {
  Out out;
  for (const EntityStore& s : trace.stores())
    for (auto v : get(s)) out.U(v);
  return std::move(out.bytes);
}

std::vector<std::vector<uint8_t>> Encode(const Trace& trace, const StoreStats& stats) {
  std::vector<std::vector<uint8_t>> sections(kSectionCount);
  const StringPool& pool = trace.strings();
  {
    Out lengths;
    std::vector<uint8_t> bytes;
    for (size_t i = 1; i < pool.size(); ++i) {
      std::string_view s = pool.View(static_cast<StringId>(i));
      bytes.insert(bytes.end(), s.begin(), s.end());
      lengths.U(s.size());
    }
    sections[kStringBytes] = std::move(bytes);
    sections[kStringLengths] = std::move(lengths.bytes);
  }
  {
    Out m;
    m.U(stats.events);
    m.U(stats.bytes);
    m.D(trace.start_time());
    m.D(trace.end_time());
    m.U(pool.size());
    m.U(sections[kStringBytes].size());
    m.U(trace.types().size());
    m.U(trace.values().size());
    m.U(trace.containers().size());
    m.U(trace.stores().size());
    // Since version 2: the time base (model/time_base.h).
    const TimeBase& tb = trace.time_base();
    m.U(tb.num); m.U(tb.den); m.U(tb.whole_ticks ? 1 : 0); m.S(tb.origin);
    m.U(tb.epoch_ns ? 1 : 0); m.S(tb.epoch_ns.value_or(0));
    sections[kMeta] = std::move(m.bytes);
  }
  {
    Out o;
    for (const Type& t : trace.types()) {
      o.U(t.name); o.U(t.alias); o.U(static_cast<uint8_t>(t.kind));
      o.Id(t.parent); o.Id(t.start_type); o.Id(t.end_type); o.U(t.color);
      o.U(t.children.size());
      for (TypeId c : t.children) o.U(c);
    }
    sections[kTypes] = std::move(o.bytes);
  }
  {
    Out o;
    for (const EntityValue& v : trace.values()) { o.Id(v.type); o.U(v.name); o.U(v.alias); o.U(v.color); }
    sections[kValues] = std::move(o.bytes);
  }
  {
    Out o;
    for (const Container& c : trace.containers()) {
      o.U(c.name); o.U(c.alias); o.Id(c.type); o.Id(c.parent);
      o.D(c.start); o.D(c.end); o.U(c.destroyed ? 1 : 0);
      o.U(c.children.size());
      for (ContainerId k : c.children) o.U(k);
      o.U(c.stores.size());
      for (auto [t, i] : c.stores) { o.U(t); o.U(i); }
      o.U(c.extras.size());
      for (const ExtraField& f : c.extras) { o.U(f.name); o.U(f.value); }
    }
    sections[kContainers] = std::move(o.bytes);
  }
  {
    Out o;
    for (const EntityStore& s : trace.stores()) {
      o.U(static_cast<uint8_t>(s.kind)); o.Id(s.container); o.Id(s.type);
      for (size_t n : {s.start.size(), s.end.size(), s.value.size(), s.number.size(), s.level.size(), s.key.size(),
                       s.peer_start.size(), s.peer_end.size(), s.extras.fields().size(),
                       s.extras.list_begin().size(), s.extras.at_start().size(), s.extras.at_end().size()})
        o.U(n);
    }
    sections[kStores] = std::move(o.bytes);
  }
  sections[kStart] = EncodeDoubles(trace, [](const EntityStore& s) -> auto& { return s.start; });
  sections[kEnd] = EncodeDoubles(trace, [](const EntityStore& s) -> auto& { return s.end; });
  sections[kNumber] = EncodeDoubles(trace, [](const EntityStore& s) -> auto& { return s.number; });
  sections[kValue] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.value; });
  sections[kLevelColumn] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.level; });
  sections[kKey] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.key; });
  sections[kPeerStart] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.peer_start; });
  sections[kPeerEnd] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.peer_end; });
  sections[kExtraAtStart] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.extras.at_start(); });
  sections[kExtraAtEnd] = EncodeInts(trace, [](const EntityStore& s) -> auto& { return s.extras.at_end(); });
  {
    Out fields, begins;
    for (const EntityStore& s : trace.stores()) {
      for (const ExtraField& f : s.extras.fields()) { fields.U(f.name); fields.U(f.value); }
      uint32_t prev = 0;
      for (uint32_t b : s.extras.list_begin()) { begins.U(b - prev); prev = b; }
    }
    sections[kExtraFields] = std::move(fields.bytes);
    sections[kExtraListBegin] = std::move(begins.bytes);
  }
  return sections;
}

// ---- decoding ----

// One section, decompressed in small blocks while it is decoded: no whole
// decompressed copy is ever held (it would cost as much memory, and page
// faults, as a good part of the trace).
class In {
  static constexpr size_t kBlock = 1 << 17;

 public:
  // `file` and `offset`: where `data` lies in the mapped store, so that the
  // compressed bytes already decoded leave memory as decoding goes (a
  // streaming read's memory stays flat whatever the store's size).
  In(const uint8_t* data, size_t size, uint64_t raw, const std::string& path, const char* what,
     const MappedFile* file = nullptr, size_t offset = 0)
      : dctx_(ZSTD_createDCtx(), ZSTD_freeDCtx),
        input_{data, size, 0},
        raw_(raw),
        path_(path),
        what_(what),
        file_(file),
        offset_(offset) {
    if (!dctx_) throw std::runtime_error("zstd: out of memory");
    if (ZSTD_getFrameContentSize(data, size) != raw) Fail();
    p_ = end_ = buffer_.get();
    Refill();
  }
  [[noreturn]] void Fail() const { throw UserError(path_ + ": corrupt store (section " + what_ + ")"); }
  uint64_t U() {
    if (end_ - p_ < 10) Refill();
    if (end_ - p_ >= 10) {  // fast path: no end checks (a varint takes at most 10 bytes)
      uint64_t v = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        uint8_t b = *p_++;
        v |= uint64_t{b & 0x7fu} << (shift & 63);
        if (b < 0x80) return v;
      }
      Fail();
    }
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (p_ == end_ || shift > 63) Fail();
      uint8_t b = *p_++;
      v |= uint64_t{b & 0x7fu} << shift;
      if (b < 0x80) return v;
    }
  }
  int64_t S() {
    uint64_t z = U();
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  uint8_t Byte() {
    if (p_ == end_) Refill();
    if (p_ == end_) Fail();
    return *p_++;
  }
  uint32_t Below(uint64_t limit) {  // an id < limit
    uint64_t v = U();
    if (v >= limit) Fail();
    return static_cast<uint32_t>(v);
  }
  uint32_t IdBelow(uint64_t limit) {  // a kNone-able id
    uint64_t v = U();
    if (v == 0) return kNone;
    if (v - 1 >= limit) Fail();
    return static_cast<uint32_t>(v - 1);
  }
  double D() { return std::bit_cast<double>(U()); }
  // The next n bytes: a view of the buffer when they fit in it, else
  // gathered in `spill` (never sized by n itself: n comes from the file).
  std::string_view Bytes(uint64_t n, std::string& spill) {
    if (static_cast<uint64_t>(end_ - p_) < n) Refill();
    if (static_cast<uint64_t>(end_ - p_) >= n) {
      std::string_view view(reinterpret_cast<const char*>(p_), n);
      p_ += n;
      return view;
    }
    spill.clear();
    while (n > 0) {
      if (p_ == end_) Refill();
      if (p_ == end_) Fail();
      const size_t k = static_cast<size_t>(std::min<uint64_t>(n, static_cast<uint64_t>(end_ - p_)));
      spill.append(reinterpret_cast<const char*>(p_), k);
      p_ += k;
      n -= k;
    }
    return spill;
  }
  void ExpectDone() {
    Refill();
    if (p_ != end_ || !finished_ || produced_ != raw_ || input_.pos != input_.size) Fail();
  }

 private:
  // Moves the unread tail to the front and decompresses behind it.
  void Refill() {
    if (finished_) return;
    const size_t tail = static_cast<size_t>(end_ - p_);
    std::memmove(buffer_.get(), p_, tail);
    ZSTD_outBuffer out{buffer_.get(), kBlock, tail};
    while (out.pos < out.size && !finished_) {
      const size_t before = out.pos;
      const size_t result = ZSTD_decompressStream(dctx_.get(), &out, &input_);
      if (ZSTD_isError(result)) Fail();
      finished_ = result == 0;
      if (!finished_ && out.pos == before && input_.pos == input_.size) Fail();  // truncated frame
    }
    produced_ += out.pos - tail;
    if (produced_ > raw_) Fail();
    if (file_ && input_.pos - released_ >= kReleaseStep) {
      file_->ReleaseRange(offset_ + released_, input_.pos - released_);
      released_ = input_.pos;
    }
    p_ = buffer_.get();
    end_ = buffer_.get() + out.pos;
  }

  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx_;
  ZSTD_inBuffer input_;
  std::unique_ptr<uint8_t[]> buffer_ = std::make_unique_for_overwrite<uint8_t[]>(kBlock);
  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t raw_;
  uint64_t produced_ = 0;
  bool finished_ = false;
  const std::string& path_;
  const char* what_;
  static constexpr size_t kReleaseStep = size_t{8} << 20;
  const MappedFile* file_;
  size_t offset_;
  size_t released_ = 0;
};

struct Entry {
  uint64_t offset, size, raw, hash;
};

struct StoreSizes {
  uint64_t n[12];
};
// StoreSizes::n's columns, in the stores section's order.
enum Column { kColStart, kColEnd, kColValue, kColNumber, kColLevel, kColKey, kColPeerStart, kColPeerEnd,
              kColExtraFields, kColExtraListBegin, kColExtraAtStart, kColExtraAtEnd };

// A double column's section: its mode byte, then per store a delta chain.
class DoubleColumn {
 public:
  explicit DoubleColumn(In in) : in_(std::move(in)) {
    mode_ = in_.Byte();
    if (mode_ > 1 + kMaxDecimals) in_.Fail();
    scale_ = mode_ == 0 ? 1 : kPow10[mode_ - 1];
  }
  // The next store's values start: deltas restart from 0.
  void NextStore() { prev_ = 0; }
  // Appends the next `n` values of the current store to `column`.
  void Read(uint64_t n, std::vector<double>& column) {
    const size_t first = column.size();
    if (mode_ == 0) {
      for (uint64_t k = 0; k < n; ++k) column.push_back(std::bit_cast<double>(prev_ += static_cast<uint64_t>(in_.S())));
      return;
    }
    for (uint64_t k = 0; k < n; ++k)
      column.push_back(static_cast<double>(static_cast<int64_t>(prev_ += static_cast<uint64_t>(in_.S()))));
    // A separate pass, so that the divisions vectorise.
    if (mode_ > 1)
      for (size_t i = first; i < column.size(); ++i) column[i] /= scale_;
  }
  In& in() { return in_; }

 private:
  In in_;
  uint8_t mode_ = 0;
  double scale_ = 1;
  uint64_t prev_ = 0;
};

// Appends `n` ids below `limit` to `column`.
template <class Value>
void ReadIds(In& in, uint64_t n, uint64_t limit, std::vector<Value>& column) {
  for (uint64_t k = 0; k < n; ++k) column.push_back(static_cast<Value>(in.Below(limit)));
}

// The string pool's sections into `trace`'s pool (which holds "0" already).
void ReadStrings(In bytes, In lengths, uint64_t n_strings, uint64_t n_string_bytes, Trace& trace) {
  StringPool& pool = trace.strings();
  std::string spill;  // a string longer than a decompressed block
  uint64_t left = n_string_bytes;
  for (uint64_t i = 1; i < n_strings; ++i) {
    uint64_t n = lengths.U();
    if (n > left) lengths.Fail();
    left -= n;
    std::string_view s = bytes.Bytes(n, spill);
    if (i < pool.size()) {  // "0", interned by the Trace constructor
      if (pool.View(static_cast<StringId>(i)) != s) lengths.Fail();
    } else if (pool.Intern(s) != i) {
      lengths.Fail();
    }
  }
  lengths.ExpectDone();
  bytes.ExpectDone();
}

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

}  // namespace

bool LooksLikeStore(std::string_view head) {
  return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

void WriteStore(const Trace& trace, const StoreStats& stats, const std::string& path) {
  std::vector<std::vector<uint8_t>> sections = Encode(trace, stats);
  AtomicFile file(path);
  std::vector<uint8_t> header(kMagic, kMagic + 8);
  for (int i = 0; i < 4; ++i) header.push_back(static_cast<uint8_t>(kStoreVersion >> (8 * i)));
  for (int i = 0; i < 4; ++i) header.push_back(0);
  auto write = [&](const void* data, size_t n) {
    if (n != 0 && std::fwrite(data, 1, n, file.stream()) != n) throw UserError(path + ": cannot write");
  };
  write(header.data(), header.size());
  uint64_t offset = header.size();
  std::vector<uint8_t> directory;
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (cctx == nullptr) throw std::runtime_error("zstd: out of memory");
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> guard(cctx, ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 2);  // ignored by a single-threaded libzstd
  std::vector<uint8_t> compressed;
  for (auto& raw : sections) {
    compressed.resize(ZSTD_compressBound(raw.size()));
    size_t n = ZSTD_compress2(cctx, compressed.data(), compressed.size(), raw.data(), raw.size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    write(compressed.data(), n);
    PutU64(directory, offset);
    PutU64(directory, n);
    PutU64(directory, raw.size());
    PutU64(directory, Hash64(compressed.data(), n));
    offset += n;
    std::vector<uint8_t>().swap(raw);
  }
  write(directory.data(), directory.size());
  std::vector<uint8_t> checked = header;
  checked.insert(checked.end(), directory.begin(), directory.end());
  std::vector<uint8_t> footer;
  PutU64(footer, offset);
  PutU64(footer, sections.size());
  PutU64(footer, Hash64(checked.data(), checked.size()));
  footer.insert(footer.end(), kEndMagic, kEndMagic + 8);
  write(footer.data(), footer.size());
  file.Commit();
}

namespace {

// Streaming (ReadStore with a sink): the string pool first (the sink reads
// names), then store by store, a chunk of entities at a time, each chunk
// handed to the sink and dropped. The column sections are read side by
// side, as they hold the stores one after the other. Memory: one chunk, and
// the user-field lists of the store under way (docs/streaming.md).
template <class Open>
void StreamEntities(Open& open, const std::vector<StoreSizes>& sizes, uint64_t n_strings, uint64_t n_string_bytes,
                    uint64_t n_containers, Trace& trace, EntitySink& sink, const std::string& path) {
  ReadStrings(open(kStringBytes), open(kStringLengths), n_strings, n_string_bytes, trace);
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
      sink.Completed(trace, EntityChunk::Of(trace, s, 0, len));
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

StoreStats Read(const std::string& path, Trace& trace, EntitySink* sink) {
  MappedFile file(path);
  std::string_view bytes = file.bytes();
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (!LooksLikeStore(bytes)) throw UserError(path + ": not a macroscope store");
  if (size < kHeaderSize) throw UserError(path + ": truncated store");
  uint32_t version = static_cast<uint32_t>(base[8]) | static_cast<uint32_t>(base[9]) << 8 |
                     static_cast<uint32_t>(base[10]) << 16 | static_cast<uint32_t>(base[11]) << 24;
  if (version > kStoreVersion)
    throw UserError(path + ": made by a newer macroscope (format version " + std::to_string(version) + " > " +
                    std::to_string(kStoreVersion) + "); upgrade macroscope or re-import the trace");
  if (version == 0) throw UserError(path + ": corrupt store (format version 0)");
  if (size < kHeaderSize + kFooterSize || std::memcmp(base + size - 8, kEndMagic, 8) != 0)
    throw UserError(path + ": truncated store (no footer; an interrupted write?)");
  const uint8_t* footer = base + size - kFooterSize;
  uint64_t dir_offset = GetU64(footer), count = GetU64(footer + 8), checksum = GetU64(footer + 16);
  if (count < kSectionCount || count > (1u << 20) || dir_offset < kHeaderSize ||
      dir_offset > size - kFooterSize || (size - kFooterSize - dir_offset) != count * kEntrySize)
    throw UserError(path + ": corrupt store (directory)");
  {
    std::vector<uint8_t> checked(base, base + kHeaderSize);
    checked.insert(checked.end(), base + dir_offset, base + dir_offset + count * kEntrySize);
    if (Hash64(checked.data(), checked.size()) != checksum && kVerifyChecksums)
      throw UserError(path + ": checksum mismatch in the store's header or directory (corrupt file)");
  }
  std::vector<Entry> entries(kSectionCount);
  for (size_t i = 0; i < kSectionCount; ++i) {
    const uint8_t* e = base + dir_offset + i * kEntrySize;
    entries[i] = {GetU64(e), GetU64(e + 8), GetU64(e + 16), GetU64(e + 24)};
    if (entries[i].offset < kHeaderSize || entries[i].offset > dir_offset ||
        entries[i].size > dir_offset - entries[i].offset || entries[i].raw > (uint64_t{1} << 40) ||
        entries[i].raw / kMaxZstdRatio > entries[i].size)
      throw UserError(path + ": corrupt store (directory)");
  }
  // Checks one section's bytes in the mapping.
  auto check = [&](uint32_t id) {
    const Entry& e = entries[id];
    // Its pages leave memory as they are hashed: the decoder reads them again.
    if (Hash64(base + e.offset, e.size, &file, e.offset) != e.hash && kVerifyChecksums)
      throw UserError(path + ": checksum mismatch in section '" + kSectionNames[id] + "' (corrupt file)");
  };
  // A checked section, to decode as it is decompressed.
  auto open = [&](uint32_t id) {
    check(id);
    const Entry& e = entries[id];
    return In(base + e.offset, e.size, e.raw, path, kSectionNames[id], &file, e.offset);
  };

  StoreStats stats;
  uint64_t n_strings, n_string_bytes, n_types, n_values, n_containers, n_stores;
  {
    In in = open(kMeta);
    stats.events = in.U();
    stats.bytes = in.U();
    double start = in.D(), end = in.D();
    trace.SetTimeSpan(start, end);
    n_strings = in.U();
    n_string_bytes = in.U();
    n_types = in.U();
    n_values = in.U();
    n_containers = in.U();
    n_stores = in.U();
    if (version >= 2) {
      TimeBase tb;
      tb.num = in.U();
      tb.den = in.U();
      tb.whole_ticks = in.U() != 0;
      tb.origin = in.S();
      const bool epoch = in.U() != 0;
      const int64_t epoch_ns = in.S();
      if (epoch) tb.epoch_ns = epoch_ns;
      if (tb.num == 0 || tb.den == 0) in.Fail();
      trace.SetTimeBase(tb);
    }
    if (n_strings < 2 || n_strings > UINT32_MAX || n_types < 1 || n_types > UINT32_MAX || n_containers < 1 ||
        n_containers > UINT32_MAX || n_stores > UINT32_MAX || n_values > UINT32_MAX)
      in.Fail();
    // Every element takes at least one byte of its section: bounds the sizes.
    if (n_types > entries[kTypes].raw || n_values > entries[kValues].raw ||
        n_containers > entries[kContainers].raw || n_stores > entries[kStores].raw ||
        n_strings - 1 > entries[kStringLengths].raw || n_string_bytes != entries[kStringBytes].raw)
      in.Fail();
  }
  {
    In in = open(kTypes);
    for (uint64_t i = 0; i < n_types; ++i) {
      Type t;
      t.name = in.Below(n_strings);
      t.alias = in.Below(n_strings);
      uint8_t kind = static_cast<uint8_t>(in.Below(5));
      t.kind = static_cast<TypeKind>(kind);
      t.parent = in.IdBelow(n_types);
      t.start_type = in.IdBelow(n_types);
      t.end_type = in.IdBelow(n_types);
      t.color = in.Below(n_strings);
      uint64_t children = in.Below(n_types + 1);
      for (uint64_t c = 0; c < children; ++c) t.children.push_back(in.Below(n_types));
      if (i == 0) trace.type(0) = std::move(t);
      else trace.AppendType(std::move(t));
    }
    in.ExpectDone();
  }
  {
    In in = open(kValues);
    for (uint64_t i = 0; i < n_values; ++i) {
      TypeId type = in.IdBelow(n_types);
      StringId name = in.Below(n_strings), alias = in.Below(n_strings), color = in.Below(n_strings);
      trace.AddValue(type, name, alias, color);
    }
    in.ExpectDone();
  }
  {
    In in = open(kContainers);
    for (uint64_t i = 0; i < n_containers; ++i) {
      Container c;
      c.name = in.Below(n_strings);
      c.alias = in.Below(n_strings);
      c.type = in.IdBelow(n_types);
      c.parent = in.IdBelow(n_containers);
      c.start = in.D();
      c.end = in.D();
      c.destroyed = in.Below(2) != 0;
      uint64_t children = in.Below(n_containers + 1);
      for (uint64_t k = 0; k < children; ++k) c.children.push_back(in.Below(n_containers));
      uint64_t stores = in.Below(n_stores + 1);
      for (uint64_t k = 0; k < stores; ++k) {
        TypeId t = in.Below(n_types);
        c.stores.emplace_back(t, in.Below(n_stores));
      }
      uint64_t extras = in.Below(entries[kContainers].raw + 1);
      for (uint64_t k = 0; k < extras; ++k) {
        StringId name = in.Below(n_strings);
        c.extras.push_back({name, in.Below(n_strings)});
      }
      if (i == 0) trace.container(0) = std::move(c);
      else trace.AppendContainer(std::move(c));
    }
    in.ExpectDone();
  }
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
        static constexpr Section kColumn[12] = {kStart, kEnd, kValue, kNumber, kLevelColumn, kKey, kPeerStart,
                                                kPeerEnd, kExtraFields, kExtraListBegin, kExtraAtStart, kExtraAtEnd};
        totals[c] += n;
        if (n > entries[kColumn[c]].raw || totals[c] > entries[kColumn[c]].raw) in.Fail();
        sizes[i].n[c] = n;
      }
      trace.AppendStore(std::move(s));
    }
    in.ExpectDone();
  }

  if (sink != nullptr) {
    StreamEntities(open, sizes, n_strings, n_string_bytes, n_containers, trace, *sink, path);
    return stats;
  }

  // The columns and the string pool, on two threads, largest first.
  std::vector<std::pair<uint64_t, std::function<void()>>> tasks;
  tasks.emplace_back(entries[kStringBytes].raw + entries[kStringLengths].raw, [&] {
    ReadStrings(open(kStringBytes), open(kStringLengths), n_strings, n_string_bytes, trace);
  });
  // Each column is allocated by the task that fills it (its page faults
  // land on that task's thread) and filled by push_back (no zeroing first).
  // `c` indexes StoreSizes.
  auto doubles = [&](Section id, std::vector<double> EntityStore::*member, int c) {
    tasks.emplace_back(entries[id].raw, [&, id, member, c] {
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
  auto ints = [&](Section id, auto member, uint64_t limit, int c) {
    tasks.emplace_back(entries[id].raw, [&, id, member, limit, c] {
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
  tasks.emplace_back(entries[kExtraFields].raw + entries[kExtraListBegin].raw + entries[kExtraAtStart].raw +
                         entries[kExtraAtEnd].raw,
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
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(tasks.size());
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < tasks.size();) {
      try {
        tasks[i].second();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  if (kHelperThread) {
    std::jthread helper(work);
    work();
  } else {
    work();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  for (const EntityStore& s : trace.stores()) CheckStore(trace, s, n_containers, path);
  return stats;
}

}  // namespace

StoreStats ReadStore(const std::string& path, Trace& trace, EntitySink* sink) {
  try {
    return Read(path, trace, sink);
  } catch (const std::bad_alloc&) {
    // Counts are checked against the section sizes, and those against the
    // file's size (kMaxZstdRatio), not against this machine's memory.
    throw UserError(path + ": the store does not fit in memory (or its sizes are corrupt)");
  } catch (const std::length_error&) {
    throw UserError(path + ": the store does not fit in memory (or its sizes are corrupt)");
  }
}

}  // namespace macroscope::store
