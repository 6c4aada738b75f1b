// `macroscope catalog group add NAME TRACE…`, `catalog group list`,
// `catalog group show NAME`: groups of traces in the catalog, the runs of
// one experiment that `macroscope campaign --group NAME` reads
// (docs/catalog.md).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

void RegisterGroupAdd(CLI::App& group) {
  struct Args {
    std::string catalog, name;
    std::vector<std::string> traces;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("add", "Add traces to a group (created when new), in order");
  cmd->add_option("name", args->name, "The group's name")->required();
  cmd->add_option("traces", args->traces, "Trace files or folders")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->callback([args] {
    for (const std::string& trace : args->traces) {
      std::error_code error;
      if (!std::filesystem::exists(trace, error)) throw UserError(trace + ": no such file or folder");
    }
    catalog::Catalog(CatalogFile(args->catalog)).AddToGroup(args->name, args->traces);
  });
}

void RegisterGroupList(CLI::App& group) {
  struct Args {
    std::string catalog;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("list", "The groups and how many traces each has");
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--json", args->json, "Print a JSON array");
  cmd->callback([args] {
    const auto groups = catalog::Catalog(CatalogFile(args->catalog)).Groups();
    if (args->json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& [name, count] : groups) j.push_back({{"name", name}, {"traces", count}});
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::printf("%-24s %s\n", "group", "traces");
    for (const auto& [name, count] : groups) std::printf("%-24s %lld\n", name.c_str(), static_cast<long long>(count));
  });
}

void RegisterGroupShow(CLI::App& group) {
  struct Args {
    std::string catalog, name;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand("show", "A group's traces, in order");
  cmd->add_option("name", args->name, "The group's name")->required();
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--json", args->json, "Print a JSON array of paths");
  cmd->callback([args] {
    catalog::Catalog cat(CatalogFile(args->catalog));
    const auto paths = cat.Group(args->name);
    if (!paths) throw UserError(cat.path() + ": no group '" + args->name + "' in the catalog");
    if (args->json) {
      std::cout << nlohmann::json(*paths).dump(2) << "\n";
      return;
    }
    for (const std::string& path : *paths) std::printf("%s\n", path.c_str());
  });
}

}  // namespace

void RegisterCatalogGroupCommand(CLI::App& catalog_group) {
  CLI::App* group = catalog_group.add_subcommand("group", "Groups of traces: the runs of one experiment (campaign)");
  group->require_subcommand(1);
  RegisterGroupAdd(*group);
  RegisterGroupList(*group);
  RegisterGroupShow(*group);
}

}  // namespace macroscope::cli
