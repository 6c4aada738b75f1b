// kernel-subsystems: events, states and time per kernel subsystem
// (tracepoint prefix classes), overall and per owner (a thread's process,
// else the entity's container): analysis::kernel::SubsystemTally, as
// `macroscope kernel subsystems` uses it (docs/kernel.md).
#include "analysis/kernel/subsystems.h"
#include "pipeline/modules/entity_records.h"
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
    const std::shared_ptr<const Trace> trace = ForEachRecord(
        *in_, "kernel-subsystems", [&](const Trace& t, const analysis::EntityRecord& r) { tally.Add(t, r); });
    RowWriter writer(*out_, {"owner", "owner_type", "subsystem", "events", "states", "time_ns"});
    if (trace) {
      for (const analysis::kernel::SubsystemRow& row : tally.Rows(*trace)) {
        writer.Put(row.owner);
        writer.Put(row.owner_type);
        writer.Put(analysis::kernel::SubsystemName(row.subsystem));
        writer.Put(static_cast<int64_t>(row.figures.events));
        writer.Put(static_cast<int64_t>(row.figures.states));
        writer.Put(row.figures.time_ns);
        writer.EndRow();
      }
    }
    writer.Finish();
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
