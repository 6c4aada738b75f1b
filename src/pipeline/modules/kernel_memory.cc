// kernel-memory: memory in use per process from LTTng-UST's libc wrapper
// events (analysis/kernel/memory_tracker.h, docs/kernel.md). The
// lttng_ust_libc events are kept as they come (a few numbers each) and
// applied in time order at the end of the stream: readers hand events over
// stream by stream, and one thread's malloc and free may lie on two CPUs'
// streams.
#include <span>

#include "analysis/entity_selection.h"
#include "analysis/kernel/memory_tracker.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

using analysis::kernel::LibcEvent;
using analysis::kernel::MemoryFigures;
using analysis::kernel::MemoryTracker;

class KernelMemory : public Module {
 public:
  explicit KernelMemory(const std::string& name) : Module(name) {
    in_ = &AddInput<EntityBatch>("in");
    rows_ = &AddOutput<RowBatch>("rows");
    series_ = &AddOutput<RowBatch>("series");
  }

  void Run() override {
    std::vector<LibcEvent> events;
    while (const EntityBatch* batch = in_->Next()) {
      const StringPool& strings = batch->trace->strings();
      for (const Entity& e : batch->entities) {
        if (e.kind != TypeKind::kEvent) continue;
        std::span<const ExtraField> fields(batch->fields.data() + e.fields_begin, e.fields_end - e.fields_begin);
        std::optional<LibcEvent> libc = analysis::kernel::ParseLibcEvent(batch->Str(e.value), fields, strings);
        if (!libc) continue;
        libc->time_ns = analysis::Nanoseconds(batch->base, e.start);
        events.push_back(std::move(*libc));
      }
    }
    MemoryTracker tracker;
    if (series_->linked()) {
      RowWriter series(*series_, {"time_ns", "pid", "bytes"});
      tracker.ApplyAll(events, [&](int64_t time_ns, int64_t pid, int64_t bytes) {
        series.Put(time_ns);
        series.Put(pid);
        series.Put(bytes);
        series.EndRow();
      });
      series.Finish();
    } else {
      tracker.ApplyAll(events);
    }
    RowWriter rows(*rows_, {"pid", "name", "allocations", "frees", "reallocs", "moves", "free_null", "unknown_frees",
                            "peak_bytes", "peak_time_ns", "final_bytes"});
    auto put = [&](const MemoryFigures& f, bool global) {
      if (global)
        rows.PutEmpty();
      else
        rows.Put(f.pid);
      rows.Put(global ? std::string_view("(all)") : std::string_view(f.name));
      for (uint64_t count : {f.allocations, f.frees, f.reallocs, f.moves, f.free_null, f.unknown_frees})
        rows.Put(static_cast<int64_t>(count));
      rows.Put(f.peak_bytes);
      rows.Put(f.peak_time_ns);
      rows.Put(f.bytes);
      rows.EndRow();
    };
    for (const MemoryFigures& f : tracker.Processes()) put(f, false);
    put(tracker.Global(), true);
    rows.Finish();
  }

 private:
  Input<EntityBatch>* in_;
  Output<RowBatch>* rows_;
  Output<RowBatch>* series_;
};

}  // namespace

ModuleInfo KernelMemoryModule() {
  return {
      .kind = "kernel-memory",
      .description = "Memory in use per process from LTTng-UST's libc wrapper events (lttng_ust_libc:malloc, calloc, "
                     "realloc, free, memalign, posix_memalign): allocations, frees, peak and final bytes",
      .params = {},
      .inputs = {{"in", "entities", "a trace's entities (read, with or without events: true)"}},
      .outputs = {{"rows", "rows",
                   "one row per process (pid, name, allocations, frees, reallocs, moves, free_null, unknown_frees, "
                   "peak_bytes, peak_time_ns, final_bytes), then all processes together (pid empty, name \"(all)\")"},
                  {"series", "rows", "bytes in use over time: time_ns, pid, bytes at each change of a process"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(KernelMemoryModule());
        return std::make_unique<KernelMemory>(name);
      },
  };
}

}  // namespace macroscope::pipeline
