// `macroscope catalog add|list|info|annotate|rm`: the trace catalog, an
// SQLite file of experiment metadata and saved analysis results
// (docs/catalog.md); runs and rerun are in catalog_runs_command.cc. Every
// subcommand takes --catalog FILE; list and info print JSON with --json.
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog/catalog.h"
#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

using catalog::Catalog;
using catalog::TraceRecord;

std::string FileDate(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return {};
  std::tm tm{};
  gmtime_r(&st.st_mtime, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

TraceRecord FindOrFail(Catalog& cat, const std::string& key) {
  auto record = cat.Find(key);
  if (!record) throw UserError(cat.path() + ": no trace '" + key + "' in the catalog");
  return *record;
}

nlohmann::json TraceJson(const TraceRecord& r) {
  nlohmann::json j;
  j["id"] = r.id;
  j["path"] = r.path;
  j["application"] = r.application;
  j["board"] = r.board;
  j["os"] = r.os;
  j["cpus"] = r.cpus ? nlohmann::json(*r.cpus) : nlohmann::json(nullptr);
  j["events"] = r.events;
  j["producers"] = r.producers;
  j["first_time"] = r.first_time;
  j["last_time"] = r.last_time;
  j["time_unit"] = r.time_unit;
  j["tracing_date"] = r.tracing_date;
  j["description"] = r.description;
  j["added_at"] = r.added_at;
  nlohmann::json parameters = nlohmann::json::object();
  for (auto& [k, v] : r.parameters) parameters[k] = v;
  j["parameters"] = std::move(parameters);
  return j;
}

// Saved JSON text back as JSON (kept as a string if it does not parse).
nlohmann::json Embedded(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  return parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

void RegisterAdd(CLI::App& group) {
  struct Args {
    std::string catalog, file;
    TraceRecord record;
    int64_t cpus = -1;
    std::vector<std::string> params;
    formats::ReadOptions read;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("add", "Read a trace and record it in the catalog with its metadata");
  cmd->add_option("trace", args->file, "Trace file")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_option("--application", args->record.application, "Traced application");
  cmd->add_option("--board", args->record.board, "Board or machine");
  cmd->add_option("--os", args->record.os, "Operating system");
  cmd->add_option("--cpus", args->cpus, "CPU count")->check(CLI::NonNegativeNumber);
  cmd->add_option("--description", args->record.description, "Free description");
  cmd->add_option("--time-unit", args->record.time_unit, "Unit of the trace's timestamps")->capture_default_str();
  cmd->add_option("--date", args->record.tracing_date, "Tracing date (default: the file's modification time)");
  cmd->add_option("--param", args->params, "Free parameter key=value (repeatable)");
  cmd->add_flag("--json", args->json, "Print the new record as JSON");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    TraceRecord record = args->record;
    if (args->cpus >= 0) record.cpus = args->cpus;
    for (auto& p : args->params) {
      auto eq = p.find('=');
      if (eq == std::string::npos || eq == 0) throw UserError("--param '" + p + "': expected key=value");
      record.parameters.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
    // Open the catalog first so a bad catalog is reported before a long read.
    Catalog cat(CatalogFile(args->catalog));
    record.path = catalog::CatalogPath(args->file);
    if (cat.Find(record.path))
      throw UserError(cat.path() + ": " + record.path + " is already in the catalog");
    LoadedTrace loaded;
    LoadTrace({args->file}, args->read, loaded);
    catalog::FillFromTrace(loaded.trace, loaded.stats.events, record);
    if (record.tracing_date.empty()) record.tracing_date = FileDate(args->file);
    record.id = cat.AddTrace(record);
    if (args->json) std::cout << TraceJson(*cat.Find(std::to_string(record.id))).dump(2) << "\n";
    else std::printf("%lld\t%s\n", static_cast<long long>(record.id), record.path.c_str());
  });
}

void RegisterList(CLI::App& group) {
  struct Args {
    std::string catalog;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("list", "The catalogued traces");
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--json", args->json, "Print a JSON array");
  cmd->callback([args] {
    Catalog cat(CatalogFile(args->catalog));
    auto records = cat.List();
    if (args->json) {
      nlohmann::json j = nlohmann::json::array();
      for (auto& r : records) j.push_back(TraceJson(r));
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::printf("%-5s %-12s %10s %9s %-20s %s\n", "id", "application", "events", "producers", "tracing date",
                "path");
    for (auto& r : records)
      std::printf("%-5lld %-12s %10lld %9lld %-20s %s\n", static_cast<long long>(r.id), r.application.c_str(),
                  static_cast<long long>(r.events), static_cast<long long>(r.producers), r.tracing_date.c_str(),
                  r.path.c_str());
  });
}

void RegisterInfo(CLI::App& group) {
  struct Args {
    std::string catalog, trace;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("info", "Metadata, parameters, annotations and saved analyses of a trace");
  cmd->add_option("trace", args->trace, "Catalog id or trace path")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->callback([args] {
    Catalog cat(CatalogFile(args->catalog));
    TraceRecord r = FindOrFail(cat, args->trace);
    nlohmann::json j = TraceJson(r);
    nlohmann::json annotations = nlohmann::json::array();
    for (auto& a : cat.Annotations(r.id))
      annotations.push_back({{"id", a.id},
                             {"kind", a.kind},
                             {"start", a.start},
                             {"end", a.end},
                             {"containers", a.containers},
                             {"text", a.text},
                             {"created_at", a.created_at}});
    j["annotations"] = std::move(annotations);
    nlohmann::json aggregations = nlohmann::json::array();
    for (auto& a : cat.Aggregations(r.id))
      aggregations.push_back({{"id", a.id},
                              {"parameters", Embedded(a.parameters)},
                              {"result", Embedded(a.result)},
                              {"created_at", a.created_at}});
    j["aggregations"] = std::move(aggregations);
    if (args->json) {
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::printf("id:           %lld\n", static_cast<long long>(r.id));
    std::printf("path:         %s\n", r.path.c_str());
    std::printf("application:  %s\nboard:        %s\nos:           %s\n", r.application.c_str(), r.board.c_str(),
                r.os.c_str());
    if (r.cpus) std::printf("cpus:         %lld\n", static_cast<long long>(*r.cpus));
    std::printf("events:       %lld\nproducers:    %lld\n", static_cast<long long>(r.events),
                static_cast<long long>(r.producers));
    std::printf("time span:    %g .. %g %s\n", r.first_time, r.last_time, r.time_unit.c_str());
    std::printf("tracing date: %s\nadded:        %s\n", r.tracing_date.c_str(), r.added_at.c_str());
    if (!r.description.empty()) std::printf("description:  %s\n", r.description.c_str());
    for (auto& [k, v] : r.parameters) std::printf("param:        %s=%s\n", k.c_str(), v.c_str());
    for (auto& a : j["annotations"]) {
      std::string containers;
      for (auto& c : a["containers"]) containers += (containers.empty() ? "" : ",") + c.get<std::string>();
      std::printf("%-10s #%lld %g .. %g%s%s: %s\n", a["kind"].get<std::string>().c_str(),
                  a["id"].get<long long>(), a["start"].get<double>(), a["end"].get<double>(),
                  containers.empty() ? "" : " on ", containers.c_str(), a["text"].get<std::string>().c_str());
    }
    for (auto& a : j["aggregations"])
      std::printf("aggregation #%lld (%s): %s\n", a["id"].get<long long>(),
                  a["created_at"].get<std::string>().c_str(), a["parameters"].dump().c_str());
  });
}

void RegisterAnnotate(CLI::App& group) {
  struct Args {
    std::string catalog, trace, containers, text;
    double start = 0, end = 0;
    bool bookmark = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("annotate", "Attach an annotation or bookmark to a time range of a trace");
  cmd->add_option("trace", args->trace, "Catalog id or trace path")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_option("--start", args->start, "Start of the time range")->required();
  cmd->add_option("--end", args->end, "End of the time range")->required();
  cmd->add_option("--containers", args->containers, "Comma-separated container names (default: all)");
  cmd->add_option("--text", args->text, "Text of the annotation")->required();
  cmd->add_flag("--bookmark", args->bookmark, "Record a bookmark rather than an annotation");
  cmd->callback([args] {
    std::vector<std::string> containers;
    std::stringstream in(args->containers);
    for (std::string c; std::getline(in, c, ',');)
      if (!c.empty()) containers.push_back(c);
    Catalog cat(CatalogFile(args->catalog));
    TraceRecord r = FindOrFail(cat, args->trace);
    int64_t id = cat.AddAnnotation(r.id, args->start, args->end, containers, args->text,
                                   args->bookmark ? "bookmark" : "annotation");
    std::printf("%lld\n", static_cast<long long>(id));
  });
}

void RegisterRemove(CLI::App& group) {
  struct Args {
    std::string catalog, trace;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("rm", "Remove a trace and what was saved on it from the catalog");
  cmd->add_option("trace", args->trace, "Catalog id or trace path")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->callback([args] {
    Catalog cat(CatalogFile(args->catalog));
    TraceRecord r = FindOrFail(cat, args->trace);
    cat.Remove(r.id);
  });
}

}  // namespace

void RegisterCatalogCommand(CLI::App& app) {
  CLI::App* group = app.add_subcommand("catalog", "The trace catalog: metadata, annotations, saved analyses");
  group->require_subcommand(1);
  RegisterAdd(*group);
  RegisterList(*group);
  RegisterInfo(*group);
  RegisterAnnotate(*group);
  RegisterRemove(*group);
  RegisterCatalogRunCommands(*group);
  RegisterCatalogGroupCommand(*group);
}

}  // namespace macroscope::cli
