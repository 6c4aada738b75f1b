// collect: the rows of N runs (in1..inN) in one table, a `run` column (the
// input's index, 0..N-1) first. The inputs must have the same columns.
// Inputs are read at once (ReadFairly): rows of one run keep their order,
// runs interleave by batch.
#include <optional>

#include "pipeline/modules/flow.h"
#include "pipeline/modules/modules.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

std::string Columns(const std::vector<std::string>& columns) {
  std::string text = "(";
  for (const std::string& c : columns) text += (text.size() > 1 ? ", " : "") + c;
  return text + ")";
}

class Collect : public Module {
 public:
  Collect(std::string name, size_t inputs) : Module(std::move(name)) {
    for (size_t i = 0; i < inputs; ++i) ins_.push_back(&AddInput<RowBatch>(NumberedPort("in", i)));
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    ReadFairly(*this, ins_, [this](size_t run, const RowBatch& batch) { Add(run, batch); });
  }

 private:
  // Called by one reader at a time.
  void Add(size_t run, const RowBatch& batch) {
    if (batch.columns.empty()) return;
    if (!first_) {
      first_ = run;
      columns_ = batch.columns;
    } else if (batch.columns != columns_) {
      throw UserError(*first_ == run ? ins_[run]->name() + " changed its columns from " + Columns(columns_) +
                                           " to " + Columns(batch.columns)
                                     : "inputs " + ins_[*first_]->name() + " and " + ins_[run]->name() +
                                           " have different columns: " + Columns(columns_) + " and " +
                                           Columns(batch.columns));
    }
    if (!out_->linked()) return;
    RowBatch& rows = out_->Claim();
    rows.Clear();
    rows.columns = {"run"};
    rows.columns.insert(rows.columns.end(), columns_.begin(), columns_.end());
    rows.cells.reserve(batch.rows() * rows.columns.size());
    for (size_t r = 0; r < batch.rows(); ++r) {
      rows.cells.emplace_back(static_cast<int64_t>(run));
      rows.cells.insert(rows.cells.end(), batch.cells.begin() + r * columns_.size(),
                        batch.cells.begin() + (r + 1) * columns_.size());
    }
    out_->Publish();
  }

  std::vector<Input<RowBatch>*> ins_;
  Output<RowBatch>* out_;
  std::optional<size_t> first_;       // the input whose columns the others must have
  std::vector<std::string> columns_;  // its columns
};

}  // namespace

ModuleInfo CollectModule() {
  return {
      .kind = "collect",
      .description = "Collects the rows of N runs (in1..inN) into one table with a `run` column first.",
      .params = {{"inputs", "number of runs N, 1 to 4096 (default 2)"}},
      .inputs = {{"in#", StreamType<RowBatch>::kName, "in1..inN: the rows of each run, all with the same columns"}},
      .outputs = {{"rows", StreamType<RowBatch>::kName, "run (0..N-1), then the inputs' columns"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(CollectModule());
        auto inputs = CountParam(params, "inputs", 2, 1, kMaxPorts);
        return std::make_unique<Collect>(name, static_cast<size_t>(inputs));
      },
  };
}

}  // namespace macroscope::pipeline
