// kernel-processes: one row per thread of a kernel trace (tid, pid, ppid,
// names, life, time per state, syscalls, perf counters), or with `cpus`
// the CPUs' table of `--cpus`: analysis::kernel::ProcessesReport, as
// `macroscope kernel processes` runs it (docs/kernel.md).
#include "analysis/kernel/processes_report.h"
#include "pipeline/modules/entity_chunks.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

class KernelProcesses : public Module {
 public:
  KernelProcesses(const std::string& name, std::optional<int64_t> subtree, bool cpus)
      : Module(name), report_(subtree, cpus) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    const std::shared_ptr<const Trace> trace = ForEachChunk(
        *in_, "kernel-processes", [&](const Trace& t, const EntityChunk& chunk) { report_.Add(t, chunk); });
    const Trace empty;
    PublishTable(*out_, report_.ToTable(trace ? *trace : empty));
  }

 private:
  analysis::kernel::ProcessesReport report_;
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
