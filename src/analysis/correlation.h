// Temporal correlation of two series of points (entity start times), as the
// seed defines it (../shared/spec/management.md): Pearson's r between the
// numbers of points of each series per bin, with either ⌊√(|A|+|B|)⌋ equal
// bins over the span of both series, or irregular bins: a window of ±δ
// around each point of the smaller series (overlapping windows merged) and
// the gaps between them. One class serves `macroscope correlate` and the
// workflow module `correlate` (docs/anomalies.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"

namespace macroscope::analysis {

enum class Binning { kRegular, kIrregular };

struct CorrelationResult {
  uint64_t count_a = 0, count_b = 0;
  size_t bins = 0;
  std::optional<double> r;  // none when either series' counts do not vary over the bins
  std::vector<uint64_t> per_bin_a, per_bin_b;  // the counts r is computed over, in time order
};

class Correlation {
 public:
  // Points in model time, in any order.
  void AddA(double t) { a_.push_back(t); }
  void AddB(double t) { b_.push_back(t); }
  // Every entity's start of `chunk` (chunks of one trace, in any order).
  void AddA(const EntityChunk& chunk) { a_.insert(a_.end(), chunk.start.begin(), chunk.start.end()); }
  void AddB(const EntityChunk& chunk) { b_.insert(b_.end(), chunk.start.begin(), chunk.start.end()); }

  // `delta` (model time, > 0) is for irregular bins only. Throws UserError
  // when a series is empty.
  CorrelationResult Compute(Binning binning, double delta) const;
  // The result table the command prints and the module sends: Compute()'s
  // result (CorrelationTable).
  Table ToTable(Binning binning, double delta) const;

 private:
  std::vector<double> a_, b_;
};

// Pearson's r of two equally long samples; none when either has no variance
// (or fewer than two values).
std::optional<double> Pearson(const std::vector<uint64_t>& x, const std::vector<uint64_t>& y);

// One row: bins_kind ("regular" or "irregular"), bins, count_a, count_b,
// r (empty when undefined).
Table CorrelationTable(Binning binning, const CorrelationResult& result);

}  // namespace macroscope::analysis
