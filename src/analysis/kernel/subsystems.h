// Kernel subsystems: every event classed by its tracepoint's prefix (the
// seed's table, ../shared/spec/management.md, plus a class of its own for
// system calls), and the time spent in interrupt and syscall states, overall
// and per process. One tally serves `macroscope kernel subsystems` and the
// workflow module kernel-subsystems (docs/kernel.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

enum class Subsystem : uint8_t { kProcessor, kMemory, kSystem, kGraphics, kDisk, kNetwork, kSyscall, kOther };
inline constexpr size_t kSubsystemCount = 8;

// "processor", "memory", "system", "graphics", "disk", "network",
// "syscall", "other".
std::string_view SubsystemName(Subsystem s);

// The class of an event name. A provider or perf subsystem before the last
// ':' is dropped first ("sched:sched_switch" is "sched_switch";
// "lttng_ust_libc:malloc" is "malloc", hence other).
Subsystem SubsystemOfEvent(std::string_view event_name);

// The class of a state value the CTF reader makes (docs/ctf.md): "irq:…"
// and "softirq:…" (the CPU's Interrupt stack) are processor time,
// "syscall:…" (a thread's or CPU's Syscall stack) syscall time; others
// have no class.
std::optional<Subsystem> SubsystemOfState(std::string_view state_value);

struct SubsystemFigures {
  uint64_t events = 0;  // punctual events of the class
  uint64_t states = 0;  // states of the class (each counted once)
  int64_t time_ns = 0;  // time in the class's outermost states (nested ones are inside)
};

struct SubsystemRow {
  std::string owner;       // "" for the overall rows
  std::string owner_type;  // "all", or the owner's container type: "Process", "CPU", "Stream", ...
  Subsystem subsystem = Subsystem::kOther;
  SubsystemFigures figures;
};

class SubsystemTally {
 public:
  // Every chunk of one trace, in any order. Events count by their value
  // (the event's name); states of a class add their count and, at nesting
  // level 0, their duration; other entities are ignored. Reads only
  // `trace`'s strings (it may still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is read (its containers complete): first one overall row
  // per class (all eight, in the order above), then per owner (owners by
  // type then name) the classes it has. An entity's owner is the nearest
  // Process container at or above its container (a thread's process), else
  // its own container (a CPU, a stream).
  std::vector<SubsystemRow> Rows(const Trace& trace) const;
  // The table `kernel subsystems` prints and the module sends: Rows(),
  // columns owner ("" overall), owner_type, subsystem, events, states,
  // time_ns. With `overall_events` (a tally of another reading of the same
  // trace: its events raw), the overall rows' events are its.
  Table ToTable(const Trace& trace, const SubsystemTally* overall_events = nullptr) const;

 private:
  struct Sums {
    uint64_t events = 0, states = 0;
    double ticks = 0;  // whole ticks are exact in a double below 2^53
  };
  static constexpr uint8_t kUnknown = 0xFF, kNoClass = 0xFE;
  uint8_t ClassOf(std::vector<uint8_t>& cache, StringId id, const Trace& trace, bool state);
  // Events per class, all containers together.
  std::array<uint64_t, kSubsystemCount> EventsPerClass() const;

  std::vector<uint8_t> event_classes_, state_classes_;  // by StringId
  std::unordered_map<ContainerId, std::array<Sums, kSubsystemCount>> per_container_;
};

}  // namespace macroscope::analysis::kernel
