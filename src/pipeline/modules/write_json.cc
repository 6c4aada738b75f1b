// write-json: the rows it reads as a JSON array with one object per row
// (the table writer's JSON: column -> number, text, or null for an empty
// cell), streamed row by row through a temporary file.
#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

ModuleInfo WriteJsonModule() {
  return {
      .kind = "write-json",
      .description = "Writes rows to a JSON file: an array of objects, one per row",
      .params = {{"path", "the JSON file", true}},
      .inputs = {{"in", "rows", "rows to write"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WriteJsonModule());
        return std::make_unique<RowTextWriter>(name, OutputPath(params), analysis::TableFormat::kJson);
      },
  };
}

}  // namespace macroscope::pipeline
