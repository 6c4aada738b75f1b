// `macroscope generate`: deterministic synthetic Pajé traces for tests and
// benchmarks, streamed to stdout or to a file (whole or not at all).
#include <memory>

#include "cli/commands.h"
#include "formats/paje/generator.h"

namespace macroscope::cli {

void RegisterGenerateCommand(CLI::App& app) {
  struct Args {
    paje::GeneratorOptions gen;
    std::string output;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("generate", "Write a deterministic synthetic Pajé trace");
  cmd->add_option("--depth", args->gen.depth, "Levels of containers below the root")->capture_default_str();
  cmd->add_option("--arity", args->gen.arity, "Children per container")->capture_default_str();
  cmd->add_option("--values", args->gen.values, "Distinct state values (drawn uniformly)")->capture_default_str();
  cmd->add_option("--events", args->gen.events, "Number of event lines to write")->capture_default_str();
  cmd->add_option("--seed", args->gen.seed, "Random seed")->capture_default_str();
  cmd->add_flag("--nested", args->gen.nested, "Add pushed states nested in some states");
  cmd->add_option("--nesting", args->gen.nesting, "With --nested: pushed states nest up to this deep")
      ->capture_default_str();
  cmd->add_flag("--punctual", args->gen.punctual, "Add punctual events");
  cmd->add_flag("--links", args->gen.links, "Add links between leaves");
  cmd->add_flag("--variables", args->gen.variables, "Add a variable per leaf");
  cmd->add_flag("--inner", args->gen.inner, "Inner containers run states too (and a variable with --variables)");
  cmd->add_option("-o,--output", args->output, "Output file (default: standard output)");
  cmd->callback([args] {
    if (args->output.empty()) {
      paje::GeneratePaje(args->gen, stdout);
      std::fflush(stdout);
      return;
    }
    paje::GeneratePajeFile(args->gen, args->output);
  });
}

}  // namespace macroscope::cli
