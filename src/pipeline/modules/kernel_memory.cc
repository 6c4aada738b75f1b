// kernel-memory: memory in use per process from LTTng-UST's libc wrapper
// events: analysis::kernel::MemoryTable, as `macroscope kernel memory` uses
// it (docs/kernel.md).
#include "analysis/kernel/memory_table.h"
#include "pipeline/modules/entity_chunks.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

class KernelMemory : public Module {
 public:
  explicit KernelMemory(const std::string& name) : Module(name) {
    in_ = &AddInput<EntityBatch>("in");
    rows_ = &AddOutput<RowBatch>("rows");
    series_ = &AddOutput<RowBatch>("series");
  }

  void Run() override {
    analysis::kernel::MemoryTable memory;
    const std::shared_ptr<const Trace> trace = ForEachChunk(
        *in_, "kernel-memory", [&](const Trace& t, const EntityChunk& chunk) { memory.Add(t, chunk); });
    const TimeBase base = trace ? trace->time_base() : TimeBase();
    // The series only when something reads it.
    analysis::Table series;
    const analysis::Table rows = memory.ToTable(base, series_->linked() ? &series : nullptr);
    if (series_->linked()) PublishTable(*series_, series);
    PublishTable(*rows_, rows);
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
