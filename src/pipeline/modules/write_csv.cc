// write-csv: the rows it reads as a CSV file (header, then one line per
// row, RFC 4180 quoting, '\n' line ends), written through a temporary file
// so that the file appears whole or not at all.
#include "pipeline/modules/file_writer.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_reading.h"
#include "util/csv.h"

namespace macroscope::pipeline {

namespace {

class WriteCsv : public RowTextWriter {
 public:
  using RowTextWriter::RowTextWriter;

 protected:
  void Append(const RowBatch& batch, std::string& text) override {
    if (!header_) {
      for (size_t c = 0; c < batch.columns.size(); ++c) text += (c ? "," : "") + CsvField(batch.columns[c]);
      text += '\n';
      header_ = true;
    }
    for (size_t r = 0; r < batch.rows(); ++r) {
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        if (c) text += ',';
        text += CsvField(CellText(batch.at(r, c)));
      }
      text += '\n';
    }
  }

 private:
  bool header_ = false;
};

}  // namespace

ModuleInfo WriteCsvModule() {
  return {
      .kind = "write-csv",
      .description = "Writes rows to a CSV file (a header, then one line per row)",
      .params = {{"path", "the CSV file", true}},
      .inputs = {{"in", "rows", "rows to write"}},
      .outputs = {},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(WriteCsvModule());
        return std::make_unique<WriteCsv>(name, OutputPath(params));
      },
  };
}

}  // namespace macroscope::pipeline
