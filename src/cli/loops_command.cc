#include "cli/commands.h"

namespace macroscope::cli {

void RegisterLoopsCommand(CLI::App& app) {
  app.add_subcommand("loops", "(not yet available)");
}

}  // namespace macroscope::cli
