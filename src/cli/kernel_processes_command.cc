// `macroscope kernel processes TRACE`: one row per thread of a kernel
// trace, by running time, or with --cpus one row per thread per CPU and
// each CPU's idle and unknown time (docs/kernel.md). The rows are
// analysis::kernel::ProcessTable's, the workflow module kernel-processes'
// too; the trace streams through it (never held whole).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/kernel/cpu_table.h"
#include "analysis/kernel/process_table.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::ProcessCell;
using analysis::kernel::ProcessTableRows;

using Cells = std::vector<std::vector<ProcessCell>>;

std::string CellText(const ProcessCell& cell) {
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const std::string* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

// An aligned table: text left, numbers right, "-" for an empty cell.
void PrintText(const std::vector<std::string>& columns, const Cells& rows) {
  std::vector<std::vector<std::string>> lines = {columns};
  for (const auto& row : rows) {
    std::vector<std::string>& line = lines.emplace_back();
    for (const ProcessCell& cell : row) {
      std::string text = CellText(cell);
      line.push_back(text.empty() ? "-" : text);
    }
  }
  std::vector<size_t> widths(columns.size(), 0);
  for (const auto& line : lines)
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  std::vector<bool> left(columns.size(), true);  // a column of text; numbers go right
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c)
      if (std::holds_alternative<int64_t>(row[c])) left[c] = false;
  for (const auto& line : lines) {
    std::string out;
    for (size_t c = 0; c < line.size(); ++c) {
      std::string pad(widths[c] - line[c].size(), ' ');
      out += (c ? "  " : "") + (left[c] ? line[c] + pad : pad + line[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    std::printf("%s\n", out.c_str());
  }
}

void PrintJson(const std::vector<std::string>& columns, const Cells& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json o = nlohmann::json::object();
    for (size_t c = 0; c < columns.size(); ++c) {
      if (const int64_t* i = std::get_if<int64_t>(&row[c]))
        o[columns[c]] = *i;
      else if (const std::string* s = std::get_if<std::string>(&row[c]))
        o[columns[c]] = *s;
      else
        o[columns[c]] = nullptr;
    }
    out.push_back(std::move(o));
  }
  std::cout << out.dump(2) << "\n";
}

void PrintCsv(const std::vector<std::string>& columns, const Cells& rows) {
  std::string header;
  for (const std::string& c : columns) header += (header.empty() ? "" : ",") + CsvField(c);
  std::printf("%s\n", header.c_str());
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) line += (c ? "," : "") + CsvField(CellText(row[c]));
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace

void RegisterKernelProcesses(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string format = "text";
    std::optional<int64_t> subtree;
    bool cpus = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "processes", "One row per thread: pid, parent, names, life, running/user/kernel/waiting/runnable time, syscalls");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
  cmd->add_option("--subtree", args->subtree, "Only this process (pid) and its descendants");
  cmd->add_flag("--cpus", args->cpus,
                "Per CPU instead: each thread's running time there, idle, unknown before the first switch, span");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::kernel::ProcessTable table;
    analysis::kernel::CpuTable cpus;
    Trace trace;
    StreamEntities(args->files, args->read, trace, [&](const Trace& t, const analysis::EntityRecord& r) {
      table.Add(t, r);
      if (args->cpus) cpus.Add(t, r);
    });
    const ProcessTableRows rows = table.Rows(trace, args->subtree);
    std::vector<std::string> columns;
    Cells cells;
    if (args->cpus) {
      columns = analysis::kernel::CpuColumns();
      cells = analysis::kernel::CpuCells(cpus.Rows(trace), rows);
    } else {
      columns = analysis::kernel::ProcessColumns(rows);
      for (const auto& row : rows.rows) cells.push_back(analysis::kernel::ProcessCells(rows, row));
    }
    if (args->format == "json")
      PrintJson(columns, cells);
    else if (args->format == "csv")
      PrintCsv(columns, cells);
    else
      PrintText(columns, cells);
  });
}

}  // namespace macroscope::cli
