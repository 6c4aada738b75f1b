// correlate: Pearson's r of the start times of two entity streams over
// regular or irregular bins: analysis::Correlation, as `macroscope
// correlate` uses it (docs/anomalies.md). Filter upstream to choose each
// series.
#include "analysis/correlation.h"
#include "pipeline/modules/flow.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

class Correlate : public Module {
 public:
  Correlate(const std::string& name, analysis::Binning binning, double delta_seconds)
      : Module(name), binning_(binning), delta_seconds_(delta_seconds) {
    a_ = &AddInput<EntityBatch>("a");
    b_ = &AddInput<EntityBatch>("b");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    analysis::Correlation correlation;
    TimeBase base;
    // Both at once: a and b often come from one reader (filter's two outputs).
    ReadFairly<EntityBatch>(*this, {a_, b_}, [&](size_t input, const EntityBatch& batch) {
      if (!batch.empty()) base = batch.base;
      for (size_t k = 0; k < batch.chunks(); ++k)
        input == 0 ? correlation.AddA(batch.chunk(k)) : correlation.AddB(batch.chunk(k));
    });
    PublishTable(*out_, correlation.ToTable(binning_, base.Ticks(delta_seconds_)));
  }

 private:
  analysis::Binning binning_;
  double delta_seconds_;
  Input<EntityBatch>* a_;
  Input<EntityBatch>* b_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo CorrelateModule() {
  return {
      .kind = "correlate",
      .description =
          "Pearson's r of the start times of two entity streams, over floor(sqrt(|A|+|B|)) regular bins "
          "or irregular bins of ±delta around the smaller series' points",
      .params = {{"bins", "regular (default) or irregular"},
                 {"delta", "irregular bins' half width in seconds (required with bins: irregular)"}},
      .inputs = {{"a", "entities", "the first series (every entity's start)"}, {"b", "entities", "the second series"}},
      .outputs = {{"rows", "rows", "one row: bins_kind, bins, count_a, count_b, r (empty when undefined)"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(CorrelateModule());
        const bool irregular = Choice(params, "bins", {"regular", "irregular"}, "regular") == 1;
        double delta = 0;
        if (irregular) {
          delta = params.Number("delta");
          if (!(delta > 0)) BadParameter(params, "delta", "expected a length in seconds > 0");
        } else if (params.Has("delta")) {
          BadParameter(params, "delta", "is for bins: irregular");
        }
        return std::make_unique<Correlate>(
            name, irregular ? analysis::Binning::kIrregular : analysis::Binning::kRegular, delta);
      },
  };
}

}  // namespace macroscope::pipeline
