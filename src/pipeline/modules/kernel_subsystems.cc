// kernel-subsystems: events, states and time per kernel subsystem
// (tracepoint prefix classes), overall and per owner (a thread's process,
// else the entity's container): analysis::kernel::SubsystemTally, as
// `macroscope kernel subsystems` uses it (docs/kernel.md).
#include "analysis/kernel/subsystems.h"
#include "pipeline/modules/entity_chunks.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

class KernelSubsystems : public Module {
 public:
  explicit KernelSubsystems(const std::string& name) : Module(name) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    analysis::kernel::SubsystemTally tally;
    const std::shared_ptr<const Trace> trace = ForEachChunk(
        *in_, "kernel-subsystems", [&](const Trace& t, const EntityChunk& chunk) { tally.Add(t, chunk); });
    const Trace empty;
    PublishTable(*out_, tally.ToTable(trace ? *trace : empty));
  }

 private:
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo KernelSubsystemsModule() {
  return {
      .kind = "kernel-subsystems",
      .description = "Events, states and time per kernel subsystem (processor, memory, system, graphics, disk, "
                     "network, syscall, other: by tracepoint prefix), overall and per process",
      .params = {},
      .inputs = {{"in", "entities",
                  "a trace's entities: read with events: true for babeltrace2's events, else the model's events and "
                  "states"}},
      .outputs = {{"rows", "rows",
                   "owner (empty: overall), owner_type (all, Process, CPU, Stream...), subsystem, events, states, "
                   "time_ns"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(KernelSubsystemsModule());
        return std::make_unique<KernelSubsystems>(name);
      },
  };
}

}  // namespace macroscope::pipeline
