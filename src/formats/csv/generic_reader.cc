#include "formats/csv/generic_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <exception>
#include <functional>
#include <memory>

#include "formats/csv/quoted_fields.h"
#include "formats/csv/table.h"
#include "util/error.h"

namespace macroscope::csv {

namespace {

enum Column { kKind, kContainer, kType, kStart, kEnd, kValue, kParent, kEndContainer, kColumns };
constexpr std::array<std::string_view, kColumns> kColumnNames = {"kind",  "container", "type",   "start",
                                                                  "end",   "value",     "parent", "end_container"};
constexpr int kMaxDecimals = 12;  // of a second: finer ticks than a picosecond are refused

struct Header {
  std::array<int, kColumns> index;  // column of each name, -1: absent
  int unit = 0;                     // decimal exponent of the time columns' unit (ms: 3)
  size_t columns = 0;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The column a header name stands for (kColumns: none) and, for time
// columns, the decimal exponent of their unit ("start_ms": kStart, 3).
size_t ColumnOf(std::string_view header_name, int& unit) {
  std::string name = Lower(header_name);
  unit = 0;
  static constexpr std::pair<std::string_view, int> kUnits[] = {{"_s", 0}, {"_ms", 3}, {"_us", 6}, {"_ns", 9}};
  for (auto [suffix, exponent] : kUnits)
    if ((name.starts_with("start_") || name.starts_with("time_") || name.starts_with("end_")) && name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      unit = exponent;
      break;
    }
  if (name == "time") name = "start";
  return static_cast<size_t>(std::find(kColumnNames.begin(), kColumnNames.end(), name) - kColumnNames.begin());
}

// The fields of a line: split at commas, or parsed as quoted CSV when the
// line holds a quote (the quoted fields' text kept in `quoted`). False
// with the problem in `error`.
bool LineFields(std::string_view line, QuotedFields& quoted, std::vector<std::string_view>& fields,
                std::string& error) {
  if (line.find('"') == std::string_view::npos) {
    SplitFields(line, fields);
    return true;
  }
  fields.clear();
  return quoted.Split(line, fields, error);
}

// Reads a header line's names; false with the problem in `error`.
bool ParseHeader(const std::vector<std::string_view>& names, Header& h, std::string& error) {
  h.index.fill(-1);
  h.columns = names.size();
  int unit = -1;
  for (size_t i = 0; i < names.size(); ++i) {
    int this_unit = 0;
    const size_t column = ColumnOf(names[i], this_unit);
    if (column == kColumns) {
      error = "unknown column '" + std::string(names[i]) +
              "' (kind, container, type, time or start, end, value, parent, end_container)";
      return false;
    }
    if (h.index[column] != -1) {
      error = "column '" + std::string(names[i]) + "' named twice";
      return false;
    }
    h.index[column] = static_cast<int>(i);
    if (column == kStart || column == kEnd) {
      if (unit != -1 && unit != this_unit) {
        error = "time columns in different units";
        return false;
      }
      unit = this_unit;
    }
  }
  for (Column required : {kContainer, kType, kStart})
    if (h.index[required] == -1) {
      error = std::string("no '") + (required == kStart ? "time' or 'start" : std::string(kColumnNames[required])) +
              "' column in the header";
      return false;
    }
  h.unit = std::max(unit, 0);
  return true;
}

struct Row {
  std::array<std::string_view, kColumns> cell;
  Source source;
};

// Type names looked up by the rows' views without a string made of each.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// The files are read three times, their rows not kept: AddFile checks the
// lines and finds the tick (the finest decimal); Tabulate then finds the
// origin (the earliest time), the containers and which types are
// variables, and last makes the table's entities. Each pass refuses what
// it finds first, as when the rows were held and passed over in memory.
class GenericParser {
 public:
  GenericParser(Trace& trace, size_t memory) : table_(trace, false, memory) {}
  // `mapped`: the file `text` is mapped from (table.h's ForEachLine); the
  // text must stay until Tabulate() returns.
  void AddFile(std::string_view text, const std::string& name, const MappedFile* mapped);
  void Tabulate();
  void Simulate(const paje::SimulatorOptions& options) { csv::Simulate(table_, last_, options); }
  uint64_t rows() const { return rows_; }

 private:
  // Hands each row of file `file` to `take(row)`, the header and the
  // lines checked; returns the header.
  Header ForEachRow(uint32_t file, const std::function<void(const Row&)>& take);
  void Decimals(std::string_view text, Source at);
  int64_t Ticks(std::string_view text, Source at) const;
  double Time(std::string_view text, Source at) const;
  uint32_t ContainerOf(std::string_view name, std::string_view parent, Source at);
  TypeKind KindOf(const Row& row, bool numeric_type) const;
  void Entity(const Row& row);

  Table table_;
  struct File {
    std::string_view text;
    const MappedFile* mapped;
  };
  std::vector<File> files_;
  uint64_t rows_ = 0;
  std::vector<Header> headers_;  // per file
  int decimals_ = 0;
  TimeBase base_;
  double last_ = 0;
  std::vector<std::string> depth_types_;  // container type per depth
  // Types without a kind column: whether all their time-only rows' values are numbers.
  std::unordered_map<std::string, bool, NameHash, std::equal_to<>> numeric_;
  QuotedFields quoted_;  // the text of a line's quoted fields
  std::vector<std::string_view> fields_;
};

Header GenericParser::ForEachRow(uint32_t file, const std::function<void(const Row&)>& take) {
  Source at{file, 0};
  Header header;
  bool have_header = false;
  ForEachLine(files_[file].text, files_[file].mapped, [&](std::string_view line) {
    ++at.line;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') return;
    std::string error;
    if (!LineFields(line, quoted_, fields_, error)) table_.Fail(at, error);
    if (!have_header) {
      if (!ParseHeader(fields_, header, error)) table_.Fail(at, error);
      have_header = true;
      return;
    }
    if (fields_.size() != header.columns)
      table_.Fail(at, "a line of " + std::to_string(fields_.size()) + " columns under a header of " +
                          std::to_string(header.columns));
    Row row{.cell = {}, .source = at};
    for (size_t c = 0; c < kColumns; ++c)
      if (header.index[c] >= 0) row.cell[c] = fields_[static_cast<size_t>(header.index[c])];
    if (row.cell[kContainer].empty()) table_.Fail(at, "no container");
    if (row.cell[kType].empty()) table_.Fail(at, "no type");
    if (row.cell[kStart].empty()) table_.Fail(at, "no time");
    take(row);
  });
  if (!have_header) table_.Fail({at.file, 1}, "no header line");
  return header;
}

void GenericParser::AddFile(std::string_view text, const std::string& name, const MappedFile* mapped) {
  table_.files.push_back(name);
  files_.push_back({text, mapped});
  headers_.push_back(ForEachRow(static_cast<uint32_t>(files_.size() - 1), [&](const Row& row) {
    Decimals(row.cell[kStart], row.source);
    Decimals(row.cell[kEnd], row.source);
    ++rows_;
  }));
}

// Counts the decimals of a time, checking it is a plain decimal number.
void GenericParser::Decimals(std::string_view text, Source at) {
  if (text.empty()) return;
  size_t i = text.front() == '-' ? 1 : 0, digits = 0;
  int decimals = -1;
  for (; i < text.size(); ++i) {
    if (text[i] == '.' && decimals < 0) {
      decimals = 0;
    } else if (text[i] >= '0' && text[i] <= '9') {
      ++digits;
      if (decimals >= 0) ++decimals;
    } else {
      break;
    }
  }
  if (i != text.size() || digits == 0) table_.Fail(at, "bad number '" + std::string(text) + "'");
  decimals_ = std::max(decimals_, decimals);
}

int64_t GenericParser::Ticks(std::string_view text, Source at) const {
  // Ticks of 10^-decimals_ of the unit: the number read as if the unit were seconds.
  TimeBase scaled{.num = 1, .den = 1, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  for (int i = 0; i < decimals_; ++i) scaled.den *= 10;
  int64_t ticks = 0;
  if (!ParseClockTicks(scaled, text, ticks)) table_.FailTime(at, text);
  return ticks;
}

double GenericParser::Time(std::string_view text, Source at) const {
  return table_.FromOrigin(Ticks(text, at), base_.origin, at);
}

uint32_t GenericParser::ContainerOf(std::string_view name, std::string_view parent, Source at) {
  uint32_t c = table_.ContainerNamed(name);
  const uint32_t p = parent.empty() ? kNone : ContainerOf(parent, {}, at);
  if (c != kNone) {
    if (!parent.empty() && table_.containers[c].parent != p)
      table_.Fail(at, "container '" + std::string(name) + "' has another parent (line " +
                          std::to_string(table_.containers[c].source.line) + ")");
    return c;
  }
  size_t depth = 1;
  for (uint32_t q = p; q != kNone; q = table_.containers[q].parent) ++depth;
  if (depth_types_.size() < depth) depth_types_.push_back(depth == 1 ? "Container" : "Container " + std::to_string(depth));
  const uint32_t parent_type = p == kNone ? kNone : table_.containers[p].type;
  return table_.AddContainer({.name = std::string(name),
                              .type = table_.TypeNamed(depth_types_[depth - 1], TypeKind::kContainer, parent_type, at),
                              .parent = p,
                              .start = 0,
                              .end = -1,
                              .rank = kNone,
                              .source = at});
}

TypeKind GenericParser::KindOf(const Row& row, bool numeric_type) const {
  const std::string kind = Lower(row.cell[kKind]);
  if (kind == "state") return TypeKind::kState;
  if (kind == "event") return TypeKind::kEvent;
  if (kind == "variable") return TypeKind::kVariable;
  if (kind == "link") return TypeKind::kLink;
  if (!kind.empty()) table_.Fail(row.source, "unknown kind '" + std::string(row.cell[kKind]) + "' (state, event, variable or link)");
  if (!row.cell[kEndContainer].empty()) return TypeKind::kLink;
  if (!row.cell[kEnd].empty()) return TypeKind::kState;
  return numeric_type ? TypeKind::kVariable : TypeKind::kEvent;
}

void GenericParser::Tabulate() {
  if (decimals_ + headers_.front().unit > kMaxDecimals)
    table_.Fail({0, 1}, "times finer than 10^-" + std::to_string(kMaxDecimals) + " s");
  for (const Header& h : headers_)
    if (h.unit != headers_.front().unit) table_.Fail({0, 1}, "files with time columns in different units");
  // The tick: the finest decimal used, of the unit.
  base_ = {.num = 1, .den = 1, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  for (int i = 0; i < decimals_ + headers_.front().unit; ++i) base_.den *= 10;
  // The origin: the earliest time. Containers first, with their parents:
  // a link may name one before its own lines; their refusal waits for
  // every time to be read.
  bool any = false;
  std::exception_ptr container_error;
  auto scan = [&](const Row& row) {
    const int64_t t = Ticks(row.cell[kStart], row.source);
    if (!any || t < base_.origin) base_.origin = t;
    any = true;
    if (row.cell[kKind].empty() && row.cell[kEnd].empty() && row.cell[kEndContainer].empty()) {
      // Time-only rows of a type whose values are all numbers are variables.
      double v = 0;
      std::string_view text = row.cell[kValue];
      auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      const bool is_number = !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
      auto it = numeric_.find(row.cell[kType]);
      if (it == numeric_.end()) it = numeric_.emplace(std::string(row.cell[kType]), true).first;
      it->second = it->second && is_number;
    }
    if (container_error) return;
    try {
      ContainerOf(row.cell[kContainer], row.cell[kParent], row.source);
    } catch (const UserError&) {
      container_error = std::current_exception();
    }
  };
  for (uint32_t f = 0; f < files_.size(); ++f) ForEachRow(f, scan);
  if (container_error) std::rethrow_exception(container_error);
  table_.trace().SetTimeBase(base_);
  for (uint32_t f = 0; f < files_.size(); ++f) ForEachRow(f, [&](const Row& row) { Entity(row); });
}

void GenericParser::Entity(const Row& row) {
  const Source at = row.source;
  auto numeric_type = numeric_.find(row.cell[kType]);
  const TypeKind kind = KindOf(row, numeric_type != numeric_.end() && numeric_type->second);
  TableEntity e{.kind = kind, .source = at};
  e.start = e.end = Time(row.cell[kStart], at);
  if (kind == TypeKind::kState || kind == TypeKind::kLink) {
    if (row.cell[kEnd].empty()) table_.Fail(at, std::string("a ") + (kind == TypeKind::kState ? "state" : "link") + " without an end");
    e.end = Time(row.cell[kEnd], at);
    if (e.end < e.start) table_.Fail(at, "end before start");
  }
  last_ = std::max(last_, e.end);
  const uint32_t container = ContainerOf(row.cell[kContainer], row.cell[kParent], at);
  if (kind == TypeKind::kLink) {
    if (row.cell[kEndContainer].empty()) table_.Fail(at, "a link without an end_container");
    const uint32_t end = ContainerOf(row.cell[kEndContainer], {}, at);
    e.container = kNone;  // links go from container to end_container through the root
    e.start_container = container;
    e.end_container = end;
    e.type = table_.TypeNamed(row.cell[kType], kind, kNone, at);
    TableType& type = table_.types[e.type];
    if (type.start_type == kNone) {
      type.start_type = table_.containers[container].type;
      type.end_type = table_.containers[end].type;
    }
  } else {
    e.container = container;
    e.type = table_.TypeNamed(row.cell[kType], kind, table_.containers[container].type, at);
  }
  if (kind == TypeKind::kVariable) {
    std::string_view text = row.cell[kValue];
    auto r = std::from_chars(text.data(), text.data() + text.size(), e.number);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
      table_.Fail(at, "bad number '" + std::string(text) + "'");
  } else {
    e.value = table_.Intern(row.cell[kValue]);
  }
  table_.AddEntity(e);
}

}  // namespace

ReadCounts ReadGenericCsvText(std::string_view text, const std::string& name, Trace& trace,
                              const paje::SimulatorOptions& options, size_t memory) {
  GenericParser parser(trace, memory);
  parser.AddFile(text, name, nullptr);
  ReadCounts counts{parser.rows(), text.size()};
  parser.Tabulate();
  parser.Simulate(options);
  return counts;
}

ReadCounts ReadGenericCsv(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& options,
                          size_t memory) {
  GenericParser parser(trace, memory);
  std::vector<std::unique_ptr<MappedFile>> mapped;  // read again by Tabulate
  ReadCounts counts;
  counts.bytes = MapFiles(files, mapped, [&](std::string_view text, const std::string& name, const MappedFile* map) {
    parser.AddFile(text, name, map);
  });
  counts.lines = parser.rows();
  parser.Tabulate();
  mapped.clear();  // the table holds nothing that points into the text
  parser.Simulate(options);
  return counts;
}

bool LooksLikeGenericCsv(std::string_view head) {
  while (head.starts_with("#")) head.remove_prefix(std::min(head.size(), head.find('\n') + 1));
  size_t eol = head.find('\n');
  if (eol == std::string_view::npos) return false;
  std::string_view line = head.substr(0, eol);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // A header: two columns or more, at least two of them named as ours
  // (then what is wrong with it is reported with its line).
  std::vector<std::string_view> names;
  QuotedFields quoted;
  std::string error;
  if (!LineFields(line, quoted, names, error)) return false;
  size_t known = 0;
  int unit = 0;
  for (std::string_view name : names) known += ColumnOf(name, unit) != kColumns;
  return names.size() >= 2 && known >= 2;
}

}  // namespace macroscope::csv
