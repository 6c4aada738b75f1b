// Memory in use per process from LTTng-UST's libc wrapper
// (liblttng-ust-libc-wrapper.so: lttng_ust_libc:malloc, calloc, realloc,
// free, memalign, posix_memalign): a pointer -> size map per process, so
// that a free knows how many bytes it releases. One tracker serves
// `macroscope kernel memory` and the workflow module kernel-memory (through
// MemoryTable, memory_table.h) and the CTF reader's Memory variable
// (docs/kernel.md).
//
// Rules (what the C library does, as the wrapper records it):
// - malloc, calloc (nmemb * size), memalign, posix_memalign (result 0,
//   out_ptr) and realloc(NULL, n) allocate; a NULL result allocates nothing.
// - free(p) and realloc(p, 0) returning NULL release p; free(NULL) only
//   counts in free_null. Releasing a pointer the map does not hold (its
//   allocation came before the trace, or from an allocator the wrapper does
//   not see, such as aligned_alloc) counts in unknown_frees and changes no
//   byte count.
// - realloc(p, n) returning q resizes: p's bytes leave, n bytes arrive at
//   q (moves when q != p). A NULL result leaves p as it was. A p the map
//   does not hold counts in unknown_frees, and q's n bytes arrive.
// - An allocation at an address the map already holds (its free was not
//   recorded) replaces the old block.
// Pointers are per process (vpid context); events without vpid share the
// process -1.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace macroscope::analysis::kernel {

enum class LibcCall : uint8_t { kMalloc, kCalloc, kRealloc, kFree, kMemalign, kPosixMemalign };

// One lttng_ust_libc event, its fields as numbers.
struct LibcEvent {
  int64_t time_ns = 0;
  int64_t pid = -1;          // vpid context; -1 when the event has none
  std::string process_name;  // procname context (may be empty)
  LibcCall call = LibcCall::kMalloc;
  uint64_t in_ptr = 0;  // free: ptr; realloc: in_ptr
  uint64_t out_ptr = 0; // the block returned (ptr; posix_memalign: out_ptr when result is 0); 0: none
  uint64_t size = 0;    // bytes asked (calloc: nmemb * size)
};

// The libc call an event name names ("lttng_ust_libc:malloc" ...), or none.
std::optional<LibcCall> LibcCallOf(std::string_view event_name);

// The event `event_name` with its fields, when it is an lttng_ust_libc
// event. `field(name)` gives the text of the field `name` (decimal or
// 0x-prefixed hexadecimal, as babeltrace2 prints it), empty when absent.
// time_ns is left 0 for the caller.
std::optional<LibcEvent> ParseLibcEvent(std::string_view event_name,
                                        const std::function<std::string_view(std::string_view)>& field);

// The figures of one process, or of all (pid -1 and name "" in Global()).
struct MemoryFigures {
  int64_t pid = -1;
  std::string name;  // the last procname seen
  uint64_t allocations = 0;
  uint64_t frees = 0;     // releases of a non-NULL pointer (free, realloc(p, 0))
  uint64_t reallocs = 0;  // resizes (realloc(p, n) with p and the result non-NULL)
  uint64_t moves = 0;     // those whose block moved
  uint64_t free_null = 0;
  uint64_t unknown_frees = 0;
  int64_t bytes = 0;  // in use now (at the end: the final bytes)
  int64_t peak_bytes = 0;
  int64_t peak_time_ns = 0;  // when the peak was first reached
};

class MemoryTracker {
 public:
  // Applies one event; events come in time order. Returns the bytes its
  // process has in use after it when they changed.
  std::optional<int64_t> Apply(const LibcEvent& e);

  // Applies `events` in time order (stably sorted first: readers that hand
  // events over stream by stream give them out of order). `changed(time_ns,
  // pid, bytes)` is told each change of a process's bytes in use.
  void ApplyAll(std::vector<LibcEvent>& events,
                const std::function<void(int64_t time_ns, int64_t pid, int64_t bytes)>& changed = {});

  // Every process seen, by pid.
  std::vector<MemoryFigures> Processes() const;
  // All processes together: counts summed, bytes in use of all of them at
  // each event, its peak.
  const MemoryFigures& Global() const { return global_; }

 private:
  struct Process {
    MemoryFigures figures;
    std::unordered_map<uint64_t, uint64_t> blocks;  // pointer -> bytes
  };
  void Allocate(Process& p, uint64_t ptr, uint64_t size);
  // Releases `ptr`; false when the map does not hold it.
  bool Release(Process& p, uint64_t ptr);
  void Add(Process& p, int64_t delta);

  std::unordered_map<int64_t, Process> processes_;
  MemoryFigures global_;
  int64_t now_ns_ = 0;
};

}  // namespace macroscope::analysis::kernel
