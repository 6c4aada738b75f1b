// What both CSV readers (pj_dump's dump and the generic CSV) make of their
// lines before simulation: containers, types and timed entities, each
// with the file and line it came from. Simulate() turns a table into
// simulator calls (states into nested push/pop pairs from their levels,
// one time-ordered replay), so the two readers share one path into the
// trace model.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/paje/simulator.h"
#include "model/trace.h"
#include "util/mapped_file.h"

namespace macroscope::csv {

struct Source {
  uint32_t file = 0;  // index in Table::files
  uint32_t line = 0;
};

struct TableType {
  std::string name;
  TypeKind kind = TypeKind::kContainer;
  uint32_t parent = kNone;  // a container type (index); kNone: the root type
  uint32_t start_type = kNone, end_type = kNone;  // links: container types (kNone: the root type)
  uint32_t rank = kNone;    // when set: sort key in the dump's walk (becomes the alias)
  Source source;
};

struct TableContainer {
  std::string name;
  uint32_t type = kNone;    // a container type
  uint32_t parent = kNone;  // kNone: the root container
  double start = 0;
  double end = -1;          // -1: alive to the trace end
  uint32_t rank = kNone;    // as TableType::rank
  Source source;
};

struct TableEntity {
  TypeKind kind = TypeKind::kEvent;
  uint32_t container = kNone;  // kNone: the root container
  uint32_t type = kNone;
  double start = 0, end = 0;   // events: start only
  uint32_t level = 0;          // states: imbrication
  StringId value = kEmptyString;  // states, events, links
  double number = 0;           // variables
  uint32_t start_container = kNone, end_container = kNone;  // links
  StringId key = kEmptyString;  // links: kEmptyString for one of Simulate's own
  Source source;
};

class Table {
 public:
  explicit Table(Trace& trace) : trace_(trace) {}

  std::vector<std::string> files;
  std::vector<TableType> types;
  std::vector<TableContainer> containers;
  std::vector<TableEntity> entities;
  // When false, states of one (container, type) are taken in time order
  // and their levels computed (the generic CSV); when true, in table
  // order with the levels given (the dump's imbrication column).
  bool levels_given = false;

  Trace& trace() { return trace_; }
  StringId Intern(std::string_view s) { return trace_.strings().Intern(s); }
  [[noreturn]] void Fail(Source at, std::string_view message) const;
  // Times (docs/time.md): whole ticks counted from `origin` as a model
  // time, refused when a double would not hold them exactly (2^53 ticks,
  // time_base.h); a time that ParseClockTicks did not read, refused as out
  // of range when it is a plain decimal number, else as a bad number.
  double FromOrigin(int64_t ticks, int64_t origin, Source at) const;
  [[noreturn]] void FailTime(Source at, std::string_view text) const;

  // The type named `name`, added with `kind` and `parent` when new;
  // refused when it exists with another kind or parent.
  uint32_t TypeNamed(std::string_view name, TypeKind kind, uint32_t parent, Source at);
  // The most recent container named `name`; kNone when none.
  uint32_t ContainerNamed(std::string_view name) const;
  uint32_t AddContainer(TableContainer c);

 private:
  Trace& trace_;
  std::unordered_map<std::string, uint32_t> type_index_, container_index_;
};

// Simulates the table into `trace` (time base already set): types,
// containers, then every entity as simulator calls in time order; `last`
// is the trace end. Throws UserError "FILE:LINE: problem" for entities
// that cannot be replayed (states overlapping without nesting...).
void Simulate(Table& table, double last, const paje::SimulatorOptions& options);

// Maps each of `files` (kept in `mapped`, as the table points into them)
// and hands its text to `add(text, name)`; returns the bytes read.
uint64_t MapFiles(const std::vector<std::string>& files, std::vector<std::unique_ptr<MappedFile>>& mapped,
                  const std::function<void(std::string_view, const std::string&)>& add);

// The fields of one line split at commas, each without surrounding blanks.
void SplitFields(std::string_view line, std::vector<std::string_view>& fields);

}  // namespace macroscope::csv
