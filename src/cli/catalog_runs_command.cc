// `macroscope catalog runs` and `catalog rerun ID`: the workflow runs the
// catalog recorded (docs/workflows.md), listed and repeated. A rerun uses
// the workflow texts and parameters the run kept, not today's files, and
// warns when an input's checksum changed since.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/workflow_running.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

nlohmann::json RunJson(const catalog::RunRecord& run) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : run.files)
    files.push_back({{"role", f.role}, {"path", f.path}, {"bytes", f.bytes}, {"checksum", f.checksum}});
  return {{"id", run.id},
          {"workflow", run.workflow_path},
          {"parameters", nlohmann::json::parse(run.parameters, nullptr, false)},
          {"started_at", run.started_at},
          {"ended_at", run.ended_at},
          {"outcome", run.outcome},
          {"message", run.message},
          {"rerun_of", run.rerun_of ? nlohmann::json(*run.rerun_of) : nlohmann::json(nullptr)},
          {"files", std::move(files)}};
}

void RegisterRuns(CLI::App& group) {
  struct Args {
    std::string catalog;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("runs", "The recorded runs of workflows (macroscope run)");
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--json", args->json, "Print a JSON array (workflow, parameters, files with checksums)");
  cmd->callback([args] {
    catalog::Catalog cat(CatalogFile(args->catalog));
    auto runs = cat.Runs();
    if (args->json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& run : runs) j.push_back(RunJson(run));
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::printf("%-5s %-10s %-24s %-24s %s\n", "id", "outcome", "started", "ended", "workflow (parameters)");
    for (const auto& run : runs)
      std::printf("%-5lld %-10s %-24s %-24s %s %s\n", static_cast<long long>(run.id), run.outcome.c_str(),
                  run.started_at.c_str(), run.ended_at.c_str(), run.workflow_path.c_str(), run.parameters.c_str());
  });
}

void RegisterRerun(CLI::App& group) {
  struct Args {
    std::string catalog;
    int64_t id = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("rerun", "Run a recorded run again: the same workflow text and parameters");
  cmd->add_option("id", args->id, "The run's id (catalog runs)")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->callback([args] {
    const std::string file = CatalogFile(args->catalog);
    std::optional<catalog::RunRecord> run = catalog::Catalog(file).FindRun(args->id);
    if (!run) throw UserError(file + ": no run " + std::to_string(args->id) + " in the catalog");
    auto texts = nlohmann::json::parse(run->workflows, nullptr, false);
    auto parameters = nlohmann::json::parse(run->parameters, nullptr, false);
    if (!texts.is_object() || !parameters.is_object())
      throw UserError(file + ": run " + std::to_string(args->id) + " has an unreadable record");
    auto loader = [&](const std::string& path) -> std::string {
      auto it = texts.find(path);
      if (it == texts.end() || !it->is_string())
        throw UserError(file + ": run " + std::to_string(args->id) + " kept no text of " + path);
      return it->get<std::string>();
    };
    auto workflow = pipeline::WorkflowFile::Load(run->workflow_path, loader);
    RunRequest request;
    for (auto& [name, value] : parameters.items())
      if (value.is_string()) request.values[name] = value.get<std::string>();
    request.catalog = file;
    request.rerun_of = run->id;
    RunWorkflowFile(workflow, request);
  });
}

}  // namespace

void RegisterCatalogRunCommands(CLI::App& group) {
  RegisterRuns(group);
  RegisterRerun(group);
}

}  // namespace macroscope::cli
