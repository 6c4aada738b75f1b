// `macroscope run WORKFLOW [--set name=value]…`: runs a workflow file
// (docs/workflows.md) and records the run in the catalog; `--graph` draws
// it instead. `--help` lists every module with its parameters and ports.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/workflow_running.h"
#include "pipeline/registry.h"
#include "pipeline/workflow_file.h"
#include "pipeline/workflow_graph.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

std::string ModuleList() {
  std::string out = "\nModules (\"module\": KIND in a workflow file):\n";
  for (const pipeline::ModuleInfo& m : pipeline::AllModules()) {
    out += "\n  " + std::string(m.kind) + ": " + std::string(m.description) + "\n";
    for (const auto& p : m.params)
      out += "    " + std::string(p.name) + (p.required ? " (required)" : "") + ": " + std::string(p.description) + "\n";
    for (const auto& port : m.inputs)
      out += "    input  " + std::string(port.name) + " (" + std::string(port.type) + ")" +
             (port.description.empty() ? "" : ": " + std::string(port.description)) + "\n";
    for (const auto& port : m.outputs)
      out += "    output " + std::string(port.name) + " (" + std::string(port.type) + ")" +
             (port.description.empty() ? "" : ": " + std::string(port.description)) + "\n";
  }
  out += "\n  workflow: another workflow file as a module: \"file\", \"instances\" (N), \"parameters\" (for all),"
         "\n    \"each\" (one value per instance); its exported outputs come collected (rows, with a run column)"
         "\n    or merged (entities).\n";
  return out;
}

std::map<std::string, std::string> ParseSets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> values;
  for (const std::string& s : sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UserError("--set " + s + ": expected name=value");
    values[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return values;
}

}  // namespace

void RegisterRunCommand(CLI::App& app) {
  struct Args {
    std::string workflow, catalog, output;
    std::vector<std::string> sets;
    bool graph = false, no_record = false, quiet = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("run", "Run a workflow file: modules linked by typed streams, run concurrently");
  cmd->add_option("workflow", args->workflow, "Workflow file (JSON, docs/workflows.md)")->required();
  cmd->add_option("--set", args->sets, "A parameter's value: name=value (repeatable)");
  cmd->add_flag("--graph", args->graph, "Draw the workflow (SVG) instead of running it");
  cmd->add_option("-o,--output", args->output, "With --graph: the SVG file (default: standard output)");
  AddCatalogOption(*cmd, args->catalog);
  cmd->add_flag("--no-record", args->no_record, "Do not record the run in the catalog");
  cmd->add_flag("-q,--quiet", args->quiet, "No summary on standard error");
  cmd->footer(ModuleList());
  cmd->callback([args] {
    auto file = pipeline::WorkflowFile::Load(args->workflow, pipeline::DiskLoader());
    auto values = file.Resolve(ParseSets(args->sets));
    if (args->graph) {
      pipeline::Workflow workflow;
      auto kinds = file.Build(values, workflow);
      std::string svg = pipeline::WorkflowSvg(workflow, kinds);
      if (args->output.empty()) std::cout << svg;
      else {
        AtomicFile out(args->output);
        std::fwrite(svg.data(), 1, svg.size(), out.stream());
        out.Commit();
      }
      return;
    }
    RunRequest request;
    request.values = std::move(values);
    if (!args->no_record) request.catalog = CatalogFile(args->catalog);
    request.quiet = args->quiet;
    RunWorkflowFile(file, request);
  });
}

}  // namespace macroscope::cli
