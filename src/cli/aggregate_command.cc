#include "cli/commands.h"

namespace macroscope::cli {

void RegisterAggregateCommand(CLI::App& app) {
  app.add_subcommand("aggregate", "(not yet available)");
}

}  // namespace macroscope::cli
