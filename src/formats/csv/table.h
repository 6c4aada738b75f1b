// What both CSV readers (pj_dump's dump and the generic CSV) make of their
// lines before simulation: containers, types and timed entities, each
// with the file and line it came from. Simulate() turns a table into
// simulator calls (states into nested push/pop pairs from their levels,
// one time-ordered replay), so the two readers share one path into the
// trace model. The entities, and the simulator calls made of them, are
// held up to a memory budget and sorted on disk beyond it
// (util/external_sort.h): a read takes bounded memory, streamed or not.
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
#include "util/external_sort.h"
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

// (Fields in an order that leaves no padding: the table's sort holds them.)
struct TableEntity {
  double start = 0, end = 0;   // events: start only
  double number = 0;           // variables
  TypeKind kind = TypeKind::kEvent;
  uint32_t container = kNone;  // kNone: the root container
  uint32_t type = kNone;
  uint32_t level = 0;          // states: imbrication
  StringId value = kEmptyString;  // states, events, links
  uint32_t start_container = kNone, end_container = kNone;  // links
  StringId key = kEmptyString;  // links: kEmptyString for one of Simulate's own
  Source source;
};

// An entity as the table's sort holds it: its store (the (container,
// type) numbered in order of first appearance) and its place in the table.
struct TableRow {
  TableEntity entity;
  uint64_t index = 0;
  uint32_t store = 0;
};

// The order Simulate takes the rows in: store by store, each in table
// order, but the states of a store whose levels are computed: by start,
// the longer first at one start (the enclosing state before the enclosed).
struct RowOrder {
  bool states_by_time = false;
  bool operator()(const TableRow& a, const TableRow& b) const {
    if (a.store != b.store) return a.store < b.store;
    if (states_by_time && a.entity.kind == TypeKind::kState) {
      if (a.entity.start != b.entity.start) return a.entity.start < b.entity.start;
      if (a.entity.end != b.entity.end) return a.entity.end > b.entity.end;
    }
    return a.index < b.index;
  }
};

class Table {
 public:
  // `levels_given`: when false, states of one (container, type) are taken
  // in time order and their levels computed (the generic CSV); when true,
  // in table order with the levels given (the dump's imbrication column).
  // `memory`: bytes of rows (half) and of simulator calls (half) held
  // before they go to files in $TMPDIR.
  Table(Trace& trace, bool levels_given, size_t memory);

  std::vector<std::string> files;
  std::vector<TableType> types;
  std::vector<TableContainer> containers;
  const bool levels_given;
  const size_t memory;
  // When not empty, links' start_container and end_container index it
  // (the dump names them before their Container lines may be read).
  std::vector<uint32_t> link_containers;

  // Adds an entity after all those added before (its table index: their count).
  void AddEntity(const TableEntity& e);
  uint64_t entity_count() const { return entity_count_; }
  // The rows in RowOrder, once all are added; false at the end.
  bool NextRow(TableRow& row);

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
  std::unordered_map<uint64_t, uint32_t> store_of_;  // (container, type) -> store
  uint64_t entity_count_ = 0;
  // Rows that come in RowOrder (a dump's: pj_dump prints a container's
  // entities together, type by type) need no sort: held up to the budget,
  // then appended to a file, as they come. The others go to the sort;
  // NextRow merges both (no two rows are equal: their indexes differ).
  std::vector<TableRow> ordered_;
  std::unique_ptr<RunFile> ordered_file_;
  size_t ordered_read_ = 0;  // of ordered_, once the file is read
  bool reading_ = false, ordered_head_ = false, sorted_head_ = false;
  TableRow ordered_next_, sorted_next_;  // while adding: the last row in order
  bool NextOrdered(TableRow& row);
  const RowOrder order_;
  ExternalSort<TableRow, RowOrder> rows_;
};

// Simulates the table into `trace` (time base already set): types,
// containers, then every entity as simulator calls in time order; `last`
// is the trace end. Throws UserError "FILE:LINE: problem" for entities
// that cannot be replayed (states overlapping without nesting...).
void Simulate(Table& table, double last, const paje::SimulatorOptions& options);

// Maps each of `files` (kept in `mapped`) and hands its text and map to
// `add(text, name, map)`; returns the bytes read.
uint64_t MapFiles(const std::vector<std::string>& files, std::vector<std::unique_ptr<MappedFile>>& mapped,
                  const std::function<void(std::string_view, const std::string&, const MappedFile*)>& add);

// Hands each line of `text` (without its '\n') to `line(text)`; `mapped`
// (null for text held otherwise): the file `text` is, whose pages are let
// go of behind the reading (they come back from the file when touched).
template <typename F>
void ForEachLine(std::string_view text, const MappedFile* mapped, F&& line) {
  constexpr size_t kReleaseStep = size_t{16} << 20;
  const char* const begin = text.data();
  size_t released = 0;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view l = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    line(l);
    const size_t done = static_cast<size_t>(text.data() - begin);
    if (mapped && done - released >= kReleaseStep) {
      mapped->ReleaseRange(released, done - released);
      released = done;
    }
  }
  if (mapped) mapped->ReleaseRange(0, static_cast<size_t>(text.data() - begin));
}

// The fields of one line split at commas, each without surrounding blanks.
void SplitFields(std::string_view line, std::vector<std::string_view>& fields);

}  // namespace macroscope::csv
