#include "analysis/kernel/memory_tracker.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace macroscope::analysis::kernel {

namespace {

constexpr std::string_view kProvider = "lttng_ust_libc:";

constexpr std::array<std::pair<std::string_view, LibcCall>, 6> kCalls = {{
    {"malloc", LibcCall::kMalloc},
    {"calloc", LibcCall::kCalloc},
    {"realloc", LibcCall::kRealloc},
    {"free", LibcCall::kFree},
    {"memalign", LibcCall::kMemalign},
    {"posix_memalign", LibcCall::kPosixMemalign},
}};

// "123" or "0x7F3A..." (babeltrace2 prints pointers in hexadecimal); 0 for
// anything else, which no allocation returns.
uint64_t Number(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return error == std::errc() && end == text.data() + text.size() ? value : 0;
}

}  // namespace

std::optional<LibcCall> LibcCallOf(std::string_view event_name) {
  if (event_name.substr(0, kProvider.size()) != kProvider) return std::nullopt;
  event_name.remove_prefix(kProvider.size());
  for (auto [name, call] : kCalls)
    if (name == event_name) return call;
  return std::nullopt;
}

std::optional<LibcEvent> ParseLibcEvent(std::string_view event_name,
                                        const std::function<std::string_view(std::string_view)>& field) {
  std::optional<LibcCall> call = LibcCallOf(event_name);
  if (!call) return std::nullopt;
  LibcEvent e;
  e.call = *call;
  std::string_view vpid = field("vpid");
  if (!vpid.empty()) e.pid = static_cast<int64_t>(Number(vpid));
  e.process_name = field("procname");
  switch (*call) {
    case LibcCall::kFree:
      e.in_ptr = Number(field("ptr"));
      break;
    case LibcCall::kRealloc:
      e.in_ptr = Number(field("in_ptr"));
      e.size = Number(field("size"));
      e.out_ptr = Number(field("ptr"));
      break;
    case LibcCall::kCalloc:
      e.size = Number(field("nmemb")) * Number(field("size"));
      e.out_ptr = Number(field("ptr"));
      break;
    case LibcCall::kPosixMemalign:
      e.size = Number(field("size"));
      if (Number(field("result")) == 0) e.out_ptr = Number(field("out_ptr"));
      break;
    case LibcCall::kMalloc:
    case LibcCall::kMemalign:
      e.size = Number(field("size"));
      e.out_ptr = Number(field("ptr"));
      break;
  }
  return e;
}

void MemoryTracker::Add(Process& p, int64_t delta) {
  for (MemoryFigures* f : {&p.figures, &global_}) {
    f->bytes += delta;
    if (f->bytes > f->peak_bytes) {
      f->peak_bytes = f->bytes;
      f->peak_time_ns = now_ns_;
    }
  }
}

void MemoryTracker::Allocate(Process& p, uint64_t ptr, uint64_t size) {
  auto [it, inserted] = p.blocks.try_emplace(ptr, size);
  int64_t delta = static_cast<int64_t>(size);
  if (!inserted) {  // the block's free was not recorded: the new one replaces it
    delta -= static_cast<int64_t>(it->second);
    it->second = size;
  }
  Add(p, delta);
}

bool MemoryTracker::Release(Process& p, uint64_t ptr) {
  auto it = p.blocks.find(ptr);
  if (it == p.blocks.end()) return false;
  int64_t size = static_cast<int64_t>(it->second);
  p.blocks.erase(it);
  Add(p, -size);
  return true;
}

std::optional<int64_t> MemoryTracker::Apply(const LibcEvent& e) {
  now_ns_ = e.time_ns;
  Process& p = processes_[e.pid];
  p.figures.pid = e.pid;
  if (!e.process_name.empty() && e.process_name != p.figures.name) p.figures.name = e.process_name;
  const int64_t before = p.figures.bytes;
  // Counts go to the process and to the global figures alike.
  auto count = [&](uint64_t MemoryFigures::*counter) {
    ++(p.figures.*counter);
    ++(global_.*counter);
  };
  auto release = [&](uint64_t ptr) {
    if (!Release(p, ptr)) count(&MemoryFigures::unknown_frees);
  };
  if (e.call == LibcCall::kFree) {
    if (e.in_ptr == 0) {
      count(&MemoryFigures::free_null);
    } else {
      count(&MemoryFigures::frees);
      release(e.in_ptr);
    }
  } else if (e.call == LibcCall::kRealloc && e.in_ptr != 0) {
    if (e.out_ptr != 0) {
      count(&MemoryFigures::reallocs);
      if (e.out_ptr != e.in_ptr) count(&MemoryFigures::moves);
      release(e.in_ptr);
      Allocate(p, e.out_ptr, e.size);
    } else if (e.size == 0) {  // realloc(p, 0) freed p
      count(&MemoryFigures::frees);
      release(e.in_ptr);
    }  // else it failed: p is unchanged
  } else if (e.out_ptr != 0) {  // malloc, calloc, memalign, posix_memalign, realloc(NULL, n)
    count(&MemoryFigures::allocations);
    Allocate(p, e.out_ptr, e.size);
  }
  if (p.figures.bytes == before) return std::nullopt;
  return p.figures.bytes;
}

void MemoryTracker::ApplyAll(std::vector<LibcEvent>& events,
                             const std::function<void(int64_t, int64_t, int64_t)>& changed) {
  std::stable_sort(events.begin(), events.end(),
                   [](const LibcEvent& a, const LibcEvent& b) { return a.time_ns < b.time_ns; });
  for (const LibcEvent& e : events) {
    std::optional<int64_t> bytes = Apply(e);
    if (bytes && changed) changed(e.time_ns, e.pid, *bytes);
  }
}

std::vector<MemoryFigures> MemoryTracker::Processes() const {
  std::vector<MemoryFigures> out;
  out.reserve(processes_.size());
  for (const auto& [pid, p] : processes_) out.push_back(p.figures);
  std::sort(out.begin(), out.end(), [](const MemoryFigures& a, const MemoryFigures& b) { return a.pid < b.pid; });
  return out;
}

}  // namespace macroscope::analysis::kernel
