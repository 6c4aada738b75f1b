// Micro-benchmarks of aggregation on the seed's synthetic shape: a 4-level
// decimal tree (1 + 10 + 100 + 1000 nodes) whose 1000 leaves each run a
// sequence of contiguous states of 10 types drawn uniformly, with integer
// durations uniform in 1..100; the metric is state time per slice.
//
// Each benchmark reports, beside its time, a counter `speedup_vs_seed`: the
// seed's published figure (Java + C++ on a 4-core Xeon E3-1225 v3) divided
// by the measured wall time of one iteration.
#include <benchmark/benchmark.h>

#include <chrono>
#include <random>

#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "analysis/spatiotemporal_partition.h"
#include "analysis/temporal_partition.h"

namespace macroscope::analysis {
namespace {

constexpr int kTypes = 10;
constexpr double kTraceLength = 100000;

// Builds "<prefix><i>" (appending avoids a GCC 12 -Wrestrict false alarm).
std::string Numbered(const char* prefix, int i) {
  std::string name(prefix);
  name += std::to_string(i);
  return name;
}

MicroModel SyntheticModel(int32_t slices) {
  Hierarchy tree;
  for (int a = 0; a < 10; ++a) {
    NodeId na = tree.AddChild(Hierarchy::kRoot, Numbered("c", a));
    for (int b = 0; b < 10; ++b) {
      NodeId nb = tree.AddChild(na, Numbered("c", b));
      for (int c = 0; c < 10; ++c) tree.AddChild(nb, Numbered("c", c));
    }
  }
  std::vector<std::string> types;
  for (int t = 0; t < kTypes; ++t) types.push_back(Numbered("state", t));
  MicroModel model(std::move(tree), types, slices);
  model.set_range({0, kTraceLength, {}});
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> type_of(0, kTypes - 1);
  std::uniform_int_distribution<int> duration_of(1, 100);
  const double width = kTraceLength / slices;
  for (NodeId leaf : model.leaves()) {
    double t = 0;
    while (t < kTraceLength) {
      int type = type_of(rng);
      double end = std::min(kTraceLength, t + duration_of(rng));
      // Spread [t, end) over the slices it overlaps.
      for (double x = t; x < end;) {
        int32_t slice = std::min<int32_t>(slices - 1, static_cast<int32_t>(x / width));
        double slice_end = std::min(end, (slice + 1) * width);
        model.Add(leaf, type, slice, slice_end - x);
        x = slice_end;
      }
      t = end;
    }
  }
  return model;
}

// Counts the best-cut runs a p-list method asks for.
class CountingAggregation : public Aggregation {
 public:
  explicit CountingAggregation(const Aggregation& inner) : inner_(inner) {}
  int32_t slices() const override { return inner_.slices(); }
  Quality FullAggregate() const override { return inner_.FullAggregate(); }
  Quality Evaluate(double p, const Cancellation* cancel = nullptr) const override {
    ++evaluations_;
    return inner_.Evaluate(p, cancel);
  }
  Partition Best(double p, const Cancellation* cancel = nullptr) const override {
    ++evaluations_;
    return inner_.Best(p, cancel);
  }
  bool normalized() const override { return inner_.normalized(); }
  size_t bytes() const override { return inner_.bytes(); }
  int64_t evaluations() const { return evaluations_; }

 private:
  const Aggregation& inner_;
  mutable int64_t evaluations_ = 0;
};

template <typename Fn>
void Timed(benchmark::State& state, double seed_seconds, Fn fn) {
  double total = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    fn();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  double per_iteration = total / static_cast<double>(state.iterations());
  if (seed_seconds > 0) state.counters["speedup_vs_seed"] = seed_seconds / per_iteration;
}

void BM_TemporalQualities(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  Timed(state, state.range(0) == 100 ? 1.19 : 0,
        [&] { benchmark::DoNotOptimize(TemporalQualities::Compute(model)); });
}
BENCHMARK(BM_TemporalQualities)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

// One cut step an iteration, p sweeping [0.1, 0.9] by 0.01.
template <class Step>
void SweepP(benchmark::State& state, Step step) {
  double p = 0.3;
  Timed(state, 0, [&] {
    benchmark::DoNotOptimize(step(p));
    p = p > 0.9 ? 0.1 : p + 0.01;
  });
}

void BM_TemporalChangeP(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  TemporalAggregation aggregation(TemporalQualities::Compute(model));
  SweepP(state, [&](double p) { return aggregation.Best(p); });
}
BENCHMARK(BM_TemporalChangeP)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

void BM_TemporalPListExact(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  TemporalAggregation aggregation(TemporalQualities::Compute(model));
  size_t entries = 0;
  Timed(state, 0, [&] { entries = SignificantPsExact(aggregation).size(); });
  state.counters["p_values"] = static_cast<double>(entries);
}
BENCHMARK(BM_TemporalPListExact)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

void BM_SpatiotemporalQualities(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  Timed(state, 0, [&] { benchmark::DoNotOptimize(SpatiotemporalQualities::Compute(model)); });
}
BENCHMARK(BM_SpatiotemporalQualities)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Iterations(3);

void BM_SpatiotemporalPListExact(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  CountingAggregation counting(aggregation);
  size_t entries = 0;
  Timed(state, state.range(0) == 30 ? 27.4 : 0,
        [&] { entries = SignificantPsExact(counting).size(); });
  state.counters["p_values"] = static_cast<double>(entries);
  state.counters["cut_runs"] = static_cast<double>(counting.evaluations());
}
BENCHMARK(BM_SpatiotemporalPListExact)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Iterations(1);

void BM_SpatiotemporalPListDichotomy(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  CountingAggregation counting(aggregation);
  size_t entries = 0;
  Timed(state, 27.4, [&] { entries = SignificantPsDichotomy(counting, 0.001).size(); });
  state.counters["p_values"] = static_cast<double>(entries);
  state.counters["cut_runs"] = static_cast<double>(counting.evaluations());
}
BENCHMARK(BM_SpatiotemporalPListDichotomy)
    ->Arg(30)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Iterations(1);

void BM_SpatiotemporalChangeP(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  SweepP(state, [&](double p) { return aggregation.Best(p); });
}
BENCHMARK(BM_SpatiotemporalChangeP)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

// The cut step alone, as the p list runs it: the optimal quality, no
// partition rebuilt.
void BM_SpatiotemporalEvaluate(benchmark::State& state) {
  MicroModel model = SyntheticModel(static_cast<int32_t>(state.range(0)));
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  SweepP(state, [&](double p) { return aggregation.Evaluate(p); });
}
BENCHMARK(BM_SpatiotemporalEvaluate)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

}  // namespace
}  // namespace macroscope::analysis

BENCHMARK_MAIN();
