#include "cli/query_shell.h"

#include <editline/readline.h>
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "query/analysis_functions.h"
#include "query/schema.h"
#include "util/error.h"

namespace macroscope::cli {

void PrintQuery(query::QuerySession& session, std::string_view sql, analysis::TableFormat format) {
  std::optional<analysis::TableWriter> writer;
  session.Run(sql, [&](const analysis::Table& part, bool last) {
    if (!writer) writer.emplace(format);
    std::string out;
    writer->Add(part, out);
    if (last) {
      writer->Finish(out);
      writer.reset();
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
  std::fflush(stdout);
}

namespace {

std::string HistoryFile() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.macroscope_history" : std::string();
}

void PrintSchema(std::string_view only) {
  bool any = false;
  for (const query::TableSpec& t : query::Tables()) {
    if (!only.empty() && only != t.name) continue;
    any = true;
    std::printf("%s;  -- %s\n", query::CreateStatement(t).c_str(), t.doc);
  }
  if (!any) std::printf("no table %.*s (.tables lists them)\n", static_cast<int>(only.size()), only.data());
}

// A dot command; false for .quit.
bool DotCommand(const std::string& line, analysis::TableFormat& format) {
  const size_t space = std::min(line.find_first_of(" \t"), line.size());
  const std::string word = line.substr(0, space);
  std::string argument = line.substr(std::min(line.find_first_not_of(" \t", space), line.size()));
  while (!argument.empty() && (argument.back() == ' ' || argument.back() == ';')) argument.pop_back();
  if (word == ".quit" || word == ".exit") return false;
  if (word == ".tables") {
    for (const query::TableSpec& t : query::Tables()) std::printf("%-12s %s\n", t.name, t.doc);
    std::printf("\nanalyses, as tables (SELECT * FROM stats()):\n");
    for (const query::FunctionDoc& f : query::AnalysisFunctions()) std::printf("%s\n    %s\n", f.call, f.doc);
  } else if (word == ".schema") {
    PrintSchema(argument);
  } else if (word == ".format") {
    try {
      format = analysis::ParseTableFormat(argument);
    } catch (const UserError& e) {
      std::printf("%s\n", e.what());
    }
  } else {
    std::printf(
        "SQL statements end with ';' (SQLite's SQL: docs/query.md).\n"
        ".tables               the trace's tables\n"
        ".schema [TABLE]       their columns\n"
        ".format text|csv|json how rows are printed\n"
        ".quit                 leave (or end of input)\n");
  }
  return true;
}

}  // namespace

void RunQueryShell(query::QuerySession& session, analysis::TableFormat format) {
  const std::string history = HistoryFile();
  if (!history.empty()) read_history(history.c_str());
  std::printf("SQL over the trace: .tables lists its tables, .help the commands, a statement ends with ';'.\n");
  std::string statement;
  for (;;) {
    std::unique_ptr<char, decltype(&std::free)> line(readline(statement.empty() ? "query> " : "  ...> "), &std::free);
    if (!line) break;
    std::string text(line.get());
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    add_history(line.get());
    if (statement.empty() && text.front() == '.') {
      if (!DotCommand(text, format)) break;
      continue;
    }
    statement += text;
    statement += '\n';
    if (!sqlite3_complete(statement.c_str())) continue;
    try {
      PrintQuery(session, statement, format);
    } catch (const UserError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", e.what());
    }
    statement.clear();
  }
  if (!history.empty()) write_history(history.c_str());
  std::printf("\n");
}

}  // namespace macroscope::cli
