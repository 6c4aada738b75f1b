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
#include <map>
#include <memory>
#include <string>
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

  void Map(const CtfEvent& event);
  // Ends the simulation at the last event, sets the trace's time span and
  // gives each trace's root container its event counts as user fields.
  void Finish();

  uint64_t events() const { return events_; }
  uint64_t unmatched_exits() const { return unmatched_exits_; }
  const std::map<std::string, uint64_t, std::less<>>& per_name() const { return per_name_; }

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
  uint64_t events_ = 0;
  uint64_t unmatched_exits_ = 0;
  std::map<std::string, uint64_t, std::less<>> per_name_;
  // Model times are ns from the first timed event (time_base.h).
  TimeBase base_{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  double last_time_ = 0;
  bool any_time_ = false;
};

}  // namespace macroscope::ctf
