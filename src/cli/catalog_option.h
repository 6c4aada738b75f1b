// The `--catalog FILE` option of the commands that use the trace catalog
// (`catalog …`, `aggregate --save`), declared and resolved in one place.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace macroscope::cli {

void AddCatalogOption(CLI::App& command, std::string& file);

// The option's value, or the default catalog when it was not given.
std::string CatalogFile(const std::string& option);

}  // namespace macroscope::cli
