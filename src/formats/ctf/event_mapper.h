// Turns CTF events, in time order, into simulator calls: the container tree
// (trace > CPU, trace > process > thread, trace > stream), the states of
// kernel traces (CPU, thread, syscall, interrupt) and of cyg-profile
// function calls, and a punctual event for every other event. The rules are
// in docs/ctf.md; this is their one implementation.
//
// Tolerance: a trace may start inside a syscall, an interrupt or a function;
// their exits, having no entry, pop nothing and are counted in
// unmatched_exits() instead of failing. Errors from the simulator propagate
// (paje::SimulationError).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::ctf {

class EventMapper {
 public:
  EventMapper(Trace& trace, paje::Simulator& simulator);
  ~EventMapper();

  // `time`: the event's model time (event_clock.h).
  void Map(const CtfEvent& event, double time);
  // Ends the simulation at `last_time`, sets the trace's time span and
  // gives each trace's root container its event counts as user fields.
  void Finish(double last_time);

  uint64_t unmatched_exits() const { return unmatched_exits_; }

 private:
  struct TraceState;
  struct CpuState;
  struct ThreadState;
  struct Owner;  // the container a non-kernel event belongs to

  TraceState& StateOf(const CtfTraceInfo& info, double time);
  StringId Type(TypeKind kind, std::string_view parent, std::string_view name, std::string_view alias);
  CpuState& Cpu(TraceState& t, int64_t cpu, double time);
  ThreadState& Thread(TraceState& t, int64_t tid, std::optional<int64_t> pid, std::string_view comm,
                      double time);
  StringId Process(TraceState& t, const std::string& key, std::string_view name, double time);
  Owner UserOwner(TraceState& t, const CtfEvent& e, double time);

  void MapKernel(TraceState& t, const CtfEvent& e, std::string_view base, double time);
  void MapUser(TraceState& t, const CtfEvent& e, std::string_view base, double time);
  void Punctual(const CtfEvent& e, std::string_view parent_alias, StringId container, double time);
  void Push(StringId type, StringId container, std::string_view value, int& depth, double time);
  void Pop(StringId type, StringId container, int& depth, double time);
  const std::vector<ExtraField>& Extras(const CtfEvent& e);

  Trace& trace_;
  paje::Simulator& sim_;
  std::unordered_map<const CtfTraceInfo*, std::unique_ptr<TraceState>> traces_;
  std::vector<TraceState*> trace_order_;
  std::unordered_set<StringId> defined_types_;
  std::vector<ExtraField> extras_;
  uint64_t unmatched_exits_ = 0;
};

// The name of a trace's root container: its host, else its name, else
// "trace"; " #INDEX" added when `taken(name)` says another trace has it.
template <class Taken>
std::string TraceContainerName(const CtfTraceInfo& info, Taken taken) {
  std::string name = !info.hostname.empty() ? info.hostname : !info.name.empty() ? info.name : "trace";
  if (taken(name)) name += " #" + std::to_string(info.index);
  return name;
}

}  // namespace macroscope::ctf
