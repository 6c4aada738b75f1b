// merge: in1..inN into one stream. Batches pass whole; those of one input
// keep their order, inputs interleave as their batches come (ReadFairly),
// so merging the outputs of one split cannot deadlock.
#include "pipeline/modules/flow.h"
#include "pipeline/modules/modules.h"

namespace macroscope::pipeline {

namespace {

class Merge : public Module {
 public:
  Merge(std::string name, size_t inputs) : Module(std::move(name)) {
    for (size_t i = 0; i < inputs; ++i) ins_.push_back(&AddInput<EntityBatch>(NumberedPort("in", i)));
    out_ = &AddOutput<EntityBatch>("out");
  }

  void Run() override {
    ReadFairly(*this, ins_, [this](size_t, const EntityBatch& batch) {
      if (!out_->linked()) return;
      CopyEntities(batch, out_->Claim());
      out_->Publish();
    });
  }

 private:
  std::vector<Input<EntityBatch>*> ins_;
  Output<EntityBatch>* out_;
};

}  // namespace

ModuleInfo MergeModule() {
  return {
      .kind = "merge",
      .description = "Merges in1..inN into one stream (batches interleave; each input's order is kept).",
      .params = {{"inputs", "number of inputs N, 1 to 4096 (default 2)"}},
      .inputs = {{"in#", StreamType<EntityBatch>::kName, "in1..inN"}},
      .outputs = {{"out", StreamType<EntityBatch>::kName, "every batch of every input"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(MergeModule());
        auto inputs = CountParam(params, "inputs", 2, 1, kMaxPorts);
        return std::make_unique<Merge>(name, static_cast<size_t>(inputs));
      },
  };
}

}  // namespace macroscope::pipeline
