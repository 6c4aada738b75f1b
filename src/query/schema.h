// The tables a query sees, declared once: each table's name and columns in
// order, with what each holds. The virtual tables fill their rows by these
// lists (entity_tables.cc, description_tables.cc), the shell's `.schema`
// prints them, docs/query.md describes them.
//
// Times: a trace whose clock counts whole ticks (CTF, OTF2, Chrome, perf,
// ftrace, Paraver, Nsight) gives `ts` and `end` as INTEGER ticks of its own
// clock, exact (`trace_info` tells the tick's length), and `ts_ns`,
// `end_ns`, `dur_ns` in nanoseconds of that clock; a Pajé or CSV trace,
// whose times are the decimal numbers its text gives, gives them as REAL,
// and its `*_ns` columns are NULL.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::query {

// What a column of an entity table holds (the cursor fills it by role).
enum class Role {
  kId,         // the entity's id: store << 40 | place in the store
  kContainer,  // the container's id (containers.id)
  kType,       // the entity type's name
  kValue,      // the value's name (states, events, links); a variable's number
  kKey,        // a link's key
  kTs,         // the start, an event's time
  kEnd,
  kDur,
  kDepth,  // a state's nesting level (0: outermost)
  kSrc,    // a link's sending container
  kDst,    // a link's receiving container
  kTsNs,
  kEndNs,
  kDurNs,
  kNone,  // a description table's column (no role)
};

struct ColumnSpec {
  const char* name;
  const char* type;  // as declared to SQLite: INTEGER, REAL, TEXT, or "" (INTEGER or REAL: times)
  const char* doc;
  Role role = Role::kNone;
};

struct TableSpec {
  const char* name;
  const char* doc;
  std::span<const ColumnSpec> columns;
};

// Every table, in the order `.tables` lists them.
std::span<const TableSpec> Tables();
// The table named `name`; throws std::out_of_range for another name.
const TableSpec& TableNamed(std::string_view name);
// The names of its columns, in order.
std::vector<std::string> TableColumns(const TableSpec& table);
// "CREATE TABLE name(col TYPE, …)": what a virtual table declares.
std::string CreateStatement(const TableSpec& table);

}  // namespace macroscope::query
