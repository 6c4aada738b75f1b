#include "cli/commands.h"

namespace macroscope::cli {

void RegisterGenerateCommand(CLI::App& app) {
  app.add_subcommand("generate", "(not yet available)");
}

}  // namespace macroscope::cli
