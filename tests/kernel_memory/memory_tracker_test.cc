// The memory tracker's rules (memory_tracker.h) on events written here:
// what a real program cannot be made to do on purpose (a free the trace
// lost, failed calls, events without vpid, streams out of order). The
// recorded program (memory_recorded_test.cc) covers the rest.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis/kernel/memory_tracker.h"

namespace macroscope::analysis::kernel {
namespace {

LibcEvent Event(int64_t time, LibcCall call, uint64_t in_ptr, uint64_t out_ptr, uint64_t size, int64_t pid = 7) {
  LibcEvent e;
  e.time_ns = time;
  e.pid = pid;
  e.process_name = "p";
  e.call = call;
  e.in_ptr = in_ptr;
  e.out_ptr = out_ptr;
  e.size = size;
  return e;
}

TEST(MemoryTracker, ParsesTheWrappersFieldsAsBabeltrace2PrintsThem) {
  std::map<std::string, std::string> fields = {
      {"vpid", "42"}, {"procname", "app"}, {"nmemb", "10"}, {"size", "32"}, {"ptr", "0x55CE1606A190"}};
  auto field = [&](std::string_view name) -> std::string_view {
    auto it = fields.find(std::string(name));
    return it == fields.end() ? std::string_view() : std::string_view(it->second);
  };
  std::optional<LibcEvent> e = ParseLibcEvent("lttng_ust_libc:calloc", field);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->call, LibcCall::kCalloc);
  EXPECT_EQ(e->pid, 42);
  EXPECT_EQ(e->process_name, "app");
  EXPECT_EQ(e->size, 320u);
  EXPECT_EQ(e->out_ptr, 0x55CE1606A190u);
  fields = {{"out_ptr", "0x1000"}, {"alignment", "64"}, {"size", "384"}, {"result", "12"}};
  e = ParseLibcEvent("lttng_ust_libc:posix_memalign", field);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->out_ptr, 0u) << "a failed posix_memalign returns no block";
  EXPECT_EQ(e->pid, -1);
  EXPECT_FALSE(ParseLibcEvent("lttng_ust_libc:mallocx", field));
  EXPECT_FALSE(ParseLibcEvent("lttng_ust_tracef:event", field));
}

TEST(MemoryTracker, FailedCallsChangeNothing) {
  MemoryTracker t;
  EXPECT_FALSE(t.Apply(Event(1, LibcCall::kMalloc, 0, 0, 100)));
  EXPECT_EQ(t.Apply(Event(2, LibcCall::kMalloc, 0, 0x10, 100)), 100);
  // realloc(p, n) returning NULL leaves p allocated.
  EXPECT_FALSE(t.Apply(Event(3, LibcCall::kRealloc, 0x10, 0, 1 << 30)));
  EXPECT_FALSE(t.Apply(Event(4, LibcCall::kRealloc, 0, 0, 50)));
  const MemoryFigures f = t.Processes().at(0);
  EXPECT_EQ(f.allocations, 1u);
  EXPECT_EQ(f.reallocs, 0u);
  EXPECT_EQ(f.bytes, 100);
}

TEST(MemoryTracker, UnknownPointersAndLostFrees) {
  MemoryTracker t;
  // A block from before the trace: its free and its realloc are unknown.
  EXPECT_FALSE(t.Apply(Event(1, LibcCall::kFree, 0x99, 0, 0)));
  EXPECT_EQ(t.Apply(Event(2, LibcCall::kRealloc, 0x98, 0x20, 64)), 64);
  // A block whose free was lost: the address comes back, the new size replaces the old.
  EXPECT_EQ(t.Apply(Event(3, LibcCall::kMalloc, 0, 0x30, 10)), 74);
  EXPECT_EQ(t.Apply(Event(4, LibcCall::kMalloc, 0, 0x30, 30)), 94);
  const MemoryFigures f = t.Processes().at(0);
  EXPECT_EQ(f.unknown_frees, 2u);
  EXPECT_EQ(f.frees, 1u);
  EXPECT_EQ(f.reallocs, 1u);
  EXPECT_EQ(f.moves, 1u);
  EXPECT_EQ(f.allocations, 2u);
  EXPECT_EQ(f.peak_bytes, 94);
  EXPECT_EQ(f.peak_time_ns, 4);
}

TEST(MemoryTracker, ProcessesKeepTheirOwnPointersAndTheGlobalPeakIsOfTheSum) {
  MemoryTracker t;
  t.Apply(Event(1, LibcCall::kMalloc, 0, 0x10, 100, 1));
  t.Apply(Event(2, LibcCall::kMalloc, 0, 0x10, 300, 2));  // the same address in another process
  t.Apply(Event(3, LibcCall::kFree, 0x10, 0, 0, 1));
  t.Apply(Event(4, LibcCall::kMalloc, 0, 0x40, 5, -1));  // no vpid context
  std::vector<MemoryFigures> p = t.Processes();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].pid, -1);
  EXPECT_EQ(p[1].bytes, 0);
  EXPECT_EQ(p[1].peak_bytes, 100);
  EXPECT_EQ(p[2].bytes, 300);
  EXPECT_EQ(t.Global().peak_bytes, 400);
  EXPECT_EQ(t.Global().peak_time_ns, 2);
  EXPECT_EQ(t.Global().bytes, 305);
  EXPECT_EQ(t.Global().allocations, 3u);
}

TEST(MemoryTracker, ApplyAllOrdersStreamsByTime) {
  // Two CPUs' streams handed over one after the other: the free (CPU 1)
  // before the malloc (CPU 0) it releases.
  std::vector<LibcEvent> events = {Event(5, LibcCall::kFree, 0x10, 0, 0), Event(1, LibcCall::kMalloc, 0, 0x10, 8),
                                   Event(9, LibcCall::kFree, 0, 0, 0)};
  MemoryTracker t;
  std::vector<std::pair<int64_t, int64_t>> changes;
  t.ApplyAll(events, [&](int64_t time, int64_t, int64_t bytes) { changes.emplace_back(time, bytes); });
  EXPECT_EQ(changes, (std::vector<std::pair<int64_t, int64_t>>{{1, 8}, {5, 0}}));
  EXPECT_EQ(t.Global().unknown_frees, 0u);
  EXPECT_EQ(t.Global().free_null, 1u);
}

}  // namespace
}  // namespace macroscope::analysis::kernel
