// Writing a table to a row output in batches: the modules that make rows
// (count, statistics, measure) put cells one by one; every batch carries
// the column names.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/module.h"

namespace macroscope::pipeline {

class RowWriter {
 public:
  static constexpr size_t kRowsPerBatch = 4096;
  RowWriter(Output<RowBatch>& out, std::vector<std::string> columns) : out_(out), columns_(std::move(columns)) {}

  const std::vector<std::string>& columns() const { return columns_; }
  // The cells of the current row, one per column (any value a table's
  // Put takes: analysis/table.h), then EndRow().
  template <class T>
  void Put(const T& value) {
    Batch().Put(value);
  }
  void PutEmpty() { Batch().PutEmpty(); }
  void EndRow() {
    if (++rows_ == kRowsPerBatch) Publish();
  }
  // Publishes the last rows; a table without rows still sends one empty
  // batch so that a writer knows the columns (a CSV file gets its header).
  void Finish() {
    if (batch_ == nullptr && !published_) Start();
    if (batch_ != nullptr) Publish();
  }

 private:
  RowBatch& Batch() {
    if (batch_ == nullptr) Start();
    return *batch_;
  }
  void Start() {
    batch_ = &out_.Claim();
    batch_->Clear();
    batch_->columns = columns_;
  }
  void Publish() {
    out_.Publish();
    batch_ = nullptr;
    rows_ = 0;
    published_ = true;
  }

  Output<RowBatch>& out_;
  std::vector<std::string> columns_;
  RowBatch* batch_ = nullptr;
  size_t rows_ = 0;
  bool published_ = false;
};

// A whole result table (an analysis's) on a row output, in batches.
inline void PublishTable(Output<RowBatch>& out, const analysis::Table& table) {
  RowWriter writer(out, table.columns);
  const size_t n = table.columns.size();
  for (size_t r = 0; r < table.rows(); ++r) {
    for (size_t c = 0; c < n; ++c) writer.Put(table.at(r, c));
    writer.EndRow();
  }
  writer.Finish();
}

}  // namespace macroscope::pipeline
