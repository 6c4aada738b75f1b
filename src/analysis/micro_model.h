// The microscopic model of a trace: values mu(leaf, type, slice) >= 0 over a
// resource hierarchy, a list of types and |T| equal time slices.
//
// Storage is per (leaf, type) series of |T| doubles, allocated on the first
// non-zero Add(): all-zero series cost nothing, which matters because real
// models are > 99 % zeros. Leaves are indexed 0..leaf_count()-1 in the
// hierarchy's depth-first order; the hierarchy is fixed at construction.
//
// Not thread-safe for writing; concurrent const access is fine.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/hierarchy.h"

#include "model/time_base.h"

namespace macroscope::analysis {

// [begin, end] in model time units; slice i covers
// [begin + i*d, begin + (i+1)*d) with d = (end - begin) / slices. `base`
// says what those units are (the trace's TimeBase), so that pictures and
// outputs read a cached model's times as they would the trace's.
struct TimeRange {
  double begin = 0;
  double end = 0;
  TimeBase base;
};

class MicroModel {
 public:
  // Throws std::invalid_argument when slices < 1 or type names repeat.
  MicroModel(Hierarchy hierarchy, std::vector<std::string> types, int32_t slices);

  const Hierarchy& hierarchy() const { return hierarchy_; }
  const std::vector<std::string>& types() const { return types_; }
  int32_t type_count() const { return static_cast<int32_t>(types_.size()); }
  int32_t slices() const { return slices_; }
  const std::vector<NodeId>& leaves() const { return leaves_; }
  int32_t leaf_count() const { return static_cast<int32_t>(leaves_.size()); }

  // Absent when unknown (e.g. a model read from CSV).
  const std::optional<TimeRange>& range() const { return range_; }
  // Throws std::invalid_argument unless begin < end, both finite.
  void set_range(TimeRange range);

  // Index of `leaf` among leaves(), if it is a leaf.
  std::optional<int32_t> LeafIndex(NodeId leaf) const;
  std::optional<int32_t> TypeIndex(std::string_view name) const;

  // mu(leaf, type, slice) += value. `leaf` is a NodeId that is a leaf.
  // Throws std::invalid_argument on a bad index or a value that is negative
  // or not finite (callers validate user input before).
  void Add(NodeId leaf, int32_t type, int32_t slice, double value);
  // Add() of values[t] for every slice t, in order; a series not met yet
  // takes the vector itself (a model of 900 slices is not copied once
  // more). Throws std::invalid_argument as Add() does, or when `values`
  // is not slices() long.
  void AddSeries(NodeId leaf, int32_t type, std::vector<double> values);
  double Value(NodeId leaf, int32_t type, int32_t slice) const;

  // The |T| values of (leaf_index, type), or an empty span when all zero.
  std::span<const double> Series(int32_t leaf_index, int32_t type) const {
    return series_[static_cast<size_t>(leaf_index) * types_.size() + type];
  }
  int64_t NonZeroSeriesCount() const;
  // Bytes its series hold.
  size_t bytes() const;

  // A model with slices() / factor slices, each the sum of `factor`
  // consecutive ones. Throws std::invalid_argument unless factor >= 1
  // divides slices(). The range is kept.
  MicroModel Coarsen(int32_t factor) const;

  // A model restricted to the named types, in the given order. Throws
  // UserError on an unknown name.
  MicroModel SelectTypes(const std::vector<std::string>& names) const;

  // A model restricted to the subtrees at the given paths (their ancestors
  // stay, with only the selected branches). Throws UserError on an unknown
  // path.
  MicroModel SelectContainers(const std::vector<std::string>& paths) const;

 private:
  std::vector<double>& MutableSeries(NodeId leaf, int32_t type, int32_t slice);

  Hierarchy hierarchy_;
  std::vector<std::string> types_;
  int32_t slices_;
  std::optional<TimeRange> range_;
  std::vector<NodeId> leaves_;
  std::vector<int32_t> leaf_index_;          // by NodeId, -1 for internal nodes
  std::vector<std::vector<double>> series_;  // leaf_index * types + type
};

}  // namespace macroscope::analysis
