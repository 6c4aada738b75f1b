#include "store/store_bytes.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <span>

namespace macroscope::store {

uint64_t Hash64(const uint8_t* p, size_t n, const MappedFile* file, size_t offset) {
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

std::string_view In::Bytes(uint64_t n, std::string& spill) {
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

void In::ExpectDone() {
  Refill();
  if (p_ != end_ || !finished_ || produced_ != raw_ || input_.pos != input_.size) Fail();
}

void In::Refill() {
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

void WriteDoubles(Out& out, const std::vector<std::span<const double>>& runs) {
  int decimals = 0;
  bool decimal = true;
  for (std::span<const double> run : runs) {
    for (double d : run) {
      int64_t k = 0;
      while (decimal && !Decimal(d, decimals, k)) {
        if (++decimals > kMaxDecimals) decimal = false;
      }
      if (!decimal) break;
    }
    if (!decimal) break;
  }
  out.bytes.push_back(static_cast<uint8_t>(decimal ? 1 + decimals : 0));
  for (std::span<const double> run : runs) {
    int64_t prev = 0;
    for (double d : run) {
      int64_t k = 0;
      if (decimal) Decimal(d, decimals, k);
      else k = static_cast<int64_t>(std::bit_cast<uint64_t>(d));
      out.S(static_cast<int64_t>(static_cast<uint64_t>(k) - static_cast<uint64_t>(prev)));
      prev = k;
    }
  }
}

void RunTasks(size_t n, const std::function<void(size_t)>& task) {
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(n);
  auto work = [&] {
    for (size_t t; (t = next.fetch_add(1)) < n;) {
      try {
        task(t);
      } catch (...) {
        errors[t] = std::current_exception();
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
}

}  // namespace macroscope::store
