#include "server/window.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <utility>

#include "analysis/parallel.h"
#include "model/cell_summary.h"
#include "model/lod_window.h"
#include "model/time_bins.h"
#include "server/api_error.h"
#include "server/json_writer.h"

namespace macroscope::server {

namespace {

// An entity of the answer, copied out of its chunk (which a store read
// lazily may let go before the answer is written).
using Item = EntityCopy;

// What one column of one level of a row gathers.
struct Cell {
  int items = 0;  // items started in this column: held[0, items)
  // The first items in store order, whatever order the entities came in
  // (a longer one that comes later but lies earlier takes the place of
  // the last, which is merged).
  std::array<Item, kMaxItemsPerColumn> held;
  CellSummary merged;  // keeps its tallies' capacity from row to row

  bool empty() const { return items == 0 && merged.count == 0; }
};

[[noreturn]] void TooManyPrimitives() {
  BadRequest("the window needs more than " + std::to_string(kMaxPrimitives) +
             " items and summaries: ask for fewer containers or a smaller width");
}

struct Summary {
  uint16_t level;
  double start, end;
  double min, max;
  uint64_t count;
  StringId value;
};

struct Row {
  TypeKind kind = TypeKind::kState;
  std::vector<Item> items;
  std::vector<Summary> summaries;
};

// One level's cells, reused from row to row: only the touched ones are
// reset, so a row costs its entities, not its width.
struct LevelCells {
  std::vector<Cell> cells;
  std::vector<int> touched;
};

// Links of the window, grouped by the row they are answered in: one link,
// or a summary's cell of links (model/lod_summary.h), whole.
struct LinkRef {
  ContainerId row;
  Item link;
  const LodCell* cell = nullptr;
};

class WindowBuilder {
 public:
  WindowBuilder(const EntitySource& source, const WindowRequest& request, const analysis::Cancellation* cancel)
      : source_(source),
        cancel_(cancel),
        request_(request),
        pixel_((request.end - request.start) / request.width),
        bins_(source.trace().start_time(), source.trace().end_time()),
        level_(bins_.LevelFor(pixel_)),
        item_length_(std::max(pixel_, bins_.BinWidth(level_))),
        first_bin_(bins_.Bin(request.start, level_)),
        last_bin_(bins_.Bin(request.end, level_)),
        columns_(static_cast<int>(std::min<uint64_t>(last_bin_ - first_bin_ + 1,
                                                     2 * static_cast<uint64_t>(request.width) + 8))) {}

  void SetValueFilter(std::vector<StringId> values) {
    filter_values_ = !request_.values.empty();
    values_ = std::move(values);
    std::sort(values_.begin(), values_.end());
  }

  // The row of one store (states, events, variables).
  void AddStore(uint32_t store_index) {
    const EntityStore& s = source_.trace().stores()[store_index];
    if (!AddFromSummary(store_index, s.kind)) {
      ForEachInWindow(store_index, [&](const EntityChunk& c, size_t i) {
        if (KeepValue(c, i)) Add(s.kind, Item::Of(c, i));
      });
    }
    CloseRow(s.container, s.type, s.kind);
  }

  // Links go to the row of their start container (when it is asked for and
  // lies in [first, last)).
  void CollectLinks(uint32_t store_index, const std::vector<bool>& selected, ContainerId first, ContainerId last) {
    const EntityStore& s = source_.trace().stores()[store_index];
    auto row_of = [&](ContainerId from) { return from < selected.size() ? from : s.container; };
    auto kept = [&](ContainerId row) { return selected[row] && row >= first && row < last; };
    std::vector<LinkRef>& refs = links_[s.type];
    if (std::shared_ptr<const LodSummary> summary = SummaryFor(store_index)) {
      macroscope::ForEachInWindow(
          *summary, source_, store_index, bins_, Window(),
          [&](const EntityCopy& e) {
            if (kept(row_of(e.from))) refs.push_back({row_of(e.from), e});
          },
          [&](const LodCell& c) {
            if (kept(row_of(c.row))) refs.push_back({row_of(c.row), {}, &c});
          });
      held_.push_back(std::move(summary));  // its cells until AddLinks
      return;
    }
    ForEachInWindow(store_index, [&](const EntityChunk& c, size_t i) {
      if (!KeepValue(c, i)) return;
      const ContainerId row = row_of(c.peer_start[i]);
      if (kept(row)) refs.push_back({row, Item::Of(c, i)});
    });
  }

  void AddLinks() {
    for (auto& [type, refs] : links_) {
      std::stable_sort(refs.begin(), refs.end(), [](const LinkRef& a, const LinkRef& b) { return a.row < b.row; });
      for (size_t begin = 0; begin < refs.size();) {
        size_t end = begin;
        while (end < refs.size() && refs[end].row == refs[begin].row) {
          if (const LodCell* c = refs[end].cell) {
            Touch(0, ColumnOfBin(c->bin)).merged.Merge(TypeKind::kLink, c->cell);
          } else {
            Add(TypeKind::kLink, refs[end].link);
          }
          ++end;
        }
        CloseRow(refs[begin].row, type, TypeKind::kLink);
        begin = end;
      }
    }
  }

  // The rows gathered, as elements of the array `w` is in; a value is
  // written as its index in the answer's table (index_of, by StringId).
  void WriteRows(JsonWriter& w, const std::vector<uint32_t>& index_of) const {
    for (const auto& [key, row] : rows_) {
      w.BeginObject().Key("container").Integer(key.first).Key("type").Integer(key.second);
      w.Key("kind").String(TypeKindName(row.kind));
      w.Key("items").BeginArray();
      for (const Item& item : row.items) WriteItem(w, row.kind, item, index_of);
      w.EndArray().Key("summaries").BeginArray();
      for (const Summary& summary : row.summaries) WriteSummary(w, row.kind, summary, index_of);
      w.EndArray().EndObject();
    }
  }

  bool empty() const { return rows_.empty(); }
  // The values the rows name, each once, in no set order.
  const std::vector<StringId>& values_used() const { return values_used_; }
  uint64_t shown() const { return shown_; }
  uint64_t hidden() const { return hidden_; }
  size_t primitives() const { return primitives_; }

 private:
  // Calls f(chunk, i) for every entity of store `k` that intersects the
  // window. A store in memory with an index, asked for a narrow window,
  // asks its index; otherwise the chunks that meet the window are read in
  // order (in memory, sequential reading beats the index's tree walk when
  // the window covers much of the store).
  template <class F>
  void ForEachInWindow(uint32_t k, F&& f) const {
    const double t1 = request_.start, t2 = request_.end;
    const Trace& trace = source_.trace();
    const EntityStore* s = source_.in_memory(k);
    const double extent = trace.end_time() - trace.start_time();
    if (s && s->size() >= 4096 && s->index.size() && !(extent > 0 && (t2 - t1) * 4 >= extent)) {
      EntityChunk whole = EntityChunk::Of(*s, 0, s->size());
      whole.store = k;
      for (uint32_t i : s->index.Query(t1, t2)) f(whole, i);
      return;
    }
    source_.ForEachChunk(k, t1, t2, [&](const EntityChunk& c) {
      analysis::ThrowIfCancelled(cancel_);
      Scan(c, t1, t2, f);
    });
  }

  // The window as a summary reads it (model/lod_window.h).
  LodWindow Window() const { return {request_.start, request_.end, level_, item_length_}; }

  // Store `k`'s level-of-detail summary, when it has one down to the
  // columns' level and no value filter applies (cells mix values); null
  // otherwise.
  std::shared_ptr<const LodSummary> SummaryFor(uint32_t k) const {
    if (filter_values_ || level_ > source_.summary_finest(k)) return nullptr;
    analysis::ThrowIfCancelled(cancel_);
    return source_.summary(k, level_, first_bin_, last_bin_);
  }

  int ColumnOfBin(uint64_t bin) const {
    return static_cast<int>(std::min<uint64_t>(bin - first_bin_, columns_ - 1));
  }

  // The row of store `k` from its summary (SummaryFor): the crossers, each
  // added as an entity is, and the cells merged whole, but for the bins
  // read from the chunks (model/lod_window.h). False (nothing added) when
  // there is none.
  bool AddFromSummary(uint32_t k, TypeKind kind) {
    const std::shared_ptr<const LodSummary> summary = SummaryFor(k);
    if (!summary) return false;
    macroscope::ForEachInWindow(
        *summary, source_, k, bins_, Window(), [&](const EntityCopy& e) { Add(kind, e); },
        [&](const LodCell& c) { Touch(c.level, ColumnOfBin(c.bin)).merged.Merge(kind, c.cell); });
    return true;
  }

  template <class F>
  static void Scan(const EntityChunk& c, double t1, double t2, F&& f) {
    const size_t n = c.size();
    if (c.end.empty()) {
      for (size_t i = 0; i < n; ++i)
        if (c.start[i] >= t1 && c.start[i] <= t2) f(c, i);
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      const double a = c.start[i], b = c.end[i];
      if (std::min(a, b) <= t2 && std::max(a, b) >= t1) f(c, i);
    }
  }

  bool KeepValue(const EntityChunk& c, size_t i) const {
    if (!filter_values_ || c.kind == TypeKind::kVariable) return true;
    return std::binary_search(values_.begin(), values_.end(), c.value[i]);
  }

  // The column of an entity that begins at `t`: its time bin (an entity
  // begun before the window is in the first).
  int Column(double t) const {
    const uint64_t column = bins_.Bin(std::max(t, request_.start), level_) - first_bin_;
    return static_cast<int>(std::min<uint64_t>(column, columns_ - 1));
  }

  LevelCells& Level(uint16_t level) {
    if (level >= levels_.size()) levels_.resize(level + 1);
    LevelCells& l = levels_[level];
    if (l.cells.empty()) l.cells.resize(columns_);
    return l;
  }

  void Add(TypeKind kind, const Item& e) {
    const uint16_t level = kind == TypeKind::kState ? e.level : 0;
    Cell& cell = Touch(level, Column(e.Low()));
    if (kind != TypeKind::kEvent && e.High() - e.Low() >= item_length_) {
      if (cell.items < kMaxItemsPerColumn) {
        cell.held[cell.items++] = e;
        return;
      }
      Item* last = std::max_element(cell.held.begin(), cell.held.end());
      if (e < *last) {
        const Item later = std::exchange(*last, e);
        cell.merged.Add(kind, later);
        return;
      }
    }
    cell.merged.Add(kind, e);
  }

  // The cell of (level, column), noted as touched.
  Cell& Touch(uint16_t level, int column) {
    LevelCells& l = Level(level);
    used_levels_ = std::max<size_t>(used_levels_, level + 1);
    Cell& cell = l.cells[column];
    if (cell.empty()) l.touched.push_back(column);
    return cell;
  }

  // Turns the cells of the row just added into its summaries (an event or
  // a link alone in its column into an item: a summary of one would hide
  // what it is, and a link's ends) and resets them.
  void CloseRow(ContainerId container, TypeId type, TypeKind kind) {
    Row row;
    row.kind = kind;
    for (size_t level = 0; level < used_levels_; ++level) {
      LevelCells& l = levels_[level];
      std::sort(l.touched.begin(), l.touched.end());
      for (int column : l.touched) {
        Cell& cell = l.cells[column];
        const CellSummary& m = cell.merged;
        row.items.insert(row.items.end(), cell.held.begin(), cell.held.begin() + cell.items);
        if (m.count == 1 && (kind == TypeKind::kEvent || kind == TypeKind::kLink)) {
          row.items.push_back(m.first);
        } else if (m.count > 0) {
          row.summaries.push_back({static_cast<uint16_t>(level), m.start, m.end, m.min, m.max, m.count,
                                   kind == TypeKind::kVariable ? kEmptyString : m.Dominant()});
        }
        cell.merged.Clear();
        cell.items = 0;
      }
      l.touched.clear();
    }
    used_levels_ = 0;
    if (row.items.empty() && row.summaries.empty()) return;
    // In store order: the same answer whether the entities came from an
    // index, a scan, or chunks read in file order.
    std::sort(row.items.begin(), row.items.end());
    primitives_ += row.items.size() + row.summaries.size();
    if (primitives_ > kMaxPrimitives) TooManyPrimitives();
    Account(row);
    rows_.emplace(std::make_pair(container, type), std::move(row));
  }

  // Counts the row's entities and notes the values it names.
  void Account(const Row& row) {
    shown_ += row.items.size();
    for (const Summary& summary : row.summaries) hidden_ += summary.count;
    if (row.kind == TypeKind::kVariable) return;
    for (const Item& item : row.items) UseValue(item.value);
    for (const Summary& summary : row.summaries) UseValue(summary.value);
  }

  // Value tables are sized by the largest value used, not by the string
  // pool (which holds every link key and user field too).
  void UseValue(StringId value) {
    if (value >= value_used_.size()) value_used_.resize(std::max<size_t>(value + 1, 2 * value_used_.size()));
    if (value_used_[value]) return;
    value_used_[value] = true;
    values_used_.push_back(value);
  }

  // [id, start, (end), value index or number, (level), (from, to)]: the
  // fields of the entity's kind, in the order of docs/serve.md.
  static void WriteItem(JsonWriter& w, TypeKind kind, const Item& item, const std::vector<uint32_t>& index_of) {
    char id[32];
    w.BeginArray().String(EntityId(item.store, item.index, id)).Number(item.start);
    if (kind != TypeKind::kEvent) w.Number(item.end);
    if (kind == TypeKind::kVariable) {
      w.Number(item.number);
    } else {
      w.Integer(index_of[item.value]);
    }
    if (kind == TypeKind::kState) w.Integer(item.level);
    if (kind == TypeKind::kLink) w.Integer(item.from).Integer(item.to);
    w.EndArray();
  }

  // [start, end, value index or min and max, (level), count].
  static void WriteSummary(JsonWriter& w, TypeKind kind, const Summary& summary,
                           const std::vector<uint32_t>& index_of) {
    w.BeginArray().Number(summary.start).Number(summary.end);
    if (kind == TypeKind::kVariable) {
      w.Number(summary.min).Number(summary.max);
    } else {
      w.Integer(index_of[summary.value]);
    }
    if (kind == TypeKind::kState) w.Integer(summary.level);
    w.Integer(static_cast<int64_t>(summary.count)).EndArray();
  }

  // "S:I" in `buffer`, without allocating (at most 10 + 1 + 20 characters).
  static std::string_view EntityId(uint32_t store, uint64_t index, char (&buffer)[32]) {
    char* end = std::to_chars(buffer, buffer + 10, store).ptr;
    *end++ = ':';
    end = std::to_chars(end, buffer + sizeof buffer, index).ptr;
    return {buffer, static_cast<size_t>(end - buffer)};
  }

  const EntitySource& source_;
  const analysis::Cancellation* cancel_;
  const WindowRequest& request_;
  const double pixel_;
  // Columns are the time bins of the trace's span (model/time_bins.h) at
  // the finest level whose bins are at least a pixel wide: between one and
  // two pixels, the same whatever the window's edges, so that a store's
  // level-of-detail summaries hold them. An entity at least a column long
  // is an item.
  const TimeBins bins_;
  const int level_;
  const double item_length_;
  const uint64_t first_bin_, last_bin_;
  const int columns_;
  bool filter_values_ = false;
  std::vector<StringId> values_;
  std::vector<LevelCells> levels_;
  size_t used_levels_ = 0;
  std::map<TypeId, std::vector<LinkRef>> links_;
  std::vector<std::shared_ptr<const LodSummary>> held_;  // the summaries links_ points into
  std::map<std::pair<ContainerId, TypeId>, Row> rows_;
  size_t primitives_ = 0;
  uint64_t shown_ = 0, hidden_ = 0;
  std::vector<bool> value_used_;  // by StringId, grown as values come
  std::vector<StringId> values_used_;
};

// The values an answer names, each once, sorted by name; index_of gives
// a value's index by StringId.
struct ValueTable {
  std::vector<StringId> values;
  std::vector<uint32_t> index_of;
};

ValueTable MakeValueTable(const Trace& trace, const std::vector<WindowBuilder>& builders) {
  ValueTable table;
  for (const WindowBuilder& builder : builders) {
    table.values.insert(table.values.end(), builder.values_used().begin(), builder.values_used().end());
  }
  std::sort(table.values.begin(), table.values.end());
  table.values.erase(std::unique(table.values.begin(), table.values.end()), table.values.end());
  table.index_of.resize(table.values.empty() ? 0 : table.values.back() + 1);
  std::sort(table.values.begin(), table.values.end(),
            [&](StringId a, StringId b) { return trace.Str(a) < trace.Str(b); });
  for (size_t k = 0; k < table.values.size(); ++k) table.index_of[table.values[k]] = static_cast<uint32_t>(k);
  return table;
}

// Room reserved per item or summary: 23 bytes with integer times, 40 with
// ten significant digits (docs/serve.md). Generous, as a reserve is only
// address space while a short one costs a copy.
constexpr size_t kBytesPerPrimitive = 40;

// The answer up to its first row: the window, the value table, and the
// opened "rows", with room for the whole answer.
JsonWriter Head(const Trace& trace, const WindowRequest& request, const ValueTable& table, size_t primitives) {
  JsonWriter w;
  w.Reserve(kBytesPerPrimitive * primitives + 64 * table.values.size() + 4096);
  w.BeginObject().Key("start").Number(request.start).Key("end").Number(request.end);
  w.Key("width").Integer(request.width).Key("values").BeginArray();
  for (StringId value : table.values) w.String(trace.Str(value));
  w.EndArray().Key("rows").BeginArray();
  return w;
}

// The parts' texts appended to the first one (the head), then the totals.
std::string Join(std::vector<JsonWriter>& parts, uint64_t shown, uint64_t hidden) {
  const std::string tail = "],\"shown\":" + std::to_string(shown) + ",\"hidden\":" + std::to_string(hidden) + "}";
  size_t size = tail.size();
  for (const JsonWriter& part : parts) size += part.size();
  std::string out = parts.front().Take();
  out.reserve(size);  // a no-op when the head's estimate was enough
  for (size_t k = 1; k < parts.size(); ++k) out += parts[k].text();
  out += tail;
  return out;
}

// Below this many entities in the asked rows, one thread answers.
constexpr size_t kEntitiesPerThread = 200'000;

// The stores to answer and how they are split among threads.
struct Plan {
  std::vector<bool> selected;  // by container
  std::vector<uint32_t> stores, links;
  // Parts are runs of whole containers with about the same number of
  // entities, so that their rows, answered in order, follow one another:
  // part p answers stores[part_begin[p], part_begin[p + 1]) and the links
  // starting in [first_container[p], first_container[p + 1]).
  std::vector<size_t> part_begin{0};
  std::vector<ContainerId> first_container{0};
  int parts() const { return static_cast<int>(part_begin.size()) - 1; }
};

std::vector<bool> Selected(size_t size, const std::vector<uint32_t>& ids, const char* what) {
  std::vector<bool> selected(size, ids.empty());
  for (uint32_t id : ids) {
    if (id >= size) NotFound(std::string("unknown ") + what + " " + std::to_string(id));
    selected[id] = true;
  }
  return selected;
}

Plan MakePlan(const EntitySource& source, const WindowRequest& request) {
  const Trace& trace = source.trace();
  Plan plan;
  plan.selected = Selected(trace.containers().size(), request.containers, "container");
  const std::vector<bool> kept_types = Selected(trace.types().size(), request.types, "type");
  // The rows to answer, by container; links apart (few, any container's).
  size_t entities = 0;
  for (uint32_t index = 0; index < trace.stores().size(); ++index) {
    const EntityStore& s = trace.stores()[index];
    if (!kept_types[s.type]) continue;
    if (s.kind == TypeKind::kLink) {
      plan.links.push_back(index);
    } else if (plan.selected[s.container]) {
      plan.stores.push_back(index);
      entities += source.size(index);
    }
  }
  std::stable_sort(plan.stores.begin(), plan.stores.end(), [&](uint32_t a, uint32_t b) {
    return trace.stores()[a].container < trace.stores()[b].container;
  });
  const size_t parts =
      std::clamp<size_t>(entities / kEntitiesPerThread, 1, static_cast<size_t>(analysis::DefaultThreadCount()));
  size_t done = 0;
  for (size_t k = 0; k < plan.stores.size(); ++k) {
    const EntityStore& s = trace.stores()[plan.stores[k]];
    const bool new_container = k > 0 && s.container != trace.stores()[plan.stores[k - 1]].container;
    if (new_container && plan.part_begin.size() < parts && done * parts >= entities * plan.part_begin.size()) {
      plan.part_begin.push_back(k);
      plan.first_container.push_back(s.container);
    }
    done += source.size(plan.stores[k]);
  }
  plan.part_begin.push_back(plan.stores.size());
  plan.first_container.push_back(static_cast<ContainerId>(trace.containers().size()));
  return plan;
}

// Each part's rows, gathered by one thread each.
std::vector<WindowBuilder> Gather(const EntitySource& source, const WindowRequest& request, const Plan& plan,
                                  const analysis::Cancellation* cancel) {
  const Trace& trace = source.trace();
  std::vector<StringId> values;
  for (const auto& name : request.values) {
    StringId id = trace.strings().Find(name);
    if (id != StringPool::kNoId) values.push_back(id);
  }
  std::vector<WindowBuilder> builders;
  builders.reserve(plan.parts());
  for (int part = 0; part < plan.parts(); ++part) builders.emplace_back(source, request, cancel).SetValueFilter(values);
  analysis::ParallelFor(plan.parts(), plan.parts(), [&](int64_t part, int) {
    WindowBuilder& builder = builders[part];
    for (size_t k = plan.part_begin[part]; k < plan.part_begin[part + 1]; ++k) builder.AddStore(plan.stores[k]);
    for (uint32_t index : plan.links) {
      builder.CollectLinks(index, plan.selected, plan.first_container[part], plan.first_container[part + 1]);
    }
    builder.AddLinks();
  });
  return builders;
}

// The answer from the gathered parts. Value indexes are the answer's, so
// the table comes before any row is written; then each part writes its
// rows, in parallel, after those of the parts before it.
std::string Write(const Trace& trace, const WindowRequest& request, const std::vector<WindowBuilder>& builders) {
  size_t primitives = 0;
  uint64_t shown = 0, hidden = 0;
  for (const WindowBuilder& builder : builders) {
    primitives += builder.primitives();
    shown += builder.shown();
    hidden += builder.hidden();
  }
  if (primitives > kMaxPrimitives) TooManyPrimitives();
  const ValueTable table = MakeValueTable(trace, builders);
  const int parts = static_cast<int>(builders.size());
  std::vector<JsonWriter> texts(parts);
  texts[0] = Head(trace, request, table, primitives);
  bool rows_before = !builders[0].empty();
  for (int part = 1; part < parts; ++part) {
    texts[part].Reserve(kBytesPerPrimitive * builders[part].primitives());
    texts[part].ResumeArray(rows_before);
    rows_before = rows_before || !builders[part].empty();
  }
  analysis::ParallelFor(parts, parts,
                        [&](int64_t part, int) { builders[part].WriteRows(texts[part], table.index_of); });
  return Join(texts, shown, hidden);
}

}  // namespace

std::string WindowJson(const EntitySource& source, const WindowRequest& request,
                       const analysis::Cancellation* cancel) {
  if (!(request.start < request.end)) BadRequest("start must be before end");
  if (request.width < 1 || request.width > kMaxWidth) {
    BadRequest("width must be in [1, " + std::to_string(kMaxWidth) + "]");
  }
  if (!((request.end - request.start) / request.width > 0)) BadRequest("the window is too narrow");
  const Plan plan = MakePlan(source, request);
  return Write(source.trace(), request, Gather(source, request, plan, cancel));
}

}  // namespace macroscope::server
