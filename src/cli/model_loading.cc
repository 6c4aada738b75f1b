#include "cli/model_loading.h"

#include <algorithm>
#include <chrono>

#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/model_accumulator.h"
#include "analysis/model_cache.h"
#include "analysis/model_csv.h"
#include "analysis/model_filters.h"
#include "analysis/trace_model.h"
#include "cli/trace_loading.h"
#include "mpi/model_reduction.h"
#include "store/store_source.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

double Since(std::chrono::steady_clock::time_point& last) {
  auto now = std::chrono::steady_clock::now();
  double s = std::chrono::duration<double>(now - last).count();
  last = now;
  return s;
}

// What identifies a model in the cache: the trace files as they are now,
// how they are read, the metric and the range.
std::string CacheKey(const ModelSource& s) {
  nlohmann::json key;
  for (const auto& f : s.trace) {
    struct stat st {};
    if (f == "-" || stat(f.c_str(), &st) != 0) return {};  // standard input and missing files: no cache
    std::error_code ec;
    key["files"].push_back({std::filesystem::weakly_canonical(f, ec).string(), static_cast<int64_t>(st.st_size),
                            static_cast<int64_t>(st.st_mtim.tv_sec), static_cast<int64_t>(st.st_mtim.tv_nsec)});
  }
  key["metric"] = s.metric;
  key["start"] = s.start ? nlohmann::json(*s.start) : nlohmann::json("trace");
  key["end"] = s.end ? nlohmann::json(*s.end) : nlohmann::json("trace");
  key["read"] = {s.read.paje.no_strict, s.read.paje.simulator.no_imbrication,
                 s.read.paje.simulator.ignore_incomplete_links};
  return key.dump();
}

// --start/--end to model times of a trace with this time base and start.
analysis::TimeRange ParseRange(const TimeBase& base, double trace_start, const std::string& start,
                               const std::string& end) {
  analysis::TimeRange range{ParseTime(base, start, trace_start, "--start"), ParseTime(base, end, trace_start, "--end"),
                            base};
  if (!(range.begin < range.end)) throw UserError("--start must be before --end");
  return range;
}

// The model of one Pajé file built while it is read (trace_loading.h
// StreamPaje: the trace is not kept, so a first overview needs a fraction
// of the memory and no time to build the model after), when no range is
// asked. Nothing when it cannot be so; the caller then reads the trace
// whole.
std::optional<analysis::MicroModel> StreamModel(const ModelSource& source, const analysis::ModelRequest& request) {
  if (source.start || source.end) return std::nullopt;
  std::optional<analysis::ModelAccumulator> accumulator;
  std::optional<analysis::ModelSink> sink;
  LoadedTrace loaded;
  const bool streamed = StreamPaje(source.trace, source.read, [&](double end) -> EntitySink* {
    accumulator.emplace(request.metric, analysis::Grid(0, end, request.slices));
    return &sink.emplace(*accumulator);
  }, loaded);
  if (!streamed) return std::nullopt;
  return accumulator->Model(loaded.trace, request);
}

}  // namespace

analysis::MicroModel LoadModel(const ModelSource& source, ModelTimings* timings) {
  auto last = std::chrono::steady_clock::now();
  std::optional<analysis::MicroModel> model;
  if (!source.model_in.empty()) {
    model.emplace(analysis::ReadModelCsv(source.model_in, source.slices));
    timings->read = Since(last);
    if (source.start && source.end)  // a CSV model has no clock: plain numbers, +offsets from 0
      model->set_range(ParseRange(TimeBase{}, 0, *source.start, *source.end));
  } else {
    auto metric = analysis::MetricFromName(source.metric);
    if (!metric) {
      std::string known;
      for (const auto& name : analysis::MetricNames()) known += (known.empty() ? "" : ", ") + name;
      throw UserError("unknown --metric '" + source.metric + "' (known: " + known + ")");
    }
    const int32_t slices = source.slices.value_or(analysis::kDefaultSlices);
    if (slices < 1) throw UserError("--slices must be at least 1");
    // Bins are the trace's, not a multiple of the asked count: no cache.
    const std::string key = source.cache_directory.empty() || source.bins ? std::string() : CacheKey(source);
    // A model read in parts (each part holds a share) skips the cache, but
    // is built with the cache's slices: the same model to the bit.
    analysis::ModelCache cache(key.empty() || source.read.share ? std::string() : source.cache_directory);
    model = cache.Find(key, slices, analysis::Additive(*metric));
    timings->from_cache = model.has_value();
    if (!model) {
      analysis::ModelRequest request;
      request.metric = *metric;
      request.slices = key.empty() || !analysis::Additive(*metric) ? slices : analysis::CachedSlices(slices);
      request.threads = source.read.threads;
      request.bins = source.bins;
      // The asked range, in the times of the trace read.
      auto with_range = [&](const Trace& t) {
        if (source.start && source.end) {
          analysis::TimeRange range = ParseRange(t.time_base(), t.start_time(), *source.start, *source.end);
          request.start = range.begin;
          request.end = range.end;
        }
        return request;
      };
      if (!source.bins) model = StreamModel(source, request);  // the read's time then includes the model's
      if (!model && source.trace.size() == 1 && store::IsChunkedStore(source.trace.front())) {
        // A chunked store: the chunks that meet the range, or its summaries.
        store::StoreSource store(source.trace.front(), store::CacheBudget::Scanning());
        timings->read = Since(last);
        model.emplace(analysis::BuildModel(store, with_range(store.trace())));
      } else if (!model) {
        LoadedTrace loaded;
        LoadTrace(source.trace, source.read, loaded);
        timings->read = Since(last);
        model.emplace(analysis::BuildModel(loaded.trace, with_range(loaded.trace)));
        if (source.read.share) model.emplace(mpi::ReduceModel(*model, *source.read.share));
      } else {
        timings->read = Since(last);
      }
      if (!key.empty()) cache.Store(key, *model);
      if (request.slices != slices) model.emplace(model->Coarsen(request.slices / slices));
    }
  }
  model.emplace(analysis::FilterModel(std::move(*model), source.types, source.containers));
  timings->model = Since(last);
  return std::move(*model);
}

}  // namespace macroscope::cli
