// measure: one row per entity that has a measure (a duration, a latency,
// a variable's value), for charts and for collecting across runs.
#include "pipeline/modules/entity_attributes.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

class Measure : public Module {
 public:
  Measure(const std::string& name, EntityMeasure of) : Module(name), of_(of) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    RowWriter writer(*out_, {"type", "container", "value", "start", "measure"});
    while (const EntityBatch* batch = in_->Next()) {
      for (const Entity& e : batch->entities) {
        const std::optional<double> x = MeasureOf(e, *batch, of_);
        if (!x) continue;
        writer.Put(batch->Str(e.type));
        writer.Put(batch->Str(e.container));
        writer.Put(batch->Str(e.value));
        writer.Put(batch->Seconds(e.start));
        writer.Put(*x);
        writer.EndRow();
      }
    }
    writer.Finish();
  }

 private:
  EntityMeasure of_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo MeasureModule() {
  return {
      .kind = "measure",
      .description = "One row per entity: its type, container, value, start and measure",
      .params = {{"of",
                  "duration (seconds) or value (variables); default: durations of states and links, "
                  "values of variables (events have neither and give no row)"}},
      .inputs = {{"in", "entities", "entities to measure"}},
      .outputs = {{"rows", "rows", "type, container, value, start (seconds from the trace's origin), measure"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(MeasureModule());
        return std::make_unique<Measure>(name, ParseEntityMeasure(params));
      },
  };
}

}  // namespace macroscope::pipeline
