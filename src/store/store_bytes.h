// The store's bytes (docs/store.md), shared by its writer and its readers:
// the file's framing constants, the checksum, varint output (Out), and
// varint input decompressed as it is decoded (In). Internal to src/store.
#pragma once

#include <zstd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/trace.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::store {

inline constexpr char kMagic[8] = {'\x89', 'M', 'S', 'T', 'O', 'R', 'E', '\n'};
inline constexpr char kEndMagic[8] = {'M', 'S', 'T', 'O', 'R', 'E', 'N', 'D'};
inline constexpr size_t kHeaderSize = 16;  // magic, u32 version, u32 flags
inline constexpr size_t kEntrySize = 32;   // u64 offset, compressed size, raw size, hash
inline constexpr size_t kFooterSize = 32;  // u64 directory offset, count, checksum, end magic
inline constexpr int kLevel = 3;
// Fuzz builds skip the checksums so that mutated inputs reach the decoders.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr bool kVerifyChecksums = false;
#else
inline constexpr bool kVerifyChecksums = true;
#endif
// zstd's best ratio: a 128 KiB RLE block takes 4 bytes. A frame that
// claims more raw bytes than that lies, and must size no allocation.
inline constexpr uint64_t kMaxZstdRatio = 32768;
// A column's count is checked against its section's raw size only: most of
// it is reserved up front (the pages are touched as values arrive), and a
// lie that costs no memory here would still exceed a fuzzer's malloc limit,
// so fuzz builds reserve less and grow.
// For the same reason, fuzz builds refuse stores that claim more entities
// than a fuzzer's input can hold.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr uint64_t kMaxReserve = uint64_t{1} << 16;
inline constexpr uint64_t kMaxEntities = uint64_t{1} << 22;
#else
inline constexpr uint64_t kMaxReserve = UINT64_MAX;
inline constexpr uint64_t kMaxEntities = UINT64_MAX;
#endif
// The most decompressed bytes a frame of chunks may claim (fuzz builds:
// what their malloc limit allows).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr uint64_t kMaxFrameRaw = uint64_t{1} << 24;
#else
inline constexpr uint64_t kMaxFrameRaw = uint64_t{1} << 36;
#endif
// Fuzz builds decode on one thread: the threads' timing would change what
// the fuzzer sees from run to run (fuzz/run's check mode must give the same
// result for the same commit).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr bool kHelperThread = false;
#else
inline constexpr bool kHelperThread = true;
#endif

// A fast 64-bit hash of bytes, a word at a time (each step is a bijection of
// the state, so any change of one word changes the result). Given the mapped
// store and where `p` lies in it, the pages leave memory as they are hashed,
// 8 MiB at a time (the decoder reads them again as it goes).
uint64_t Hash64(const uint8_t* p, size_t n, const MappedFile* file = nullptr, size_t offset = 0);

// The format version in a store's first 12 bytes (after the magic).
inline uint32_t VersionOf(const uint8_t* head) {
  return static_cast<uint32_t>(head[8]) | static_cast<uint32_t>(head[9]) << 8 | static_cast<uint32_t>(head[10]) << 16 |
         static_cast<uint32_t>(head[11]) << 24;
}

inline void PutU64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Varints out (LEB128; signed ones zigzag).
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

inline constexpr double kPow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
inline constexpr int kMaxDecimals = 9;

// True when d == k / 10^decimals bit for bit, for an integer k (set).
inline bool Decimal(double d, int decimals, int64_t& k) {
  double scaled = d * kPow10[decimals];
  if (!(std::fabs(scaled) < 9007199254740992.0)) return false;  // also NaN
  k = std::llround(scaled);
  return std::bit_cast<uint64_t>(static_cast<double>(k) / kPow10[decimals]) == std::bit_cast<uint64_t>(d);
}

// Varints in, from one zstd frame decompressed in small blocks while it is
// decoded: no whole decompressed copy is ever held (it would cost as much
// memory, and page faults, as a good part of the trace). Any inconsistency
// throws UserError "PATH: corrupt store (WHAT)".
class In {
  static constexpr size_t kBlock = 1 << 17;

 public:
  // `file` and `offset`: where `data` lies in the mapped store, so that the
  // compressed bytes already decoded leave memory as decoding goes (a
  // streaming read's memory stays flat whatever the store's size).
  In(const uint8_t* data, size_t size, uint64_t raw, const std::string& path, std::string what,
     const MappedFile* file = nullptr, size_t offset = 0)
      : dctx_(ZSTD_createDCtx(), ZSTD_freeDCtx),
        input_{data, size, 0},
        raw_(raw),
        path_(path),
        what_(std::move(what)),
        file_(file),
        offset_(offset) {
    if (!dctx_) throw std::runtime_error("zstd: out of memory");
    if (ZSTD_getFrameContentSize(data, size) != raw) Fail();
    buffer_ = std::make_unique_for_overwrite<uint8_t[]>(kBlock);
    p_ = end_ = buffer_.get();
    Refill();
  }
  // Bytes already decompressed (a chunk of a frame read whole).
  In(std::span<const uint8_t> bytes, const std::string& path, std::string what)
      : dctx_(nullptr, ZSTD_freeDCtx),
        input_{nullptr, 0, 0},
        p_(bytes.data()),
        end_(bytes.data() + bytes.size()),
        raw_(bytes.size()),
        produced_(bytes.size()),
        finished_(true),
        path_(path),
        what_(std::move(what)),
        file_(nullptr),
        offset_(0) {}
  [[noreturn]] void Fail() const { throw UserError(path_ + ": corrupt store (" + what_ + ")"); }
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
  // Bytes not read yet, of bytes given whole.
  size_t Left() const { return static_cast<size_t>(end_ - p_); }
  // The next n bytes: a view of the buffer when they fit in it, else
  // gathered in `spill` (never sized by n itself: n comes from the file).
  std::string_view Bytes(uint64_t n, std::string& spill);
  void ExpectDone();

 private:
  // Moves the unread tail to the front and decompresses behind it.
  void Refill();

  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx_;
  ZSTD_inBuffer input_;
  std::unique_ptr<uint8_t[]> buffer_;  // the decompressed block (none for bytes given whole)
  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t raw_;
  uint64_t produced_ = 0;
  bool finished_ = false;
  const std::string& path_;
  std::string what_;
  static constexpr size_t kReleaseStep = size_t{8} << 20;
  const MappedFile* file_;
  size_t offset_;
  size_t released_ = 0;
};

// A double column as the store codes it: a mode byte (0: the 64-bit
// patterns; 1 + d: integers k with value = k / 10^d), then each value as
// the zigzag varint of its difference (wrapping) from the previous one of
// the same run (0 first). Reads from an In it does not own.
class DoubleReader {
 public:
  explicit DoubleReader(In& in) : in_(in) {
    mode_ = in_.Byte();
    if (mode_ > 1 + kMaxDecimals) in_.Fail();
    scale_ = mode_ == 0 ? 1 : kPow10[mode_ - 1];
  }
  // A new run starts: deltas restart from 0.
  void Restart() { prev_ = 0; }
  // Appends the next `n` values to `column`.
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

 private:
  In& in_;
  uint8_t mode_ = 0;
  double scale_ = 1;
  uint64_t prev_ = 0;
};

// The writing side: the smallest mode that round-trips every value of
// `runs` (each a span of doubles), then each run's delta chain.
void WriteDoubles(Out& out, const std::vector<std::span<const double>>& runs);

// Runs task(0 … n-1) on two threads (one in fuzz builds), each task
// taken by the next free thread; rethrows the first error by task number.
void RunTasks(size_t n, const std::function<void(size_t)>& task);

// Appends `n` ids below `limit` to `column`.
template <class Value>
void ReadIds(In& in, uint64_t n, uint64_t limit, std::vector<Value>& column) {
  for (uint64_t k = 0; k < n; ++k) column.push_back(static_cast<Value>(in.Below(limit)));
}

}  // namespace macroscope::store
