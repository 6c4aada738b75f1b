// limit: passes entities [skip, skip + keep) of its input, counted in
// entities, not batches, then stops reading (the workflow detaches its
// input), so a long upstream is not held back waiting for it.
#include <algorithm>

#include "pipeline/modules/flow.h"
#include "pipeline/modules/modules.h"

namespace macroscope::pipeline {

namespace {

class Limit : public Module {
 public:
  Limit(std::string name, uint64_t skip, uint64_t keep)
      : Module(std::move(name)),
        in_(AddInput<EntityBatch>("in")),
        out_(AddOutput<EntityBatch>("out")),
        skip_(skip),
        keep_(keep) {}

  void Run() override {
    if (keep_ == 0) return;
    const uint64_t end = keep_ > UINT64_MAX - skip_ ? UINT64_MAX : skip_ + keep_;
    uint64_t seen = 0;  // entities before the current batch
    while (seen < end) {
      const EntityBatch* batch = in_.Next();
      if (!batch) break;
      const uint64_t size = batch->entities();
      const uint64_t first = std::max(seen, skip_) - seen, last = std::min(seen + size, end) - seen;
      seen += size;
      if (first >= last || !out_.linked()) continue;
      CopyEntities(*batch, out_.Claim(), first, last);
      out_.Publish();
    }
  }

 private:
  Input<EntityBatch>& in_;
  Output<EntityBatch>& out_;
  uint64_t skip_, keep_;
};

}  // namespace

ModuleInfo LimitModule() {
  return {
      .kind = "limit",
      .description = "Skips the first `skip` entities, passes the next `keep`, then stops reading.",
      .params = {{"skip", "entities to skip first (default 0)"}, {"keep", "entities to pass then (default: all)"}},
      .inputs = {{"in", StreamType<EntityBatch>::kName, "the entities"}},
      .outputs = {{"out", StreamType<EntityBatch>::kName, "entities skip .. skip + keep - 1, in order"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(LimitModule());
        auto skip = CountParam(params, "skip", 0, 0);
        auto keep = CountParam(params, "keep", INT64_MAX, 0);
        return std::make_unique<Limit>(name, static_cast<uint64_t>(skip), static_cast<uint64_t>(keep));
      },
  };
}

}  // namespace macroscope::pipeline
