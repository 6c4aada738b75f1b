// Small kernel event sequences mapped as the CTF reader maps a kernel
// trace (formats/ctf/event_mapper.h), for the synthetic tests of the
// kernel analyses: events with their fields, a sched_switch and a fork.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/kernel/cpu_table.h"
#include "analysis/kernel/process_table.h"
#include "formats/ctf/event_mapper.h"
#include "formats/paje/simulator.h"
#include "model/entity_chunk.h"

namespace macroscope::kernel::testing {

// One kernel event at `time` on `cpu`: name and integer or text fields.
struct Ev {
  double time;
  int64_t cpu;
  std::string name;
  std::vector<std::pair<std::string, std::string>> fields;  // integers are written as digits
};

class Kernel {
 public:
  // `tracer`: the trace's tracer_name ("perf", "trace-cmd": tracepoint names).
  explicit Kernel(std::string tracer = "") {
    info_.domain = "kernel";
    info_.tracer_name = std::move(tracer);
  }

  // Maps the events in order and ends the trace at the last one's time.
  void Read(const std::vector<Ev>& events) {
    paje::Simulator sim(trace_, {});
    ctf::EventMapper mapper(trace_, sim);
    for (const Ev& ev : events) {
      ctf::CtfEvent e;
      e.trace = &info_;
      e.name = ev.name;
      e.cpu_id = ev.cpu;
      for (const auto& [name, text] : ev.fields) {
        ctf::CtfField f{name, text, std::nullopt};
        if (!text.empty() && (isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-')) f.integer = std::stoll(text);
        e.fields.push_back(std::move(f));
      }
      mapper.Map(e, ev.time);
    }
    mapper.Finish(events.back().time);
    // Times here are given as model times; the CTF reader's base is ns
    // (its event clock sets it), which the table converts from.
    trace_.SetTimeBase({.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt});
  }

  // The table over the in-memory model's stores, one chunk each, as a
  // sink would hand them.
  analysis::kernel::ProcessTableRows Rows(std::optional<int64_t> subtree = std::nullopt) {
    analysis::kernel::ProcessTable table;
    for (const EntityStore& s : trace_.stores()) table.Add(trace_, EntityChunk::Of(trace_, s));
    return table.Rows(trace_, subtree);
  }

  // The CPUs' accumulator, likewise, and its rows.
  analysis::kernel::CpuTable Cpus() {
    analysis::kernel::CpuTable table;
    for (const EntityStore& s : trace_.stores()) table.Add(trace_, EntityChunk::Of(trace_, s));
    return table;
  }
  std::vector<analysis::kernel::CpuRow> CpuRows() { return Cpus().Rows(trace_); }

  Trace& trace() { return trace_; }

 private:
  ctf::CtfTraceInfo info_;
  Trace trace_;
};

inline Ev Switch(double time, int64_t cpu, int64_t prev, const std::string& prev_comm, int64_t prev_state, int64_t next,
          const std::string& next_comm, std::vector<std::pair<std::string, std::string>> extra = {}) {
  Ev e{time, cpu, "sched_switch",
       {{"prev_comm", prev_comm},
        {"prev_tid", std::to_string(prev)},
        {"prev_state", std::to_string(prev_state)},
        {"next_comm", next_comm},
        {"next_tid", std::to_string(next)}}};
  e.fields.insert(e.fields.end(), extra.begin(), extra.end());
  return e;
}

inline Ev Fork(double time, int64_t cpu, int64_t parent, const std::string& comm, int64_t child_tid, int64_t child_pid) {
  return {time, cpu, "sched_process_fork",
          {{"parent_comm", comm},
           {"parent_tid", std::to_string(parent)},
           {"parent_pid", std::to_string(parent)},
           {"child_comm", comm},
           {"child_tid", std::to_string(child_tid)},
           {"child_pid", std::to_string(child_pid)}}};
}

}  // namespace macroscope::kernel::testing
