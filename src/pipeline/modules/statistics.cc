// statistics: count, mean, standard deviation, min, max and sum of a
// measure (durations, latencies, variable values) per key. Welford's
// update keeps the mean and the sum of squared deviations stable over
// billions of values; per-trace tables merge with Chan's formula.
#include <algorithm>
#include <cmath>
#include <map>

#include "pipeline/modules/entity_attributes.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/per_trace_tables.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

struct Moments {
  int64_t n = 0;
  double mean = 0, m2 = 0, min = 0, max = 0, sum = 0;

  void Add(double x) {
    min = n == 0 ? x : std::min(min, x);
    max = n == 0 ? x : std::max(max, x);
    ++n;
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
    sum += x;
  }
  void Merge(const Moments& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const double total = static_cast<double>(n + o.n);
    const double delta = o.mean - mean;
    mean += delta * static_cast<double>(o.n) / total;
    m2 += o.m2 + delta * delta * static_cast<double>(n) * static_cast<double>(o.n) / total;
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    sum += o.sum;
    n += o.n;
  }
};

class Statistics : public Module {
 public:
  Statistics(const std::string& name, EntityKey by, EntityMeasure of) : Module(name), by_(by), of_(of) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    PerTraceTables<Moments> tables;
    while (const EntityBatch* batch = in_->Next()) {
      PerTraceTables<Moments>::Table& table = tables.For(*batch);
      for (size_t k = 0; k < batch->chunks(); ++k) {
        const EntityChunk c = batch->chunk(k);
        if (!HasMeasure(c.kind, of_)) continue;
        Moments* same = KeyIsPerChunk(by_, c.kind) ? &table.Of(KeyOf(c, 0, by_)) : nullptr;
        for (size_t i = 0; i < c.size(); ++i)
          (same != nullptr ? *same : table.Of(KeyOf(c, i, by_))).Add(*MeasureOf(c, i, *batch, of_));
      }
    }
    std::map<std::vector<std::string>, Moments> rows;
    tables.ForEachKey(by_, [&](const std::vector<std::string>& key, const Moments& m) { rows[key].Merge(m); });
    std::vector<std::string> columns = KeyColumns(by_);
    for (const char* c : {"count", "mean", "stddev", "min", "max", "sum"}) columns.emplace_back(c);
    RowWriter writer(*out_, columns);
    for (const auto& [texts, m] : rows) {
      for (const std::string& text : texts) writer.Put(text);
      writer.Put(m.n);
      writer.Put(m.mean);
      // The sample standard deviation; one value has none.
      if (m.n > 1)
        writer.Put(std::sqrt(m.m2 / static_cast<double>(m.n - 1)));
      else
        writer.PutEmpty();
      writer.Put(m.min);
      writer.Put(m.max);
      writer.Put(m.sum);
      writer.EndRow();
    }
    writer.Finish();
  }

 private:
  EntityKey by_;
  EntityMeasure of_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo StatisticsModule() {
  return {
      .kind = "statistics",
      .description = "Count, mean, sample standard deviation, min, max and sum of durations or values per key",
      .params = {{"by", "value (default), name, type, container, kind or type+value"},
                 {"of",
                  "duration (seconds) or value (variables); default: durations of states and links, "
                  "values of variables (events have neither)"}},
      .inputs = {{"in", "entities", "entities to measure"}},
      .outputs = {{"rows", "rows", "the key column(s), then count, mean, stddev, min, max, sum"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(StatisticsModule());
        return std::make_unique<Statistics>(name, ParseEntityKey(params, "value"), ParseEntityMeasure(params));
      },
  };
}

}  // namespace macroscope::pipeline
