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
  // The cells of the current row, one per column, then EndRow().
  void Put(int64_t value) { Cells().emplace_back(std::in_place_type<int64_t>, value); }
  void Put(double value) { Cells().emplace_back(std::in_place_type<double>, value); }
  void Put(std::string_view text) { Cells().emplace_back(std::in_place_type<std::string>, text); }
  void PutEmpty() { Cells().emplace_back(); }
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
  std::vector<Cell>& Cells() {
    if (batch_ == nullptr) Start();
    return batch_->cells;
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

}  // namespace macroscope::pipeline
