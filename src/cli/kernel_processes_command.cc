// `macroscope kernel processes TRACE`: one row per thread of a kernel
// trace, by running time (docs/kernel.md). The rows are
// analysis::kernel::ProcessTable's, the workflow module kernel-processes'
// too; the trace streams through it (never held whole).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/kernel/process_table.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

using analysis::kernel::ProcessCell;
using analysis::kernel::ProcessTableRows;

std::string CellText(const ProcessCell& cell) {
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const std::string* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

void PrintText(const ProcessTableRows& table) {
  std::vector<std::string> columns = analysis::kernel::ProcessColumns(table);
  std::vector<std::vector<std::string>> lines = {columns};
  for (const auto& row : table.rows) {
    std::vector<std::string>& line = lines.emplace_back();
    for (const ProcessCell& cell : analysis::kernel::ProcessCells(table, row)) {
      std::string text = CellText(cell);
      line.push_back(text.empty() ? "-" : text);
    }
  }
  std::vector<size_t> widths(columns.size(), 0);
  for (const auto& line : lines)
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  for (const auto& line : lines) {
    std::string out;
    for (size_t c = 0; c < line.size(); ++c) {
      bool left = columns[c] == "name" || columns[c] == "names";  // text left, numbers right
      std::string pad(widths[c] - line[c].size(), ' ');
      out += (c ? "  " : "") + (left ? line[c] + pad : pad + line[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    std::printf("%s\n", out.c_str());
  }
}

}  // namespace

void RegisterKernelProcesses(CLI::App& group) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string format = "text";
    std::optional<int64_t> subtree;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = group.add_subcommand(
      "processes", "One row per thread: pid, parent, names, life, running/user/kernel/waiting/runnable time, syscalls");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
  cmd->add_option("--subtree", args->subtree, "Only this process (pid) and its descendants");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::kernel::ProcessTable table;
    Trace trace;
    StreamEntities(args->files, args->read, trace,
                   [&](const Trace& t, const analysis::EntityRecord& r) { table.Add(t, r); });
    const ProcessTableRows rows = table.Rows(trace, args->subtree);
    const std::vector<std::string> columns = analysis::kernel::ProcessColumns(rows);
    if (args->format == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& row : rows.rows) {
        nlohmann::json o = nlohmann::json::object();
        std::vector<ProcessCell> cells = analysis::kernel::ProcessCells(rows, row);
        for (size_t c = 0; c < columns.size(); ++c) {
          if (const int64_t* i = std::get_if<int64_t>(&cells[c]))
            o[columns[c]] = *i;
          else if (const std::string* s = std::get_if<std::string>(&cells[c]))
            o[columns[c]] = *s;
          else
            o[columns[c]] = nullptr;
        }
        out.push_back(std::move(o));
      }
      std::cout << out.dump(2) << "\n";
    } else if (args->format == "csv") {
      std::string header;
      for (const std::string& c : columns) header += (header.empty() ? "" : ",") + c;
      std::printf("%s\n", header.c_str());
      for (const auto& row : rows.rows) {
        std::string line;
        bool first = true;
        for (const ProcessCell& cell : analysis::kernel::ProcessCells(rows, row)) {
          line += (first ? "" : ",") + CsvField(CellText(cell));
          first = false;
        }
        std::printf("%s\n", line.c_str());
      }
    } else {
      PrintText(rows);
    }
  });
}

}  // namespace macroscope::cli
