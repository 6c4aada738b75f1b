// write-csv: the rows it reads as a CSV file (the table writer's CSV:
// header, then one line per row, RFC 4180 quoting, '\n' line ends),
// written through a temporary file so that the file appears whole or not
// at all.
#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

ModuleInfo WriteCsvModule() {
  return {
      .kind = "write-csv",
      .description = "Writes rows to a CSV file (a header, then one line per row)",
      .params = {{"path", "the CSV file", true}},
      .inputs = {{"in", "rows", "rows to write"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WriteCsvModule());
        return std::make_unique<RowTextWriter>(name, OutputPath(params), analysis::TableFormat::kCsv);
      },
  };
}

}  // namespace macroscope::pipeline
