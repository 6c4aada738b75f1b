// `macroscope info`: what a trace holds — time span, containers per type,
// entities per kind and type, declared values — as text or JSON.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/table_writer.h"
#include "analysis/time_json.h"
#include "analysis/trace_summary.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "mpi/count_reduction.h"
#include "mpi/world.h"

namespace macroscope::cli {

namespace {

nlohmann::json Describe(const LoadedTrace& loaded, const analysis::TraceSummary& summary,
                        const std::vector<std::string>& files) {
  const Trace& t = loaded.trace;
  nlohmann::json j;
  j["files"] = files;
  j["bytes"] = loaded.stats.bytes;
  j["events"] = loaded.stats.events;
  // Model times, in the unit and from the origin "time" describes.
  j["start"] = summary.start;
  j["end"] = summary.end;
  j["time"] = TimeBaseJson(t);
  j["time"]["length"] = HumanSeconds(t.time_base().Seconds(summary.end - summary.start), 0, false);
  const std::string wall_end = WallClock(t.time_base(), summary.end);
  if (!wall_end.empty()) j["time"]["wall_clock_end"] = wall_end;
  nlohmann::json types = nlohmann::json::array();
  for (TypeId id = 1; id < t.types().size(); ++id) {
    const Type& ty = t.type(id);
    nlohmann::json e;
    e["name"] = t.Str(ty.name);
    e["alias"] = t.Str(ty.alias);
    e["kind"] = TypeKindName(ty.kind);
    e["parent"] = t.Str(t.type(ty.parent).name);
    if (ty.kind == TypeKind::kContainer) {
      e["containers"] = summary.containers[id];
    } else {
      e["entities"] = summary.entities[id];
      if (ty.kind != TypeKind::kVariable) e["declared_values"] = summary.declared_values[id];
    }
    types.push_back(std::move(e));
  }
  j["types"] = std::move(types);
  j["totals"] = analysis::TotalsJson(summary);
  nlohmann::json values = nlohmann::json::array();
  for (auto& v : t.values())
    values.push_back({{"type", t.Str(t.type(v.type).name)}, {"name", t.Str(v.name)}, {"alias", t.Str(v.alias)},
                      {"color", t.Str(v.color)}});
  j["values"] = std::move(values);
  return j;
}

void PrintText(const nlohmann::json& j) {
  // replace: names read from traces (and file names) need not be UTF-8.
  std::printf("files:      %s\n", j["files"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  std::printf("size:       %llu bytes, %llu events\n", j["bytes"].get<unsigned long long>(),
              j["events"].get<unsigned long long>());
  const auto& time = j["time"];
  std::printf("length:     %s (from %s s of the trace clock; one tick: %s)\n",
              time["length"].get<std::string>().c_str(), time["clock_start"].get<std::string>().c_str(),
              time["unit"].get<std::string>().c_str());
  if (!time["wall_clock_start"].is_null())
    std::printf("wall clock: %s .. %s UTC\n", time["wall_clock_start"].get<std::string>().c_str(),
                time["wall_clock_end"].get<std::string>().c_str());
  std::printf("totals:    ");
  for (auto& [k, v] : j["totals"].items()) std::printf(" %s %llu", k.c_str(), v.get<unsigned long long>());
  std::printf("\n\n");
  analysis::Table types({"kind", "type", "parent type", "count"});
  for (auto& e : j["types"]) {
    types.Put(e["kind"].get<std::string>());
    types.Put(e["name"].get<std::string>());
    types.Put(e["parent"].get<std::string>());
    types.Put((e.contains("containers") ? e["containers"] : e["entities"]).get<uint64_t>());
  }
  std::fputs(analysis::FormatTable(types, analysis::TableFormat::kText).c_str(), stdout);
  if (j["values"].empty()) return;
  analysis::Table values({"type", "value", "alias"});
  for (auto& v : j["values"])
    for (const char* key : {"type", "name", "alias"}) values.Put(v[key].get<std::string>());
  std::printf("\n%s", analysis::FormatTable(values, analysis::TableFormat::kText).c_str());
}

}  // namespace

void RegisterInfoCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("info", "Time span, types, containers, entities and values of a trace");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_flag("--json", args->json, "Print JSON (shape documented in docs/info.md)");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    // Under mpirun: every process reads its byte range of a Pajé file, its
    // locations of an OTF2 archive or its share of a CTF trace's streams,
    // rank 0 sums the entities per type and alone prints (docs/mpi.md); the
    // types and containers are the same in every process.
    mpi::World* world = mpi::Launched();
    formats::ReadOptions read = args->read;
    read.share = mpi::ShareByRange(args->files);
    read.description_only = true;  // a store answers from its directories
    LoadedTrace loaded;
    LoadTrace(args->files, read, loaded);
    analysis::TraceSummary summary = analysis::SummarizeTrace(loaded.trace, loaded.stats.store_sizes);
    if (read.share) summary.entities = mpi::ReduceCounts(summary.entities, *read.share);
    mpi::OnRoot(world, [&] {
      nlohmann::json j = Describe(loaded, summary, args->files);
      if (args->json) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      else PrintText(j);
    });
  });
}

}  // namespace macroscope::cli
