#include "cli/catalog_option.h"

#include "catalog/catalog.h"

namespace macroscope::cli {

void AddCatalogOption(CLI::App& command, std::string& file) {
  command.add_option("--catalog", file,
                     "Catalog file (default: $XDG_DATA_HOME/macroscope/catalog.sqlite, else "
                     "~/.local/share/macroscope/catalog.sqlite)");
}

std::string CatalogFile(const std::string& option) {
  return option.empty() ? catalog::Catalog::DefaultPath() : option;
}

}  // namespace macroscope::cli
