// The commands that print a result table (analysis/table.h) share their
// --format option and their printing: one table writer for all of them.
#pragma once

#include <CLI/CLI.hpp>

#include "analysis/table_writer.h"

namespace macroscope::cli {

// --format text|csv|json (default text).
void AddTableFormatOption(CLI::App& command, analysis::TableFormat& format);

// The table on standard output, in `format`.
void PrintTable(const analysis::Table& table, analysis::TableFormat format);

}  // namespace macroscope::cli
