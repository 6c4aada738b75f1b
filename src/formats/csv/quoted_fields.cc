#include "formats/csv/quoted_fields.h"

#include <csv.h>

namespace macroscope::csv {

namespace {

struct Parsed {
  std::vector<std::string> fields;
  int records = 0;
};

void OnField(void* text, size_t size, void* data) {
  static_cast<Parsed*>(data)->fields.emplace_back(static_cast<const char*>(text), size);
}

void OnRecord(int, void* data) { ++static_cast<Parsed*>(data)->records; }

}  // namespace

bool QuotedFields::Split(std::string_view line, std::vector<std::string_view>& fields, std::string& error) {
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    error = "out of memory";
    return false;
  }
  Parsed parsed;
  const size_t used = csv_parse(&parser, line.data(), line.size(), OnField, OnRecord, &parsed);
  const bool ok = used == line.size() && csv_fini(&parser, OnField, OnRecord, &parsed) == 0;
  if (!ok) error = std::string("malformed quoted field: ") + csv_strerror(csv_error(&parser));
  csv_free(&parser);
  if (!ok) return false;
  if (parsed.records != 1) {
    error = "malformed quoted field: a line break inside quotes";
    return false;
  }
  texts_.clear();
  for (std::string& f : parsed.fields) fields.push_back(texts_.emplace_back(std::move(f)));
  return true;
}

}  // namespace macroscope::csv
