// The microscopic model's sums, gathered as entities come: a whole trace
// store by store (BuildModel, trace_model.h) or the chunks a streaming
// reading hands over (ModelSink), in any order and any split, with the same
// model to the bit: each (store, holder, value) has its series over the
// slices, time sums are exact (exact_sum.h) and rounded once, when the
// model is made. A streaming reading hands a nested state over after the
// states it holds, so a plain sum would depend on the path.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "util/exact_sum.h"
#include "analysis/micro_model.h"
#include "analysis/trace_model.h"
#include "model/entity_sink.h"
#include "model/lod_summary.h"
#include "model/time_bins.h"
#include "model/trace.h"

namespace macroscope::analysis {

// Slices as a grid over [begin, end): `slices` equal slices of the range
// (Grid(begin, end, slices)), or bins of the trace's time bins
// (Grid::OfBins: model/time_bins.h), each time then in the bin its
// position says, as a window's column, a level-of-detail summary's cell.
struct Grid {
  double begin, end, width;
  int32_t slices;
  Grid(double begin, double end, int32_t slices)
      : begin(begin), end(end), width((end - begin) / slices), slices(slices) {}
  // Bins [first_bin, first_bin + slices) of `level`.
  static Grid OfBins(const TimeBins& bins, int level, uint64_t first_bin, int32_t slices);

  int32_t SliceOf(double t) const;
  // The slice holding t, -1 when none does.
  int32_t SliceAt(double t) const;
  // Calls f(slice, overlap) for every slice [a, b) meets. With bins, an
  // entity inside one bin (by the positions of its ends) gives it its
  // whole length, even 0; one across bins gives each its overlap, if any.
  template <class F>
  void Spread(double a, double b, F&& f) const {
    if (bins) return SpreadOverBins(a, b, f);
    a = std::max(a, begin);
    b = std::min(b, end);
    if (!(a < b)) return;
    for (int32_t s = SliceOf(a); s < slices; ++s) {
      double lo = begin + s * width, hi = s + 1 == slices ? end : lo + width;
      if (lo >= b) break;
      double overlap = std::min(b, hi) - std::max(a, lo);
      if (overlap > 0) f(s, overlap);
    }
  }

  std::optional<TimeBins> bins;
  int level = 0;
  uint64_t first_bin = 0;

 private:
  template <class F>
  void SpreadOverBins(double a, double b, F&& f) const {
    if (b < a) std::swap(a, b);  // as a summary's cell takes it (model/cell_summary.h)
    const uint64_t last_bin = first_bin + static_cast<uint64_t>(slices) - 1;
    const uint64_t ja = bins->Bin(a, level), jb = bins->Bin(b, level);
    if (jb < first_bin || ja > last_bin) return;
    if (ja == jb) return f(static_cast<int32_t>(ja - first_bin), b - a);
    for (uint64_t j = std::max(ja, first_bin); j <= std::min(jb, last_bin); ++j) {
      const double overlap = std::min(b, bins->Edge(j + 1, level)) - std::max(a, bins->Edge(j, level));
      if (overlap > 0) f(static_cast<int32_t>(j - first_bin), overlap);
    }
  }
};

class ModelAccumulator {
 public:
  // The metric's entities over `grid` (the range already checked).
  ModelAccumulator(Metric metric, Grid grid);

  // Room for stores [0, stores): Add() for different stores may then run
  // on different threads at once.
  void Reserve(size_t stores);
  // The chunk's entities, of the trace's store number `index`; chunks of
  // another kind than the metric's are skipped.
  void Add(uint32_t index, const EntityChunk& chunk);
  // One entity of store `index`, whose container is `container`.
  void Add(uint32_t index, ContainerId container, const EntityCopy& e);
  // The entities of a summary's cell (model/lod_summary.h) of store
  // `index`, all inside slice `slice` (the grid's bins): as if added one by
  // one. Not for variable-mean, whose cells lack the weighted sums.
  void AddCell(uint32_t index, ContainerId container, int32_t slice, const LodCell& cell);
  // Store `index` is complete: its series take their final values (sums
  // rounded once, means divided), 8 bytes a slice instead of 16 or 24;
  // nothing may be added to it after. Model() closes the stores
  // still open.
  void Close(uint32_t index);

  // The model over `trace`'s containers and types as they are now, with
  // the request's type and container filters (UserError for an unknown
  // name or path); the range is the grid's. Once: the series move into it.
  MicroModel Model(const Trace& trace, const ModelRequest& request);

 private:
  // One (holder, value) of a store: the holder is the store's container,
  // or a link's sender; the value kEmptyString for variables.
  struct Series {
    ContainerId holder;
    StringId value;
    // The slice entities last fed, summed here until another comes: the
    // series' columns below are then touched once a slice, not once an
    // entity (they were most of the reading's cache misses).
    int32_t slice = -1;
    ExactSum slice_sum;
    double slice_plain = 0;
    // Time sums (state time, variable mean), a slice each: its exact sum
    // as two doubles (ExactSum::AsPair), or, for the few slices fed more
    // than once or whose sum needs more, NaN and the sum in `crowded`.
    std::vector<std::array<double, 2>> sum;
    std::unordered_map<int32_t, ExactSum> crowded;
    std::vector<double> plain;   // counts, minima, maxima (exact as they are)
    std::vector<double> closed;  // once closed: the model's values (sum and plain freed)
  };
  struct StoreSeries {
    std::vector<Series> series;  // in the order first met
    // (holder << 32 | value) -> series, once there are many (a link store:
    // one series per sender and value).
    std::unordered_map<uint64_t, uint32_t> index;
  };
  Series& Find(StoreSeries& store, ContainerId holder, StringId value);
  // What the series holds for its current slice into its columns; then
  // `next` is the current slice.
  void Settle(Series& series, int32_t next) const;
  // What a plain cell holds before any entity: no minimum, no maximum, no count.
  double PlainStart() const;
  // Adds one entity's share `d` of slice `t` (x: a variable's value).
  void Feed(Series& series, int32_t t, double d, double x) const;
  // One entity from [a, b], of `holder` and `value` (after Find).
  void AddOne(Series& series, double a, double b, double x) const;

  Metric metric_;
  TypeKind kind_;
  Grid grid_;
  std::vector<StoreSeries> stores_;
};

// A streaming reading's entities into a ModelAccumulator (the reading's
// thread calls it; model/entity_sink.h).
class ModelSink : public EntitySink {
 public:
  explicit ModelSink(ModelAccumulator& accumulator) : accumulator_(accumulator) {}
  void Completed(const Trace& trace, const EntityChunk& chunk) override;

 private:
  ModelAccumulator& accumulator_;
};

}  // namespace macroscope::analysis
