// `macroscope query TRACE` on a terminal: an interactive SQL shell (line
// editing and history by libedit; the history in ~/.macroscope_history).
// A statement runs once a line ends it (`;`); dot commands: .tables,
// .schema [TABLE], .format text|csv|json, .help, .quit.
#pragma once

#include "analysis/table_writer.h"
#include "query/query_session.h"

namespace macroscope::cli {

// Runs the shell until end of input or .quit; an error is printed and the
// shell goes on.
void RunQueryShell(query::QuerySession& session, analysis::TableFormat format);

// Runs `sql` in `session`, each statement's rows written to standard
// output through the table writer in `format`.
void PrintQuery(query::QuerySession& session, std::string_view sql, analysis::TableFormat format);

}  // namespace macroscope::cli
