#include "cli/commands.h"

namespace macroscope::cli {

void RegisterInfoCommand(CLI::App& app) {
  app.add_subcommand("info", "(not yet available)");
}

}  // namespace macroscope::cli
