// write-json: the rows it reads as a JSON array with one object per row
// (column -> number, text, or null for an empty cell), streamed row by row
// through a temporary file.
#include <nlohmann/json.hpp>

#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

namespace {

nlohmann::ordered_json CellJson(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) return *d;  // NaN and infinities: null
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return nullptr;
}

class WriteJson : public RowTextWriter {
 public:
  using RowTextWriter::RowTextWriter;

 protected:
  void Begin(std::string& text) override { text += "["; }
  void Append(const RowBatch& batch, std::string& text) override {
    for (size_t r = 0; r < batch.rows(); ++r) {
      nlohmann::ordered_json row = nlohmann::ordered_json::object();
      for (size_t c = 0; c < batch.columns.size(); ++c) row[batch.columns[c]] = CellJson(batch.at(r, c));
      text += first_ ? "\n  " : ",\n  ";
      // Invalid UTF-8 in a text cell is replaced, not fatal.
      text += row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      first_ = false;
    }
  }
  void End(std::string& text) override { text += first_ ? "]\n" : "\n]\n"; }

 private:
  bool first_ = true;
};

}  // namespace

ModuleInfo WriteJsonModule() {
  return {
      .kind = "write-json",
      .description = "Writes rows to a JSON file: an array of objects, one per row",
      .params = {{"path", "the JSON file", true}},
      .inputs = {{"in", "rows", "rows to write"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WriteJsonModule());
        return std::make_unique<WriteJson>(name, OutputPath(params));
      },
  };
}

}  // namespace macroscope::pipeline
