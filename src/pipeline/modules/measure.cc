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
      for (size_t k = 0; k < batch->chunks(); ++k) {
        const EntityChunk c = batch->chunk(k);
        if (!HasMeasure(c.kind, of_)) continue;
        const std::string_view type = batch->Str(c.type_name), container = batch->Str(c.container_name);
        for (size_t i = 0; i < c.size(); ++i) {
          const double x = *MeasureOf(c, i, *batch, of_);
          writer.Put(type);
          writer.Put(container);
          writer.Put(batch->Str(c.Value(i)));
          writer.Put(batch->Seconds(c.start[i]));
          writer.Put(x);
          writer.EndRow();
        }
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
