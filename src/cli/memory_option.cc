#include "cli/memory_option.h"

namespace macroscope::cli {

void AddMemoryOption(CLI::App& command, size_t& bytes, const std::string& more) {
  command
      .add_option("--memory", bytes,
                  "Bytes a chunked store keeps decoded for the next queries (chunks, frames, summaries)" + more +
                      " (suffixes: KB, MB, GB)")
      ->transform(CLI::AsSizeValue(false));
}

}  // namespace macroscope::cli
