#include "analysis/model_csv.h"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::analysis {

namespace {

enum Column { kResource = 0, kSlice = 1, kType = 2, kValue = 3, kColumnCount = 4 };
constexpr std::array<std::string_view, kColumnCount> kColumnNames = {"resource", "slice", "type",
                                                                     "value"};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Splits one line into fields; returns false on an unterminated quote.
bool SplitFields(std::string_view line, std::vector<std::string>* fields) {
  fields->clear();
  std::string field;
  size_t pos = 0;
  while (true) {
    // Skip blanks before a field.
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    field.clear();
    if (pos < line.size() && line[pos] == '"') {
      ++pos;
      bool closed = false;
      while (pos < line.size()) {
        if (line[pos] == '"') {
          if (pos + 1 < line.size() && line[pos + 1] == '"') {
            field += '"';
            pos += 2;
            continue;
          }
          ++pos;
          closed = true;
          break;
        }
        field += line[pos++];
      }
      if (!closed) return false;
      size_t comma = line.find(',', pos);
      if (!Trim(line.substr(pos, comma == std::string_view::npos ? comma : comma - pos)).empty()) {
        return false;
      }
      pos = comma;
    } else {
      size_t comma = line.find(',', pos);
      field = Trim(line.substr(pos, comma == std::string_view::npos ? comma : comma - pos));
      pos = comma;
    }
    fields->push_back(field);
    if (pos == std::string_view::npos) return true;
    ++pos;
  }
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool ParseDouble(std::string_view s, double* out) {
  if (s.empty()) return false;
  if (s.front() == '+') s.remove_prefix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

struct Row {
  std::string resource;
  int32_t slice;
  int32_t type;
  double value;
  uint64_t line;
};

}  // namespace

MicroModel ParseModelCsv(std::string_view text, std::string_view file_name,
                         std::optional<int32_t> slices) {
  if (slices && *slices < 1) throw UserError("the slice count must be positive");
  if (slices && *slices > kMaxSlices) {
    throw UserError("the slice count must be at most " + std::to_string(kMaxSlices));
  }
  std::array<int, kColumnCount> position = {0, 1, 2, 3};
  std::vector<std::string> types;
  std::unordered_map<std::string, int32_t> type_index;
  std::vector<Row> rows;
  std::vector<std::string> fields;
  uint64_t line_number = 0;
  bool first = true;
  int64_t max_slice = -1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_number;
    if (Trim(line).empty() || Trim(line).front() == '#') continue;
    if (!SplitFields(line, &fields)) ThrowAt(file_name, line_number, "unterminated quoted field");
    if (first) {
      first = false;
      int64_t unused_int;
      double unused_double;
      bool looks_like_data = fields.size() == kColumnCount &&
                             ParseInt(fields[kSlice], &unused_int) &&
                             ParseDouble(fields[kValue], &unused_double);
      bool names_a_column = false;
      for (const auto& field : fields) {
        for (auto name : kColumnNames) names_a_column |= field == name;
      }
      if (!looks_like_data && names_a_column) {
        std::array<bool, kColumnCount> seen{};
        if (fields.size() > kColumnCount) {
          ThrowAt(file_name, line_number,
                  "extra column in header (expected resource,slice,type,value)");
        }
        for (size_t f = 0; f < fields.size(); ++f) {
          int found = -1;
          for (int c = 0; c < kColumnCount; ++c) {
            if (fields[f] == kColumnNames[c]) found = c;
          }
          if (found < 0) ThrowAt(file_name, line_number, "unknown column '" + fields[f] + "'");
          if (seen[found])
            ThrowAt(file_name, line_number, "column '" + fields[f] + "' given twice");
          seen[found] = true;
          position[found] = static_cast<int>(f);
        }
        for (int c = 0; c < kColumnCount; ++c) {
          if (!seen[c]) {
            ThrowAt(file_name, line_number,
                    "missing column '" + std::string(kColumnNames[c]) + "' in header");
          }
        }
        continue;
      }
    }
    if (fields.size() != kColumnCount) {
      ThrowAt(file_name, line_number,
              std::string(fields.size() > kColumnCount ? "extra column" : "missing column") +
                  ": expected 4 fields (resource,slice,type,value), found " +
                  std::to_string(fields.size()));
    }
    const std::string& resource = fields[position[kResource]];
    const std::string& slice_text = fields[position[kSlice]];
    const std::string& type = fields[position[kType]];
    const std::string& value_text = fields[position[kValue]];
    int64_t slice;
    if (!ParseInt(slice_text, &slice)) {
      ThrowAt(file_name, line_number, "bad slice number '" + slice_text + "'");
    }
    if (slice < 0) ThrowAt(file_name, line_number, "negative slice " + slice_text);
    if (slices && slice >= *slices) {
      ThrowAt(file_name, line_number,
              "slice " + slice_text + " out of range (--slices " + std::to_string(*slices) + ")");
    }
    if (slice >= kMaxSlices) {
      ThrowAt(
          file_name, line_number,
          "slice " + slice_text + " is too large (at most " + std::to_string(kMaxSlices - 1) + ")");
    }
    double value;
    if (!ParseDouble(value_text, &value)) {
      ThrowAt(file_name, line_number, "bad value '" + value_text + "'");
    }
    if (!std::isfinite(value)) ThrowAt(file_name, line_number, "value is not finite");
    if (value < 0) ThrowAt(file_name, line_number, "negative value " + value_text);
    if (type.empty()) ThrowAt(file_name, line_number, "empty type");
    std::string_view path = resource;
    if (!path.empty() && path.front() == '/') path.remove_prefix(1);
    if (path.empty()) ThrowAt(file_name, line_number, "empty resource");
    if (path.find("//") != std::string_view::npos || path.back() == '/') {
      ThrowAt(file_name, line_number, "empty name in resource path '" + resource + "'");
    }
    auto [it, inserted] = type_index.try_emplace(type, static_cast<int32_t>(types.size()));
    if (inserted) types.push_back(type);
    max_slice = std::max(max_slice, slice);
    rows.push_back(
        {std::string(path), static_cast<int32_t>(slice), it->second, value, line_number});
  }
  if (rows.empty())
    ThrowAt(file_name, std::max<uint64_t>(line_number, 1), "empty file: no data rows");

  // Build the tree first so that a resource that turns out to be a parent
  // moves its own values to a "(self)" leaf.
  Hierarchy tree;
  std::vector<NodeId> row_node(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    try {
      row_node[r] = tree.AddPath(rows[r].resource);
    } catch (const std::invalid_argument& e) {
      ThrowAt(file_name, rows[r].line, std::string("bad resource path: ") + e.what());
    }
  }
  std::unordered_map<NodeId, NodeId> leaf_of;
  for (size_t r = 0; r < rows.size(); ++r) {
    NodeId node = row_node[r];
    if (tree.IsLeaf(node) || node == Hierarchy::kRoot) continue;
    if (!leaf_of.count(node)) leaf_of[node] = tree.LeafFor(node);
  }
  MicroModel model(std::move(tree), std::move(types), slices ? *slices : max_slice + 1);
  for (size_t r = 0; r < rows.size(); ++r) {
    auto found = leaf_of.find(row_node[r]);
    NodeId leaf = found == leaf_of.end() ? row_node[r] : found->second;
    model.Add(leaf, rows[r].type, rows[r].slice, rows[r].value);
  }
  return model;
}

MicroModel ReadModelCsv(const std::string& path, std::optional<int32_t> slices) {
  MappedFile file(path);
  return ParseModelCsv(file.bytes(), path, slices);
}

}  // namespace macroscope::analysis
