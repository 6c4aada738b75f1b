// split: deals its input's batches round-robin over out1..outN, whole
// batches (batch i goes to out(i mod N + 1)), so stages after it share the
// work; a balance by batch, not by entity. An unlinked output drops its share.
#include "pipeline/modules/flow.h"
#include "pipeline/modules/modules.h"

namespace macroscope::pipeline {

namespace {

class Split : public Module {
 public:
  Split(std::string name, size_t outputs) : Module(std::move(name)), in_(AddInput<EntityBatch>("in")) {
    for (size_t i = 0; i < outputs; ++i) outs_.push_back(&AddOutput<EntityBatch>(NumberedPort("out", i)));
  }

  void Run() override {
    size_t next = 0;
    while (const EntityBatch* batch = in_.Next()) {
      Output<EntityBatch>& out = *outs_[next];
      next = (next + 1) % outs_.size();
      if (!out.linked()) continue;
      CopyEntities(*batch, out.Claim());
      out.Publish();
    }
  }

 private:
  Input<EntityBatch>& in_;
  std::vector<Output<EntityBatch>*> outs_;
};

}  // namespace

ModuleInfo SplitModule() {
  return {
      .kind = "split",
      .description = "Deals the input's batches round-robin over out1..outN (whole batches).",
      .params = {{"outputs", "number of outputs N, 1 to 4096 (default 2)"}},
      .inputs = {{"in", StreamType<EntityBatch>::kName, "the entities to share out"}},
      .outputs = {{"out#", StreamType<EntityBatch>::kName, "out1..outN: batch i goes to out(i mod N + 1)"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(SplitModule());
        auto outputs = CountParam(params, "outputs", 2, 1, kMaxPorts);
        return std::make_unique<Split>(name, static_cast<size_t>(outputs));
      },
  };
}

}  // namespace macroscope::pipeline
