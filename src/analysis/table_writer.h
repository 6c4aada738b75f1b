// The one table writer: a result table (analysis/table.h) as text for
// people, CSV or JSON. Every command that prints a table, the workflow's
// write-csv and write-json modules and the server's table answers write
// through it, so a table reads the same wherever it comes from.
//
// - text: aligned columns, text left and numbers right (and text that
//   reads as a quantity, "1.5 ms", when all of a column's text does), "-"
//   for an empty cell, two spaces between columns, the header first.
// - csv: RFC 4180: the header, then one line per row, '\n' line ends; a
//   field with a comma, a quote, a line break or edge spaces is quoted
//   (libcsv), others are written as they are; an empty cell is an empty
//   field. Our CSV reader reads it back.
// - json: an array with one object per row (column -> integer, number,
//   text, or null for an empty cell or a number that is not finite), one
//   row a line; invalid UTF-8 in text is replaced.
//
// A table may come in parts (a workflow's batches): Add() each, then
// Finish(). CSV and JSON are written as the parts come; text waits for the
// last part, since its widths depend on every row.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/table.h"

namespace macroscope::analysis {

enum class TableFormat { kText, kCsv, kJson };

// "text", "csv" or "json"; throws UserError naming the word otherwise.
TableFormat ParseTableFormat(std::string_view word);

class TableWriter {
 public:
  explicit TableWriter(TableFormat format) : format_(format) {}
  // Appends what `part` adds to the output to `out`.
  void Add(const Table& part, std::string& out);
  // Appends the end of the output to `out` (a table without any part:
  // nothing for text and CSV, "[]" for JSON).
  void Finish(std::string& out);

 private:
  TableFormat format_;
  bool started_ = false;  // CSV: header written; JSON: "[" written
  bool any_row_ = false;
  Table text_;  // text: every row, until Finish()
};

// The whole table in `format`.
std::string FormatTable(const Table& table, TableFormat format);

// One CSV field as the writer writes it.
std::string CsvField(std::string_view text);

}  // namespace macroscope::analysis
