#include "server/query_endpoint.h"

#include <cstdint>
#include <variant>

#include "query/query_session.h"
#include "server/json_writer.h"

namespace macroscope::server {

namespace {

void WriteCell(JsonWriter& out, const analysis::Cell& cell) {
  constexpr int64_t kExact = int64_t{1} << 53;
  if (const auto* i = std::get_if<int64_t>(&cell)) {
    if (*i > -kExact && *i < kExact) out.Integer(*i);
    else out.String(std::to_string(*i));
  } else if (const auto* d = std::get_if<double>(&cell)) {
    out.Number(*d);
  } else if (const auto* s = std::get_if<std::string>(&cell)) {
    out.String(*s);
  } else {
    out.Null();
  }
}

}  // namespace

analysis::Table QueryRows(const EntitySource& source, const std::string& name, std::string_view sql, size_t max_rows,
                          const analysis::Cancellation* cancel, bool& cut) {
  query::QuerySession session(source, {name});
  session.Guard(cancel);
  return session.Query(sql, max_rows, &cut);
}

std::string QueryJson(const analysis::Table& table, bool cut, const TimeBase& base) {
  JsonWriter out;
  out.BeginObject().Key("columns").BeginArray();
  for (const std::string& column : table.columns) out.String(column);
  out.EndArray().Key("rows").BeginArray();
  for (size_t r = 0; r < table.rows(); ++r) {
    out.BeginArray();
    for (size_t c = 0; c < table.columns.size(); ++c) WriteCell(out, table.at(r, c));
    out.EndArray();
  }
  out.EndArray().Key("truncated").Bool(cut);
  out.Key("time_origin").String(std::to_string(base.whole_ticks ? base.origin : 0));
  out.EndObject();
  return out.Take();
}

}  // namespace macroscope::server
