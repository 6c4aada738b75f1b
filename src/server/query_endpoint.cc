#include "server/query_endpoint.h"

#include <algorithm>
#include <cstdint>
#include <variant>

#include "query/query_session.h"
#include "server/json_writer.h"
#include "util/error.h"

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
                          const analysis::Cancellation* cancel, bool& cut, const query::TraceOpener& open_other) {
  query::QuerySession session(source, {name});
  session.Guard(cancel);
  if (open_other) session.SetTraceOpener(open_other);
  return session.Query(sql, max_rows, &cut);
}

query::TraceOpener ServedTraceOpener(const std::vector<std::shared_ptr<const ServedTrace>>& traces, bool& loading) {
  return [&traces, &loading](const std::string& other) -> const EntitySource& {
    std::vector<size_t> named;
    const bool digits = !other.empty() && other.size() < 10 &&
                        std::all_of(other.begin(), other.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && std::stoul(other) < traces.size()) {
      named.push_back(std::stoul(other));
    } else {
      for (size_t i = 0; i < traces.size(); ++i)
        if (traces[i]->name() == other) named.push_back(i);
    }
    std::string listed;
    for (size_t i = 0; i < traces.size() && i < 10; ++i)
      listed += (i ? ", " : "") + std::to_string(i) + " " + traces[i]->name();
    if (traces.size() > 10) listed += ", …";
    if (named.size() != 1) {
      const std::string what =
          named.empty() ? "is not a served trace" : "names " + std::to_string(named.size()) + " served traces";
      throw UserError("other: '" + other + "' " + what + "; other is a served trace's index or its name as listed (" +
                      listed + "), never a file");
    }
    const ServedTrace& trace = *traces[named[0]];
    switch (trace.state()) {
      case ServedTrace::State::kReady:
        return trace.source();
      case ServedTrace::State::kLoading:
        loading = true;
        throw UserError("other: " + trace.name() + " (trace " + std::to_string(named[0]) +
                        ") is still being read; ask again once the trace list says it is ready");
      case ServedTrace::State::kFailed:
        break;
    }
    throw UserError("other: " + trace.name() + " (trace " + std::to_string(named[0]) + ") could not be read");
  };
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
