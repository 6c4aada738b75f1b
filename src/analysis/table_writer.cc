#include "analysis/table_writer.h"

#include <csv.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/error.h"

namespace macroscope::analysis {

namespace {

nlohmann::ordered_json CellJson(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) return *d;  // NaN and infinities: null
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return nullptr;
}

bool IsNumber(const Cell& cell) { return std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell); }

// A cell of text that reads as a quantity: a number, perhaps with a unit
// ("6247 s", "8.50", "-12 ms").
bool IsQuantity(const Cell& cell) {
  const auto* s = std::get_if<std::string>(&cell);
  if (s == nullptr || s->empty()) return false;
  const size_t digit = (*s)[0] == '-' || (*s)[0] == '+' ? 1 : 0;
  return digit < s->size() && (*s)[digit] >= '0' && (*s)[digit] <= '9';
}

std::string TextTable(const Table& table) {
  const size_t n = table.columns.size();
  std::vector<std::vector<std::string>> lines = {table.columns};
  // Right: a column holding numbers, or text cells that are all
  // quantities (a person's "1.5 ms").
  std::vector<bool> numbers(n, false), words(n, false);
  for (size_t r = 0; r < table.rows(); ++r) {
    std::vector<std::string>& line = lines.emplace_back();
    for (size_t c = 0; c < n; ++c) {
      const Cell& cell = table.at(r, c);
      if (IsNumber(cell) || IsQuantity(cell))
        numbers[c] = true;
      else if (std::holds_alternative<std::string>(cell) && !std::get<std::string>(cell).empty())
        words[c] = true;
      std::string text = CellText(cell);
      line.push_back(text.empty() ? "-" : std::move(text));
    }
  }
  std::vector<bool> right(n);
  for (size_t c = 0; c < n; ++c) right[c] = numbers[c] && !words[c];
  std::vector<size_t> widths(n, 0);
  for (const auto& line : lines)
    for (size_t c = 0; c < n; ++c) widths[c] = std::max(widths[c], line[c].size());
  std::string out;
  for (const auto& line : lines) {
    std::string row;
    for (size_t c = 0; c < n; ++c) {
      const std::string pad(widths[c] - line[c].size(), ' ');
      row += (c ? "  " : "") + (right[c] ? pad + line[c] : line[c] + pad);
    }
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row + '\n';
  }
  return out;
}

}  // namespace

TableFormat ParseTableFormat(std::string_view word) {
  if (word == "text") return TableFormat::kText;
  if (word == "csv") return TableFormat::kCsv;
  if (word == "json") return TableFormat::kJson;
  throw UserError("unknown table format '" + std::string(word) + "' (text, csv or json)");
}

std::string CsvField(std::string_view text) {
  const bool plain = text.find_first_of(",\"\r\n") == std::string_view::npos &&
                     (text.empty() || (text.front() != ' ' && text.back() != ' '));
  if (plain) return std::string(text);
  std::string out(csv_write(nullptr, 0, text.data(), text.size()), '\0');
  out.resize(csv_write(out.data(), out.size(), text.data(), text.size()));
  return out;
}

void TableWriter::Add(const Table& part, std::string& out) {
  switch (format_) {
    case TableFormat::kText:
      if (!started_) text_.columns = part.columns;
      started_ = true;
      text_.cells.insert(text_.cells.end(), part.cells.begin(), part.cells.end());
      return;
    case TableFormat::kCsv:
      if (!started_) {
        for (size_t c = 0; c < part.columns.size(); ++c) out += (c ? "," : "") + CsvField(part.columns[c]);
        out += '\n';
        started_ = true;
      }
      for (size_t r = 0; r < part.rows(); ++r) {
        for (size_t c = 0; c < part.columns.size(); ++c) out += (c ? "," : "") + CsvField(CellText(part.at(r, c)));
        out += '\n';
      }
      return;
    case TableFormat::kJson:
      if (!started_) out += "[";
      started_ = true;
      for (size_t r = 0; r < part.rows(); ++r) {
        nlohmann::ordered_json row = nlohmann::ordered_json::object();
        for (size_t c = 0; c < part.columns.size(); ++c) row[part.columns[c]] = CellJson(part.at(r, c));
        out += any_row_ ? ",\n  " : "\n  ";
        out += row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        any_row_ = true;
      }
      return;
  }
}

void TableWriter::Finish(std::string& out) {
  switch (format_) {
    case TableFormat::kText:
      if (started_) out += TextTable(text_);
      return;
    case TableFormat::kCsv:
      return;
    case TableFormat::kJson:
      if (!started_) out += "[";
      out += any_row_ ? "\n]\n" : "]\n";
      return;
  }
}

std::string FormatTable(const Table& table, TableFormat format) {
  TableWriter writer(format);
  std::string out;
  writer.Add(table, out);
  writer.Finish(out);
  return out;
}

}  // namespace macroscope::analysis
