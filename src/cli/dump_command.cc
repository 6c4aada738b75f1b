#include "cli/commands.h"

namespace macroscope::cli {

void RegisterDumpCommand(CLI::App& app) {
  app.add_subcommand("dump", "(not yet available)");
}

}  // namespace macroscope::cli
