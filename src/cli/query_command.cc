// `macroscope query TRACE… [SQL]`: SQL over a trace (docs/query.md). The
// statements come from the last argument, from standard input when it is
// not a terminal, or from the shell (query_shell.h) when it is.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/memory_option.h"
#include "cli/query_shell.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"
#include "query/query_session.h"
#include "store/store_source.h"

namespace macroscope::cli {

void RegisterQueryCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> inputs;  // the trace's files, then the SQL
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
    std::string catalog;
    // A statement reads a chunk once, unless it joins a table with itself
    // or the shell's next one reads it again: a little is enough (a
    // GROUP BY over 10^7 states: 44 MB of RSS with 8 MB, 300 MB with 1 GB,
    // as fast).
    size_t memory = size_t{64} << 20;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("query", "SQL over a trace: its states, events, links, variables as tables");
  cmd->add_option("inputs", args->inputs,
                  "Trace files (or one store), read as one trace, then the SQL (the last argument unless it is a "
                  "file; without it, standard input, or a shell on a terminal)")
      ->required();
  AddTableFormatOption(*cmd, args->format);
  AddCatalogOption(*cmd, args->catalog);
  AddMemoryOption(*cmd, args->memory, "; default 64 MB");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    std::vector<std::string> files = args->inputs;
    std::string sql;
    std::error_code no_file;  // SQL is seldom a file name SQLite could open
    if (files.size() > 1 && !std::filesystem::exists(files.back(), no_file)) {
      sql = files.back();
      files.pop_back();
    }
    const bool shell = sql.empty() && isatty(STDIN_FILENO);
    if (sql.empty() && !shell) sql.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    // Chunks kept for the statements that read a store again (a join, the
    // shell's next statement).
    query::OpenedTrace trace(files, args->read, store::CacheBudget::Serving(args->memory));
    query::QuerySession session(trace.source(), files);
    session.SetTraceOpener(query::OpenOtherTraces(args->read, store::CacheBudget::Serving(args->memory)));
    // The catalog, when there is one, as schema `catalog` (read only).
    const std::string catalog = CatalogFile(args->catalog);
    std::error_code absent;
    if (!args->catalog.empty() || std::filesystem::exists(catalog, absent)) session.AttachCatalog(catalog);
    if (shell) RunQueryShell(session, args->format);
    else PrintQuery(session, sql, args->format);
  });
}

}  // namespace macroscope::cli
