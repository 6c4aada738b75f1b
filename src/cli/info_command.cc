// `macroscope info`: what a trace holds — time span, containers per type,
// entities per kind and type, declared values — as text or JSON.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "analysis/time_json.h"
#include "cli/trace_loading.h"
#include "mpi/count_reduction.h"
#include "mpi/world.h"

namespace macroscope::cli {

namespace {

// Entities per entity type, by type id: what each part of a trace read in
// parts counts of its own, summed on part 0.
std::vector<uint64_t> EntitiesByType(const Trace& t) {
  std::vector<uint64_t> entities_of(t.types().size(), 0);
  for (auto& s : t.stores()) entities_of[s.type] += s.size();
  return entities_of;
}

nlohmann::json Describe(const LoadedTrace& loaded, const std::vector<uint64_t>& entities_of,
                        const std::vector<std::string>& files) {
  const Trace& t = loaded.trace;
  nlohmann::json j;
  j["files"] = files;
  j["bytes"] = loaded.stats.bytes;
  j["events"] = loaded.stats.events;
  // Model times, in the unit and from the origin "time" describes.
  j["start"] = t.start_time();
  j["end"] = t.end_time();
  j["time"] = TimeBaseJson(t);
  j["time"]["length"] = HumanSeconds(t.time_base().Seconds(t.end_time() - t.start_time()), 0, false);
  const std::string wall_end = WallClock(t.time_base(), t.end_time());
  if (!wall_end.empty()) j["time"]["wall_clock_end"] = wall_end;
  // Containers per container type, entities per entity type.
  std::map<TypeId, size_t> containers_of;
  for (size_t c = 1; c < t.containers().size(); ++c) containers_of[t.container(static_cast<ContainerId>(c)).type]++;
  std::map<TypeId, size_t> values_of;
  for (auto& v : t.values()) values_of[v.type]++;
  nlohmann::json types = nlohmann::json::array();
  for (size_t id = 1; id < t.types().size(); ++id) {
    const Type& ty = t.type(static_cast<TypeId>(id));
    nlohmann::json e;
    e["name"] = t.Str(ty.name);
    e["alias"] = t.Str(ty.alias);
    e["kind"] = TypeKindName(ty.kind);
    e["parent"] = t.Str(t.type(ty.parent).name);
    if (ty.kind == TypeKind::kContainer) {
      e["containers"] = containers_of[static_cast<TypeId>(id)];
    } else {
      e["entities"] = entities_of[static_cast<TypeId>(id)];
      if (ty.kind != TypeKind::kVariable) e["declared_values"] = values_of[static_cast<TypeId>(id)];
    }
    types.push_back(std::move(e));
  }
  j["types"] = std::move(types);
  nlohmann::json kinds;
  for (TypeKind k : {TypeKind::kState, TypeKind::kEvent, TypeKind::kLink, TypeKind::kVariable}) {
    uint64_t n = 0;
    for (size_t id = 1; id < t.types().size(); ++id)
      if (t.type(static_cast<TypeId>(id)).kind == k) n += entities_of[id];
    kinds[std::string(TypeKindName(k))] = n;
  }
  kinds["container"] = t.containers().size() - 1;
  j["totals"] = std::move(kinds);
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
  std::printf("\n\n%-10s %-28s %-20s %12s\n", "kind", "type", "parent type", "count");
  for (auto& e : j["types"]) {
    auto count = e.contains("containers") ? e["containers"] : e["entities"];
    std::printf("%-10s %-28s %-20s %12llu\n", e["kind"].get<std::string>().c_str(),
                e["name"].get<std::string>().c_str(), e["parent"].get<std::string>().c_str(),
                count.get<unsigned long long>());
  }
  if (!j["values"].empty()) {
    std::printf("\n%-28s %-28s %s\n", "type", "value", "alias");
    for (auto& v : j["values"])
      std::printf("%-28s %-28s %s\n", v["type"].get<std::string>().c_str(), v["name"].get<std::string>().c_str(),
                  v["alias"].get<std::string>().c_str());
  }
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
    LoadedTrace loaded;
    LoadTrace(args->files, read, loaded);
    std::vector<uint64_t> entities_of = EntitiesByType(loaded.trace);
    if (read.share) entities_of = mpi::ReduceCounts(entities_of, *read.share);
    mpi::OnRoot(world, [&] {
      nlohmann::json j = Describe(loaded, entities_of, args->files);
      if (args->json) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      else PrintText(j);
    });
  });
}

}  // namespace macroscope::cli
