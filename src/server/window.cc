#include "server/window.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/parallel.h"
#include "server/api_error.h"
#include "server/json_writer.h"

namespace macroscope::server {

namespace {

// Weight of one value inside a summary: its time (0 for events) and count.
struct Tally {
  StringId value;
  double time;
  uint64_t count;
};

// What one pixel column of one level of a row gathers.
struct Cell {
  uint64_t count = 0;  // entities merged (not items)
  int items = 0;       // items started in this column
  double start = 0, end = 0;
  double min = 0, max = 0;        // variables
  uint32_t store = 0, index = 0;  // the first merged entity, for one alone in its column
  std::vector<Tally> tallies;     // keeps its capacity from row to row

  StringId Dominant() const {
    const Tally* best = nullptr;
    for (const Tally& t : tallies) {
      if (!best || t.time > best->time || (t.time == best->time && t.count > best->count)) best = &t;
    }
    return best ? best->value : kEmptyString;
  }
};

[[noreturn]] void TooManyPrimitives() {
  BadRequest("the window needs more than " + std::to_string(kMaxPrimitives) +
             " items and summaries: ask for fewer containers or a smaller width");
}

struct Item {
  uint32_t store;
  uint32_t index;
};

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

// Links of the window, grouped by the row they are answered in.
struct LinkRef {
  ContainerId row;
  uint32_t store, index;
};

class WindowBuilder {
 public:
  WindowBuilder(const Trace& trace, const WindowRequest& request)
      : trace_(trace),
        request_(request),
        pixel_((request.end - request.start) / request.width),
        per_pixel_(request.width / (request.end - request.start)) {}

  void SetValueFilter(std::vector<StringId> values) {
    filter_values_ = !request_.values.empty();
    values_ = std::move(values);
    std::sort(values_.begin(), values_.end());
  }

  // The row of one store (states, events, variables).
  void AddStore(uint32_t store_index) {
    const EntityStore& s = trace_.stores()[store_index];
    ForEachInWindow(s, [&](uint32_t i) {
      if (KeepValue(s, i)) Add(s, store_index, i);
    });
    CloseRow(s.container, s.type, s.kind);
  }

  // Links go to the row of their start container (when it is asked for and
  // lies in [first, last)).
  void CollectLinks(uint32_t store_index, const std::vector<bool>& selected, ContainerId first, ContainerId last) {
    const EntityStore& s = trace_.stores()[store_index];
    ForEachInWindow(s, [&](uint32_t i) {
      if (!KeepValue(s, i)) return;
      const ContainerId row = s.peer_start[i] < selected.size() ? s.peer_start[i] : s.container;
      if (selected[row] && row >= first && row < last) links_[s.type].push_back({row, store_index, i});
    });
  }

  void AddLinks() {
    for (auto& [type, refs] : links_) {
      std::stable_sort(refs.begin(), refs.end(), [](const LinkRef& a, const LinkRef& b) { return a.row < b.row; });
      for (size_t begin = 0; begin < refs.size();) {
        size_t end = begin;
        while (end < refs.size() && refs[end].row == refs[begin].row) {
          Add(trace_.stores()[refs[end].store], refs[end].store, refs[end].index);
          ++end;
        }
        CloseRow(refs[begin].row, type, TypeKind::kLink);
        begin = end;
      }
    }
  }

  // The rows gathered, as the elements of a JSON array (no brackets).
  std::string Rows(uint64_t& shown, uint64_t& hidden) const {
    JsonWriter w;
    w.Reserve(64 * primitives_ + 16);  // about what one primitive takes
    w.BeginArray();
    for (const auto& [key, row] : rows_) {
      w.BeginObject().Key("container").Integer(key.first).Key("type").Integer(key.second);
      w.Key("kind").String(TypeKindName(row.kind));
      w.Key("items").BeginArray();
      for (const Item& item : row.items) WriteItem(w, row.kind, item);
      w.EndArray().Key("summaries").BeginArray();
      for (const Summary& summary : row.summaries) {
        WriteSummary(w, row.kind, summary);
        hidden += summary.count;
      }
      w.EndArray().EndObject();
      shown += row.items.size();
    }
    w.EndArray();
    std::string text = w.Take();
    return text.substr(1, text.size() - 2);
  }

  size_t primitives() const { return primitives_; }

 private:
  // Calls f(i) for every entity of `s` that intersects the window. A window
  // that covers much of the store reads it in order (sequential memory
  // beats the index's tree walk there); a narrow one asks the index.
  template <class F>
  void ForEachInWindow(const EntityStore& s, F&& f) const {
    const double t1 = request_.start, t2 = request_.end;
    if (s.size() < 4096 || !s.index.size()) {
      Scan(s, t1, t2, f);
      return;
    }
    const double extent = trace_.end_time() - trace_.start_time();
    if (extent > 0 && (t2 - t1) * 4 >= extent) {
      Scan(s, t1, t2, f);
    } else {
      for (uint32_t i : s.index.Query(t1, t2)) f(i);
    }
  }

  template <class F>
  static void Scan(const EntityStore& s, double t1, double t2, F&& f) {
    const size_t n = s.size();
    if (s.end.empty()) {
      for (uint32_t i = 0; i < n; ++i)
        if (s.start[i] >= t1 && s.start[i] <= t2) f(i);
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      const double a = s.start[i], b = s.end[i];
      if (std::min(a, b) <= t2 && std::max(a, b) >= t1) f(i);
    }
  }

  bool KeepValue(const EntityStore& s, uint32_t i) const {
    if (!filter_values_ || s.kind == TypeKind::kVariable) return true;
    return std::binary_search(values_.begin(), values_.end(), s.value[i]);
  }

  int Column(double t) const {
    double x = (std::max(t, request_.start) - request_.start) * per_pixel_;
    return static_cast<int>(std::min(x, static_cast<double>(request_.width - 1)));
  }

  LevelCells& Level(uint16_t level) {
    if (level >= levels_.size()) levels_.resize(level + 1);
    LevelCells& l = levels_[level];
    if (l.cells.empty()) l.cells.resize(request_.width);
    return l;
  }

  void Add(const EntityStore& s, uint32_t store, uint32_t i) {
    const double a = std::min(s.start[i], s.End(i));
    const double b = std::max(s.start[i], s.End(i));
    const uint16_t level = s.kind == TypeKind::kState ? s.level[i] : 0;
    const int column = Column(a);
    LevelCells& l = Level(level);
    used_levels_ = std::max<size_t>(used_levels_, level + 1);
    Cell& cell = l.cells[column];
    if (cell.count == 0 && cell.items == 0) l.touched.push_back(column);
    if (s.kind != TypeKind::kEvent && b - a >= pixel_ && cell.items < kMaxItemsPerColumn) {
      ++cell.items;
      items_.push_back({store, i});
      return;
    }
    if (cell.count == 0) {
      cell.start = a;
      cell.end = b;
      cell.store = store;
      cell.index = i;
      if (s.kind == TypeKind::kVariable) cell.min = cell.max = s.number[i];
    }
    ++cell.count;
    cell.start = std::min(cell.start, a);
    cell.end = std::max(cell.end, b);
    if (s.kind == TypeKind::kVariable) {
      cell.min = std::min(cell.min, s.number[i]);
      cell.max = std::max(cell.max, s.number[i]);
      return;
    }
    const StringId value = s.value[i];
    for (Tally& t : cell.tallies) {
      if (t.value == value) {
        t.time += b - a;
        ++t.count;
        return;
      }
    }
    cell.tallies.push_back({value, b - a, 1});
  }

  // Turns the cells of the row just added into its summaries (an event or
  // a link alone in its column into an item: a summary of one would hide
  // what it is, and a link's ends) and resets them.
  void CloseRow(ContainerId container, TypeId type, TypeKind kind) {
    Row row;
    row.kind = kind;
    row.items = std::move(items_);
    items_.clear();
    for (size_t level = 0; level < used_levels_; ++level) {
      LevelCells& l = levels_[level];
      std::sort(l.touched.begin(), l.touched.end());
      for (int column : l.touched) {
        Cell& cell = l.cells[column];
        if (cell.count == 1 && (kind == TypeKind::kEvent || kind == TypeKind::kLink)) {
          row.items.push_back({cell.store, cell.index});
        } else if (cell.count > 0) {
          row.summaries.push_back({static_cast<uint16_t>(level), cell.start, cell.end, cell.min, cell.max,
                                   cell.count, kind == TypeKind::kVariable ? kEmptyString : cell.Dominant()});
        }
        cell.count = 0;
        cell.items = 0;
        cell.tallies.clear();
      }
      l.touched.clear();
    }
    used_levels_ = 0;
    if (row.items.empty() && row.summaries.empty()) return;
    primitives_ += row.items.size() + row.summaries.size();
    if (primitives_ > kMaxPrimitives) TooManyPrimitives();
    rows_.emplace(std::make_pair(container, type), std::move(row));
  }

  void WriteItem(JsonWriter& w, TypeKind kind, const Item& item) const {
    const EntityStore& s = trace_.stores()[item.store];
    const uint32_t i = item.index;
    std::string id = std::to_string(item.store);  // short: no allocation
    id += ':';
    id += std::to_string(i);
    w.BeginObject().Key("id").String(id).Key("start").Number(s.start[i]);
    if (kind != TypeKind::kEvent) w.Key("end").Number(s.end[i]);
    if (kind == TypeKind::kVariable) {
      w.Key("number").Number(s.number[i]);
    } else {
      w.Key("value").String(trace_.Str(s.value[i]));
    }
    if (kind == TypeKind::kState) w.Key("level").Integer(s.level[i]);
    if (kind == TypeKind::kLink) w.Key("from").Integer(s.peer_start[i]).Key("to").Integer(s.peer_end[i]);
    w.EndObject();
  }

  void WriteSummary(JsonWriter& w, TypeKind kind, const Summary& summary) const {
    w.BeginObject().Key("start").Number(summary.start).Key("end").Number(summary.end);
    if (kind == TypeKind::kVariable) {
      w.Key("min").Number(summary.min).Key("max").Number(summary.max);
    } else {
      w.Key("value").String(trace_.Str(summary.value));
    }
    if (kind == TypeKind::kState) w.Key("level").Integer(summary.level);
    w.Key("count").Integer(static_cast<int64_t>(summary.count)).EndObject();
  }

  const Trace& trace_;
  const WindowRequest& request_;
  const double pixel_;
  const double per_pixel_;  // 1 / pixel_, so that a column costs no division
  bool filter_values_ = false;
  std::vector<StringId> values_;
  std::vector<LevelCells> levels_;
  size_t used_levels_ = 0;
  std::vector<Item> items_;
  std::map<TypeId, std::vector<LinkRef>> links_;
  std::map<std::pair<ContainerId, TypeId>, Row> rows_;
  size_t primitives_ = 0;
};

}  // namespace

// Below this many entities in the asked rows, one thread answers.
constexpr size_t kEntitiesPerThread = 200'000;

std::string WindowJson(const Trace& trace, const WindowRequest& request) {
  if (!(request.start < request.end)) BadRequest("start must be before end");
  if (request.width < 1 || request.width > kMaxWidth) {
    BadRequest("width must be in [1, " + std::to_string(kMaxWidth) + "]");
  }
  if (!((request.end - request.start) / request.width > 0)) BadRequest("the window is too narrow");
  std::vector<bool> selected(trace.containers().size(), request.containers.empty());
  for (ContainerId c : request.containers) {
    if (c >= selected.size()) NotFound("unknown container " + std::to_string(c));
    selected[c] = true;
  }
  std::vector<bool> kept_types(trace.types().size(), request.types.empty());
  for (TypeId t : request.types) {
    if (t >= kept_types.size()) NotFound("unknown type " + std::to_string(t));
    kept_types[t] = true;
  }
  std::vector<StringId> values;
  for (const auto& name : request.values) {
    StringId id = trace.strings().Find(name);
    if (id != StringPool::kNoId) values.push_back(id);
  }
  // The rows to answer, by container; links apart (few, any container's).
  std::vector<uint32_t> stores, links;
  size_t entities = 0;
  for (uint32_t index = 0; index < trace.stores().size(); ++index) {
    const EntityStore& s = trace.stores()[index];
    if (!kept_types[s.type]) continue;
    if (s.kind == TypeKind::kLink) {
      links.push_back(index);
    } else if (selected[s.container]) {
      stores.push_back(index);
      entities += s.size();
    }
  }
  std::stable_sort(stores.begin(), stores.end(), [&](uint32_t a, uint32_t b) {
    return trace.stores()[a].container < trace.stores()[b].container;
  });
  // Parts are runs of whole containers with about the same number of
  // entities, so that their rows, answered in order, follow one another.
  const int parts = static_cast<int>(
      std::clamp<size_t>(entities / kEntitiesPerThread, 1, static_cast<size_t>(analysis::DefaultThreadCount())));
  std::vector<size_t> part_begin{0};
  std::vector<ContainerId> first_container{0};
  size_t done = 0;
  for (size_t k = 0; k < stores.size(); ++k) {
    const EntityStore& s = trace.stores()[stores[k]];
    const bool new_container = k > 0 && s.container != trace.stores()[stores[k - 1]].container;
    if (new_container && static_cast<int>(part_begin.size()) < parts &&
        done * parts >= entities * part_begin.size()) {
      part_begin.push_back(k);
      first_container.push_back(s.container);
    }
    done += s.size();
  }
  part_begin.push_back(stores.size());
  first_container.push_back(static_cast<ContainerId>(trace.containers().size()));
  const int used = static_cast<int>(part_begin.size()) - 1;
  std::vector<std::string> rows(used);
  std::vector<uint64_t> shown(used, 0), hidden(used, 0);
  std::vector<size_t> primitives(used, 0);
  analysis::ParallelFor(used, used, [&](int64_t part, int) {
    WindowBuilder builder(trace, request);
    builder.SetValueFilter(values);
    for (size_t k = part_begin[part]; k < part_begin[part + 1]; ++k) builder.AddStore(stores[k]);
    for (uint32_t index : links) {
      builder.CollectLinks(index, selected, first_container[part], first_container[part + 1]);
    }
    builder.AddLinks();
    rows[part] = builder.Rows(shown[part], hidden[part]);
    primitives[part] = builder.primitives();
  });
  size_t total = 0;
  for (size_t p : primitives) total += p;
  if (total > kMaxPrimitives) TooManyPrimitives();
  JsonWriter head;
  head.BeginObject().Key("start").Number(request.start).Key("end").Number(request.end);
  head.Key("width").Integer(request.width);
  std::string out = head.Take();
  out += ",\"rows\":[";
  bool first = true;
  for (const auto& part : rows) {
    if (part.empty()) continue;
    if (!first) out += ',';
    out += part;
    first = false;
  }
  uint64_t all_shown = 0, all_hidden = 0;
  for (int part = 0; part < used; ++part) {
    all_shown += shown[part];
    all_hidden += hidden[part];
  }
  out += "],\"shown\":" + std::to_string(all_shown) + ",\"hidden\":" + std::to_string(all_hidden) + "}";
  return out;
}

}  // namespace macroscope::server
