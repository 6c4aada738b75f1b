// kernel-processes: one row per thread of a kernel trace (tid, pid, ppid,
// names, life, time per state, syscalls, perf counters):
// analysis::kernel::ProcessTable, as `macroscope kernel processes` uses it
// (docs/kernel.md).
#include "analysis/kernel/process_table.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

class KernelProcesses : public Module {
 public:
  KernelProcesses(const std::string& name, std::optional<int64_t> subtree) : Module(name), subtree_(subtree) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    analysis::kernel::ProcessTable table;
    std::shared_ptr<const Trace> trace;
    analysis::EntityRecord r;
    while (const EntityBatch* batch = in_->Next()) {
      if (batch->entities.empty()) continue;
      if (!trace) trace = batch->trace;
      if (batch->trace != trace) throw UserError("kernel-processes: entities of several traces (one trace only)");
      for (const Entity& e : batch->entities) {
        r = {e.kind, e.level, e.type, e.value, e.container_id, e.start, e.end};
        table.Add(*trace, r);
      }
    }
    analysis::kernel::ProcessTableRows rows;
    if (trace) rows = table.Rows(*trace, subtree_);
    RowWriter writer(*out_, analysis::kernel::ProcessColumns(rows));
    for (const analysis::kernel::ThreadRow& row : rows.rows) {
      for (const analysis::kernel::ProcessCell& cell : analysis::kernel::ProcessCells(rows, row)) {
        if (const int64_t* i = std::get_if<int64_t>(&cell))
          writer.Put(*i);
        else if (const std::string* s = std::get_if<std::string>(&cell))
          writer.Put(std::string_view(*s));
        else
          writer.PutEmpty();
      }
      writer.EndRow();
    }
    writer.Finish();
  }

 private:
  std::optional<int64_t> subtree_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo KernelProcessesModule() {
  return {
      .kind = "kernel-processes",
      .description = "One row per thread of a kernel trace: tid, pid, ppid, names, life, running/user/kernel/"
                     "waiting/runnable time, syscalls, perf counter deltas; by running time, longest first",
      .params = {{"subtree", "a pid: only that process and its descendants (default: every thread)"}},
      .inputs = {{"in", "entities", "a kernel trace's entities (read without events: true)"}},
      .outputs = {{"rows", "rows",
                   "tid, pid, ppid, name, names, start, end, running_ns, user_ns, kernel_ns, interrupted_ns, "
                   "waiting_ns, runnable_ns, syscalls, then perf_* counters and compute_instructions when present"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(KernelProcessesModule());
        std::optional<int64_t> subtree;
        if (params.Has("subtree")) subtree = params.Integer("subtree");
        return std::make_unique<KernelProcesses>(name, subtree);
      },
  };
}

}  // namespace macroscope::pipeline
