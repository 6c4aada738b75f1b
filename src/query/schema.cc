#include "query/schema.h"

#include <array>
#include <stdexcept>

namespace macroscope::query {

namespace {

constexpr const char* kTime = "";  // INTEGER ticks, or REAL for traces of decimal times

constexpr std::array kTraceInfo{
    ColumnSpec{"files", "TEXT", "the trace's files, as given, separated by a space"},
    ColumnSpec{"start", kTime, "the earliest time of the trace"},
    ColumnSpec{"end", kTime, "the latest time of the trace"},
    ColumnSpec{"start_ns", "INTEGER", "start in nanoseconds (NULL for decimal times)"},
    ColumnSpec{"end_ns", "INTEGER", "end in nanoseconds (NULL for decimal times)"},
    ColumnSpec{"tick_num", "INTEGER", "one tick lasts tick_num / tick_den seconds"},
    ColumnSpec{"tick_den", "INTEGER", ""},
    ColumnSpec{"unit", "TEXT", "the tick's name: s, ms, µs, ns, or num/den s"},
    ColumnSpec{"whole_ticks", "INTEGER", "1 when times are INTEGER ticks, 0 when they are REAL (Pajé, CSV)"},
    ColumnSpec{"epoch_ns", "INTEGER", "nanoseconds since 1970-01-01 UTC at tick 0, when the clock has a date"},
    ColumnSpec{"entities", "INTEGER", "states, events, links and variables"},
};

constexpr std::array kTypes{
    ColumnSpec{"id", "INTEGER", "the type's id"},
    ColumnSpec{"name", "TEXT", "its name (an event's name for CTF and kernel traces)"},
    ColumnSpec{"alias", "TEXT", "its alias (Pajé), or NULL"},
    ColumnSpec{"kind", "TEXT", "container, state, event, variable or link"},
    ColumnSpec{"parent", "INTEGER", "the container type it belongs to, NULL at the top"},
};

constexpr std::array kContainers{
    ColumnSpec{"id", "INTEGER", "the container's id"},
    ColumnSpec{"name", "TEXT", "its name"},
    ColumnSpec{"path", "TEXT", "the names from the top, separated by '/'"},
    ColumnSpec{"type", "TEXT", "its type's name"},
    ColumnSpec{"parent", "INTEGER", "the container holding it, NULL at the top"},
    ColumnSpec{"start", kTime, "its creation"},
    ColumnSpec{"end", kTime, "its destruction, or the trace's end"},
};

constexpr std::array kStates{
    ColumnSpec{"id", "INTEGER", "the entity's id", Role::kId},
    ColumnSpec{"container", "INTEGER", "its container (containers.id)", Role::kContainer},
    ColumnSpec{"type", "TEXT", "its type's name", Role::kType},
    ColumnSpec{"value", "TEXT", "its value's name (an OTF2 region, a thread's state)", Role::kValue},
    ColumnSpec{"ts", kTime, "its start", Role::kTs},
    ColumnSpec{"end", kTime, "its end", Role::kEnd},
    ColumnSpec{"dur", kTime, "end - ts", Role::kDur},
    ColumnSpec{"depth", "INTEGER", "its nesting level, 0 outermost", Role::kDepth},
    ColumnSpec{"ts_ns", "INTEGER", "ts in nanoseconds", Role::kTsNs},
    ColumnSpec{"end_ns", "INTEGER", "end in nanoseconds", Role::kEndNs},
    ColumnSpec{"dur_ns", "INTEGER", "dur in nanoseconds", Role::kDurNs},
};

constexpr std::array kEvents{
    ColumnSpec{"id", "INTEGER", "the entity's id", Role::kId},
    ColumnSpec{"container", "INTEGER", "its container (containers.id)", Role::kContainer},
    ColumnSpec{"type", "TEXT", "its type's name (a CTF or kernel event's name)", Role::kType},
    ColumnSpec{"value", "TEXT", "its value's name", Role::kValue},
    ColumnSpec{"ts", kTime, "its time", Role::kTs},
    ColumnSpec{"ts_ns", "INTEGER", "ts in nanoseconds", Role::kTsNs},
};

constexpr std::array kLinks{
    ColumnSpec{"id", "INTEGER", "the entity's id", Role::kId},
    ColumnSpec{"container", "INTEGER", "the container holding it (containers.id)", Role::kContainer},
    ColumnSpec{"type", "TEXT", "its type's name", Role::kType},
    ColumnSpec{"value", "TEXT", "its value's name", Role::kValue},
    ColumnSpec{"key", "TEXT", "the key pairing its start and its end", Role::kKey},
    ColumnSpec{"ts", kTime, "its start (the send)", Role::kTs},
    ColumnSpec{"end", kTime, "its end (the receive)", Role::kEnd},
    ColumnSpec{"dur", kTime, "end - ts", Role::kDur},
    ColumnSpec{"src", "INTEGER", "the sending container, NULL if unknown", Role::kSrc},
    ColumnSpec{"dst", "INTEGER", "the receiving container, NULL if unknown", Role::kDst},
    ColumnSpec{"ts_ns", "INTEGER", "ts in nanoseconds", Role::kTsNs},
    ColumnSpec{"end_ns", "INTEGER", "end in nanoseconds", Role::kEndNs},
    ColumnSpec{"dur_ns", "INTEGER", "dur in nanoseconds", Role::kDurNs},
};

constexpr std::array kVariables{
    ColumnSpec{"id", "INTEGER", "the entity's id", Role::kId},
    ColumnSpec{"container", "INTEGER", "its container (containers.id)", Role::kContainer},
    ColumnSpec{"type", "TEXT", "its type's name", Role::kType},
    ColumnSpec{"ts", kTime, "when the value began", Role::kTs},
    ColumnSpec{"end", kTime, "when it changed next", Role::kEnd},
    ColumnSpec{"dur", kTime, "end - ts", Role::kDur},
    ColumnSpec{"value", "REAL", "the value", Role::kValue},
    ColumnSpec{"ts_ns", "INTEGER", "ts in nanoseconds", Role::kTsNs},
    ColumnSpec{"end_ns", "INTEGER", "end in nanoseconds", Role::kEndNs},
    ColumnSpec{"dur_ns", "INTEGER", "dur in nanoseconds", Role::kDurNs},
};

constexpr std::array kArgs{
    ColumnSpec{"entity", "INTEGER", "the entity's id (states.id, events.id, …)", Role::kId},
    ColumnSpec{"key", "TEXT", "the field's name", Role::kKey},
    ColumnSpec{"value", "TEXT", "the field's text"},
};

constexpr std::array kTables{
    TableSpec{"trace_info", "one row: the trace's span and its clock", kTraceInfo},
    TableSpec{"types", "the type tree (without its root)", kTypes},
    TableSpec{"containers", "the container tree (without its root)", kContainers},
    TableSpec{"states", "every state: a span of a container in a value", kStates},
    TableSpec{"events", "every event: an instant of a container", kEvents},
    TableSpec{"links", "every link: from one container to another (a message)", kLinks},
    TableSpec{"variables", "every variable's value over a span", kVariables},
    TableSpec{"args", "the user fields of entities (Pajé's extra fields, CTF and kernel event fields)", kArgs},
};

}  // namespace

std::span<const TableSpec> Tables() { return kTables; }

const TableSpec& TableNamed(std::string_view name) {
  for (const TableSpec& t : kTables)
    if (name == t.name) return t;
  throw std::out_of_range("no table " + std::string(name));
}

std::vector<std::string> TableColumns(const TableSpec& table) {
  std::vector<std::string> names;
  for (const ColumnSpec& c : table.columns) names.emplace_back(c.name);
  return names;
}

std::string CreateStatement(const TableSpec& table) {
  std::string sql = std::string("CREATE TABLE ") + table.name + "(";
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnSpec& c = table.columns[i];
    if (i > 0) sql += ", ";
    sql += '"';
    sql += c.name;
    sql += '"';
    if (*c.type) sql += std::string(" ") + c.type;
  }
  return sql + ")";
}

}  // namespace macroscope::query
