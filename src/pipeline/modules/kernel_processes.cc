// kernel-processes: one row per thread of a kernel trace (tid, pid, ppid,
// names, life, time per state, syscalls, perf counters):
// analysis::kernel::ProcessTable, as `macroscope kernel processes` uses it
// (docs/kernel.md); with `cpus`, the CPUs' table of `--cpus`
// (analysis::kernel::CpuTable).
#include "analysis/kernel/cpu_table.h"
#include "analysis/kernel/process_table.h"
#include "pipeline/modules/entity_records.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

class KernelProcesses : public Module {
 public:
  KernelProcesses(const std::string& name, std::optional<int64_t> subtree, bool cpus)
      : Module(name), subtree_(subtree), cpus_(cpus) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    analysis::kernel::ProcessTable table;
    analysis::kernel::CpuTable cpus;
    const std::shared_ptr<const Trace> trace =
        ForEachRecord(*in_, "kernel-processes", [&](const Trace& t, const analysis::EntityRecord& r) {
          table.Add(t, r);
          if (cpus_) cpus.Add(t, r);
        });
    analysis::kernel::ProcessTableRows rows;
    if (trace) rows = table.Rows(*trace, subtree_);
    std::vector<std::vector<analysis::kernel::ProcessCell>> cells;
    if (cpus_ && trace) {
      cells = analysis::kernel::CpuCells(cpus.Rows(*trace), rows);
    } else if (!cpus_) {
      for (const analysis::kernel::ThreadRow& row : rows.rows)
        cells.push_back(analysis::kernel::ProcessCells(rows, row));
    }
    RowWriter writer(*out_, cpus_ ? analysis::kernel::CpuColumns() : analysis::kernel::ProcessColumns(rows));
    for (const auto& row : cells) {
      for (const analysis::kernel::ProcessCell& cell : row) {
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
  bool cpus_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo KernelProcessesModule() {
  return {
      .kind = "kernel-processes",
      .description = "One row per thread of a kernel trace: tid, pid, ppid, names, life, running/user/kernel/"
                     "waiting/runnable time, syscalls, perf counter deltas; by running time, longest first",
      .params = {{"subtree", "a pid: only that process and its descendants (default: every thread)"},
                 {"cpus", "true: per CPU instead, as `kernel processes --cpus` (cpu, kind, tid, pid, name, ns)"}},
      .inputs = {{"in", "entities", "a kernel trace's entities (read without events: true)"}},
      .outputs = {{"rows", "rows",
                   "tid, pid, ppid, name, names, start, end, running_ns, user_ns, kernel_ns, interrupted_ns, "
                   "exiting_ns, waiting_ns, runnable_ns, syscalls, then perf_* counters and compute_instructions "
                   "when present"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(KernelProcessesModule());
        std::optional<int64_t> subtree;
        if (params.Has("subtree")) subtree = params.Integer("subtree");
        return std::make_unique<KernelProcesses>(name, subtree, params.Bool("cpus", false));
      },
  };
}

}  // namespace macroscope::pipeline
