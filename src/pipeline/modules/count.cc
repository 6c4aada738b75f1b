// count: entities per key, one row per key in key order at the end of
// the stream. Counting is a hash lookup on an integer key per entity
// (key_index.h, per_trace_tables.h); text is read once per key at the end.
#include <map>

#include "pipeline/modules/entity_attributes.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/per_trace_tables.h"
#include "pipeline/modules/row_writing.h"

namespace macroscope::pipeline {

namespace {

class Count : public Module {
 public:
  Count(const std::string& name, EntityKey by) : Module(name), by_(by) {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    // One table per source trace (StringIds are per trace).
    PerTraceTables<int64_t> tables;
    while (const EntityBatch* batch = in_->Next()) {
      PerTraceTables<int64_t>::Table& table = tables.For(*batch);
      for (size_t k = 0; k < batch->chunks(); ++k) {
        const EntityChunk c = batch->chunk(k);
        if (KeyIsPerChunk(by_, c.kind)) {
          table.Of(KeyOf(c, 0, by_)) += static_cast<int64_t>(c.size());
          continue;
        }
        for (size_t i = 0; i < c.size(); ++i) ++table.Of(KeyOf(c, i, by_));
      }
    }
    std::map<std::vector<std::string>, int64_t> rows;
    tables.ForEachKey(by_, [&](const std::vector<std::string>& key, int64_t count) { rows[key] += count; });
    std::vector<std::string> columns = KeyColumns(by_);
    columns.emplace_back("count");
    RowWriter writer(*out_, columns);
    for (const auto& [texts, count] : rows) {
      for (const std::string& text : texts) writer.Put(text);
      writer.Put(count);
      writer.EndRow();
    }
    writer.Finish();
  }

 private:
  EntityKey by_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo CountModule() {
  return {
      .kind = "count",
      .description = "Entities per key: one row per key (in key order) with its count",
      .params = {{"by", "value (default), name, type, container, kind or type+value"}},
      .inputs = {{"in", "entities", "entities to count"}},
      .outputs = {{"rows", "rows", "the key column(s), then count"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(CountModule());
        return std::make_unique<Count>(name, ParseEntityKey(params, "value"));
      },
  };
}

}  // namespace macroscope::pipeline
