#include "analysis/kernel/memory_table.h"

#include "analysis/entity_selection.h"

namespace macroscope::analysis::kernel {

void MemoryTable::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.kind != TypeKind::kEvent || chunk.value.empty()) return;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const std::string_view name = trace.Str(chunk.value[i]);
    if (!LibcCallOf(name)) continue;  // most events: no field lookup
    std::optional<LibcEvent> e = ParseLibcEvent(name, [&](std::string_view field) {
      std::string_view text;
      bool found = false;
      chunk.ForEachField(i, [&](const ExtraField& f) {
        if (!found && trace.Str(f.name) == field) {
          text = trace.Str(f.value);
          found = true;
        }
      });
      return text;
    });
    events_.emplace_back(chunk.start[i], std::move(*e));
  }
}

Table MemoryTable::ToTable(const TimeBase& base, Table* series) {
  std::vector<LibcEvent> events;
  events.reserve(events_.size());
  for (auto& [ticks, e] : events_) {
    e.time_ns = Nanoseconds(base, ticks);
    events.push_back(std::move(e));
  }
  events_.clear();
  MemoryTracker tracker;
  if (series != nullptr) {
    *series = Table({"time_ns", "pid", "bytes"});
    tracker.ApplyAll(events, [&](int64_t time_ns, int64_t pid, int64_t bytes) {
      series->Put(time_ns);
      series->Put(pid);
      series->Put(bytes);
    });
  } else {
    tracker.ApplyAll(events);
  }
  Table table({"pid", "name", "allocations", "frees", "reallocs", "moves", "free_null", "unknown_frees",
               "peak_bytes", "peak_time_ns", "final_bytes"});
  auto put = [&](const MemoryFigures& f, bool all) {
    if (all) {
      table.PutEmpty();
      table.Put("(all)");
    } else {
      table.Put(f.pid);
      table.Put(f.name);
    }
    for (uint64_t count : {f.allocations, f.frees, f.reallocs, f.moves, f.free_null, f.unknown_frees})
      table.Put(count);
    table.Put(f.peak_bytes);
    table.Put(f.peak_time_ns);
    table.Put(f.bytes);
  };
  for (const MemoryFigures& f : tracker.Processes()) put(f, false);
  put(tracker.Global(), true);
  return table;
}

}  // namespace macroscope::analysis::kernel
