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
      const uint64_t size = batch->entities.size();
      const uint64_t first = std::max(seen, skip_) - seen, last = std::min(seen + size, end) - seen;
      seen += size;
      if (first >= last || !out_.linked()) continue;
      EntityBatch& slot = out_.Claim();
      if (first == 0 && last == size) {
        slot = *batch;
      } else {
        CopyPart(*batch, first, last, slot);
      }
      out_.Publish();
    }
  }

 private:
  // Entities [first, last) of `from` with their own user fields only.
  static void CopyPart(const EntityBatch& from, size_t first, size_t last, EntityBatch& to) {
    to.Clear();
    to.trace = from.trace;
    to.base = from.base;
    for (size_t i = first; i < last; ++i) {
      Entity e = from.entities[i];
      uint32_t begin = static_cast<uint32_t>(to.fields.size());
      to.fields.insert(to.fields.end(), from.fields.begin() + e.fields_begin, from.fields.begin() + e.fields_end);
      e.fields_begin = begin;
      e.fields_end = static_cast<uint32_t>(to.fields.size());
      to.entities.push_back(e);
    }
  }

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
