// `macroscope kernel memory TRACE`: memory in use per process from
// LTTng-UST's libc wrapper events, by the one memory tracker
// (analysis/kernel/memory_tracker.h; docs/kernel.md). The trace is
// streamed in the CTF reader's events-only mode: only the lttng_ust_libc
// events are kept, then applied in time order.
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/entity_selection.h"
#include "analysis/kernel/memory_tracker.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::LibcEvent;
using analysis::kernel::MemoryFigures;
using analysis::kernel::MemoryTracker;

// Keeps the lttng_ust_libc events of every store the reader completes.
class LibcEvents : public EntitySink {
 public:
  void Completed(const Trace& trace, const EntityStore& store, size_t begin, size_t end) override {
    if (store.kind != TypeKind::kEvent || store.value.empty()) return;
    for (size_t i = begin; i < end; ++i) {
      std::string_view name = trace.Str(store.value[i]);
      if (!analysis::kernel::LibcCallOf(name)) continue;
      fields_.clear();
      store.extras.ForEach(i, [&](const ExtraField& f) { fields_.push_back(f); });
      std::optional<LibcEvent> e = analysis::kernel::ParseLibcEvent(name, fields_, trace.strings());
      e->time_ns = analysis::Nanoseconds(trace.time_base(), store.start[i]);
      events.push_back(std::move(*e));
    }
  }
  std::vector<LibcEvent> events;

 private:
  std::vector<ExtraField> fields_;
};

nlohmann::json Json(const MemoryFigures& f, bool global) {
  nlohmann::json j;
  if (!global) {
    j["pid"] = f.pid;
    j["name"] = f.name;
  }
  j["allocations"] = f.allocations;
  j["frees"] = f.frees;
  j["reallocs"] = f.reallocs;
  j["moves"] = f.moves;
  j["free_null"] = f.free_null;
  j["unknown_frees"] = f.unknown_frees;
  j["peak_bytes"] = f.peak_bytes;
  j["peak_time_ns"] = f.peak_time_ns;
  j["final_bytes"] = f.bytes;
  return j;
}

}  // namespace

void RegisterKernelMemory(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    std::string format = "text";
    bool series = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "memory", "Memory in use per process from LTTng-UST's libc wrapper (malloc, free, ...): peak, final, counts");
  cmd->add_option("files", args->files, "The trace (a CTF folder), or files read in order as one trace")->required();
  cmd->add_option("--format", args->format, "text, csv or json")->check(CLI::IsMember({"text", "csv", "json"}));
  cmd->add_flag("--series", args->series,
                "Instead of the figures, the bytes in use over time: time_ns, pid, bytes at each change");
  cmd->callback([args] {
    LibcEvents sink;
    formats::ReadOptions options;
    options.events_only = true;
    options.sink = &sink;
    Trace trace;
    formats::ReadTrace(args->files, options, trace);

    MemoryTracker tracker;
    struct Point {
      int64_t time_ns, pid, bytes;
    };
    std::vector<Point> series;
    if (args->series)
      tracker.ApplyAll(sink.events, [&](int64_t t, int64_t pid, int64_t bytes) { series.push_back({t, pid, bytes}); });
    else
      tracker.ApplyAll(sink.events);

    if (args->series) {
      if (args->format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const Point& p : series) rows.push_back({{"time_ns", p.time_ns}, {"pid", p.pid}, {"bytes", p.bytes}});
        std::cout << rows.dump(2) << "\n";
      } else {
        const bool csv = args->format == "csv";
        if (csv)
          std::printf("time_ns,pid,bytes\n");
        else
          std::printf("%20s %10s %16s\n", "time_ns", "pid", "bytes");
        for (const Point& p : series) {
          if (csv)
            std::printf("%" PRId64 ",%" PRId64 ",%" PRId64 "\n", p.time_ns, p.pid, p.bytes);
          else
            std::printf("%20" PRId64 " %10" PRId64 " %16" PRId64 "\n", p.time_ns, p.pid, p.bytes);
        }
      }
      return;
    }
    std::vector<MemoryFigures> processes = tracker.Processes();
    const MemoryFigures& all = tracker.Global();
    if (args->format == "json") {
      nlohmann::json out;
      out["processes"] = nlohmann::json::array();
      for (const MemoryFigures& f : processes) out["processes"].push_back(Json(f, false));
      out["all"] = Json(all, true);
      std::cout << out.dump(2) << "\n";
    } else if (args->format == "csv") {  // the module's rows (kernel-memory): all processes last, pid empty
      std::printf("pid,name,allocations,frees,reallocs,moves,free_null,unknown_frees,peak_bytes,peak_time_ns,"
                  "final_bytes\n");
      auto row = [](const std::string& pid, const std::string& name, const MemoryFigures& f) {
        std::printf("%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64
                    ",%" PRId64 ",%" PRId64 "\n",
                    pid.c_str(), CsvField(name).c_str(), f.allocations, f.frees, f.reallocs, f.moves, f.free_null,
                    f.unknown_frees, f.peak_bytes, f.peak_time_ns, f.bytes);
      };
      for (const MemoryFigures& f : processes) row(std::to_string(f.pid), f.name, f);
      row("", "(all)", all);
    } else {
      std::printf("%8s %-16s %11s %11s %9s %7s %9s %13s %14s %14s\n", "pid", "name", "allocations", "frees",
                  "reallocs", "moves", "free_null", "unknown_frees", "peak_bytes", "final_bytes");
      auto row = [](const std::string& pid, const std::string& name, const MemoryFigures& f) {
        std::printf("%8s %-16s %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " %7" PRIu64 " %9" PRIu64 " %13" PRIu64
                    " %14" PRId64 " %14" PRId64 "\n",
                    pid.c_str(), name.c_str(), f.allocations, f.frees, f.reallocs, f.moves, f.free_null,
                    f.unknown_frees, f.peak_bytes, f.bytes);
      };
      for (const MemoryFigures& f : processes) row(f.pid < 0 ? "-" : std::to_string(f.pid), f.name, f);
      row("all", "", all);
      if (processes.empty())
        std::printf("(no lttng_ust_libc events: record with liblttng-ust-libc-wrapper.so preloaded)\n");
    }
  });
}

}  // namespace macroscope::cli
