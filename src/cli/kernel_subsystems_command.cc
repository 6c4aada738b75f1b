// `macroscope kernel subsystems TRACE`: events and time per kernel subsystem
// (tracepoint prefix classes), overall and per process
// (docs/kernel.md). The counting is analysis::kernel::
// SubsystemTally's, the workflow module kernel-subsystems' too.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/kernel/subsystems.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::SubsystemName;
using analysis::kernel::SubsystemRow;
using analysis::kernel::SubsystemTally;

// Overall event counts from the trace's own events (for CTF babeltrace2's
// event messages, for ftrace trace-cmd's records, read raw), times and the
// per-owner rows from the model.
std::vector<SubsystemRow> Tally(const std::vector<std::string>& files, const formats::ReadOptions& read) {
  SubsystemTally model;
  Trace model_trace;
  StreamEntities(files, read, model_trace, [&](const Trace& t, const analysis::EntityRecord& r) { model.Add(t, r); });
  std::vector<SubsystemRow> rows = model.Rows(model_trace);
  const std::string_view format = formats::Detect(files.front()).name;
  if (format != "ctf" && format != "ftrace") return rows;  // its entities are its events
  SubsystemTally raw;
  Trace raw_trace;
  formats::ReadOptions raw_options = read;
  raw_options.events_only = true;
  StreamEntities(files, raw_options, raw_trace,
                 [&](const Trace& t, const analysis::EntityRecord& r) { raw.Add(t, r); });
  const std::vector<SubsystemRow> raw_rows = raw.Rows(raw_trace);
  for (size_t c = 0; c < analysis::kernel::kSubsystemCount; ++c) rows[c].figures.events = raw_rows[c].figures.events;
  return rows;
}

}  // namespace

void RegisterKernelSubsystems(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string format = "text";
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "subsystems", "Events and time per kernel subsystem (tracepoint prefix), overall and per process");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    const std::vector<SubsystemRow> rows = Tally(args->files, args->read);
    if (args->format == "json") {
      nlohmann::json out = {{"overall", nlohmann::json::array()}, {"owners", nlohmann::json::array()}};
      for (const SubsystemRow& r : rows) {
        nlohmann::json row = {{"subsystem", SubsystemName(r.subsystem)},
                              {"events", r.figures.events},
                              {"states", r.figures.states},
                              {"time_ns", r.figures.time_ns}};
        if (r.owner_type == "all") {
          out["overall"].push_back(row);
        } else {
          row["owner"] = r.owner;
          row["owner_type"] = r.owner_type;
          out["owners"].push_back(row);
        }
      }
      std::cout << out.dump(2) << "\n";
    } else if (args->format == "csv") {
      std::printf("owner,owner_type,subsystem,events,states,time_ns\n");
      for (const SubsystemRow& r : rows)
        std::printf("%s,%s,%s,%llu,%llu,%lld\n", CsvField(r.owner).c_str(), CsvField(r.owner_type).c_str(),
                    std::string(SubsystemName(r.subsystem)).c_str(), static_cast<unsigned long long>(r.figures.events),
                    static_cast<unsigned long long>(r.figures.states), static_cast<long long>(r.figures.time_ns));
    } else {
      std::printf("%-10s %12s %12s %20s\n", "subsystem", "events", "states", "time (ns)");
      size_t i = 0;
      for (; i < rows.size() && rows[i].owner_type == "all"; ++i)
        std::printf("%-10s %12llu %12llu %20lld\n", std::string(SubsystemName(rows[i].subsystem)).c_str(),
                    static_cast<unsigned long long>(rows[i].figures.events),
                    static_cast<unsigned long long>(rows[i].figures.states),
                    static_cast<long long>(rows[i].figures.time_ns));
      if (i < rows.size())
        std::printf(
            "\nper owner (a thread's process, else the CPU or stream; model events and states)\n"
            "%-32s %-8s %-10s %10s %10s %20s\n",
            "owner", "type", "subsystem", "events", "states", "time (ns)");
      for (; i < rows.size(); ++i)
        std::printf("%-32s %-8s %-10s %10llu %10llu %20lld\n", rows[i].owner.c_str(), rows[i].owner_type.c_str(),
                    std::string(SubsystemName(rows[i].subsystem)).c_str(),
                    static_cast<unsigned long long>(rows[i].figures.events),
                    static_cast<unsigned long long>(rows[i].figures.states),
                    static_cast<long long>(rows[i].figures.time_ns));
    }
  });
}

}  // namespace macroscope::cli
