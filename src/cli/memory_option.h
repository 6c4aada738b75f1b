// The `--memory BYTES` option of the commands that open a chunked store
// lazily (`serve`, `query`): how much its caches keep decoded for the
// next queries. Declared in one place; each command has its default.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace macroscope::cli {

// Adds --memory (suffixes KB, MB, GB) into `bytes`; `more` ends its help:
// what else the command keeps within it, and its default.
void AddMemoryOption(CLI::App& command, size_t& bytes, const std::string& more);

}  // namespace macroscope::cli
