#include "cli/table_output.h"

#include <cstdio>
#include <string>

namespace macroscope::cli {

void AddTableFormatOption(CLI::App& command, analysis::TableFormat& format) {
  command
      .add_option_function<std::string>(
          "--format", [&format](const std::string& word) { format = analysis::ParseTableFormat(word); },
          "text, csv or json (default text)")
      ->check(CLI::IsMember({"text", "csv", "json"}));
}

void PrintTable(const analysis::Table& table, analysis::TableFormat format) {
  const std::string text = analysis::FormatTable(table, format);
  std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace macroscope::cli
