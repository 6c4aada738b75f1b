// `macroscope formats`: the trace formats every command accepts.
#include <cstdio>

#include "cli/commands.h"
#include "formats/format.h"

namespace macroscope::cli {

void RegisterFormatsCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("formats", "List the trace formats every command reads (detected from content)");
  cmd->callback([] {
    for (const formats::Format& f : formats::AllFormats())
      std::printf("%-8s %s\n", std::string(f.name).c_str(), std::string(f.description).c_str());
  });
}

}  // namespace macroscope::cli
