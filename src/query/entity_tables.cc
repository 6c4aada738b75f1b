#include "query/entity_tables.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/entity_chunk.h"
#include "query/clock.h"
#include "query/entity_columns.h"
#include "query/entity_scan.h"
#include "query/schema.h"

namespace macroscope::query {

namespace {

// What a table is: its columns, the kind of entity (none: args, every
// kind), the source.
struct TableContext {
  const EntitySource* source;
  const TableSpec* spec;
  std::optional<TypeKind> kind;
};

struct Table : sqlite3_vtab {
  const TableContext* context = nullptr;
  Clock clock;
  EntityIds ids;
  EntityPlan all;   // every store of the table's kind
  double rows = 0;  // their entities: the cost of a scan
  size_t containers = 1, types = 1;

  Table(const TableContext* c, const TimeBase& base) : sqlite3_vtab{}, context(c), clock(base), ids(*c->source) {}
};

// The codes of a plan's arguments (idxStr): one per argv.
constexpr char kContainerEq = 'c', kTypeEq = 't', kValueEq = 'v', kIdEq = 'i', kAfter = 'a', kBefore = 'b',
               kTimeEq = 'e', kKeyEq = 'k', kAfterNs = 'A', kBeforeNs = 'B', kTimeEqNs = 'E';

struct Cursor : sqlite3_vtab_cursor {
  std::optional<EntityScan> scan;
  size_t chunk = 0, row = 0;  // in scan->chunks()
  // args: the current entity's fields and the one being read.
  std::vector<ExtraField> fields;
  size_t field = 0;
  int64_t serial = 0;  // args: the row's number in the scan, its rowid
  bool eof = false;

  Cursor() : sqlite3_vtab_cursor{} {}
  const Table& table() const { return *static_cast<const Table*>(pVtab); }
  const EntityChunk& current() const { return scan->chunks()[chunk]; }
  const EntityPlan& plan() const { return scan->plan(); }
};

// Runs `f`, turning an exception into SQLite's error with its message.
template <class F>
int Guarded(sqlite3_vtab* vtab, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s", e.what());
    return SQLITE_ERROR;
  }
}

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** error) {
  const auto* context = static_cast<const TableContext*>(aux);
  const int rc = sqlite3_declare_vtab(db, CreateStatement(*context->spec).c_str());
  if (rc != SQLITE_OK) return rc;
  try {
    const EntitySource& source = *context->source;
    const Trace& trace = source.trace();
    auto table = std::make_unique<Table>(context, trace.time_base());
    table->all = EntityPlan::Of(trace, context->kind);
    for (uint32_t k : table->all.stores) table->rows += static_cast<double>(source.size(k));
    table->containers = std::max<size_t>(1, trace.containers().size());
    table->types = std::max<size_t>(1, trace.types().size());
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    *out = table.release();
    return SQLITE_OK;
  } catch (const std::exception& e) {
    *error = sqlite3_mprintf("%s", e.what());
    return SQLITE_ERROR;
  }
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<Table*>(vtab);
  return SQLITE_OK;
}

// The code for constraint `c` on column role `role`, 0 when it is not used.
char CodeOf(Role role, unsigned char op, bool is_args, bool variables) {
  const bool eq = op == SQLITE_INDEX_CONSTRAINT_EQ;
  const bool lower = op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE;
  const bool upper = op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE;
  if (is_args) return role == Role::kId && eq ? kIdEq : role == Role::kKey && eq ? kKeyEq : 0;
  switch (role) {
    case Role::kId: return eq ? kIdEq : 0;
    case Role::kContainer: return eq ? kContainerEq : 0;
    case Role::kType: return eq ? kTypeEq : 0;
    case Role::kValue: return eq && !variables ? kValueEq : 0;
    case Role::kTs:
    case Role::kEnd: return eq ? kTimeEq : lower ? kAfter : upper ? kBefore : 0;
    case Role::kTsNs:
    case Role::kEndNs: return eq ? kTimeEqNs : lower ? kAfterNs : upper ? kBeforeNs : 0;
    default: return 0;
  }
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const Table& t = *static_cast<Table*>(vtab);
  const bool is_args = !t.context->kind;
  const bool variables = t.context->kind == TypeKind::kVariable;
  std::string codes;
  double cost = std::max(1.0, t.rows);
  bool unique = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable) continue;
    const Role role = c.iColumn < 0 ? Role::kId : t.context->spec->columns[c.iColumn].role;
    const char code = CodeOf(role, c.op, is_args, variables);
    if (code == 0) continue;
    info->aConstraintUsage[i].argvIndex = static_cast<int>(codes.size()) + 1;
    codes += code;
    switch (code) {
      case kIdEq: cost = 1, unique = !is_args; break;
      case kContainerEq: cost /= static_cast<double>(t.containers); break;
      case kTypeEq: cost /= static_cast<double>(t.types); break;
      case kValueEq:
      case kKeyEq: cost /= 8; break;
      case kTimeEq:
      case kTimeEqNs: cost /= 100; break;
      default: cost /= 4;  // a bound
    }
  }
  // Rows come in id order (stores in order, each in its order): ORDER BY
  // id costs no sort.
  if (!is_args && info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn < 0 || t.context->spec->columns[info->aOrderBy[0].iColumn].role == Role::kId))
    info->orderByConsumed = 1;
  info->idxStr = sqlite3_mprintf("%s", codes.c_str());
  info->needToFreeIdxStr = 1;
  info->estimatedCost = std::max(1.0, cost);
  info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, cost));
  if (unique) info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new Cursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete static_cast<Cursor*>(cursor);
  return SQLITE_OK;
}

bool IsNumber(sqlite3_value* v) {
  const int type = sqlite3_value_numeric_type(v);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

double ModelTimeOf(const Clock& clock, sqlite3_value* v) {
  if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER) return clock.ModelTime(static_cast<int64_t>(sqlite3_value_int64(v)));
  return clock.ModelTime(sqlite3_value_double(v));
}

std::string_view TextOf(sqlite3_value* v) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return text ? std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(v))) : std::string_view();
}

EntityPlan MakePlan(const Table& t, const char* codes, int argc, sqlite3_value** argv) {
  const EntitySource& source = *t.context->source;
  const Trace& trace = source.trace();
  EntityPlan plan = t.all;
  for (int i = 0; i < argc && codes[i] != 0; ++i) {
    sqlite3_value* v = argv[i];
    switch (codes[i]) {
      case kIdEq: {
        if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) break;  // SQLite compares it
        if (!t.ids.Place(sqlite3_value_int64(v), plan.store, plan.place)) {
          plan.none = true;
          break;
        }
        plan.one = true;
        plan.KeepStores([&](uint32_t k) { return k == plan.store; });
        break;
      }
      case kContainerEq: {
        if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) break;
        const int64_t c = sqlite3_value_int64(v);
        plan.KeepStores([&](uint32_t k) { return trace.stores()[k].container == c; });
        break;
      }
      case kTypeEq: {
        if (sqlite3_value_type(v) != SQLITE_TEXT) break;
        const std::string_view name = TextOf(v);
        plan.KeepTypes(trace, {&name, 1});
        break;
      }
      case kValueEq:
      case kKeyEq: {
        if (sqlite3_value_type(v) != SQLITE_TEXT) break;
        const StringId id = trace.strings().Find(TextOf(v));
        if (id == StringPool::kNoId) plan.none = true;
        (codes[i] == kValueEq ? plan.value : plan.key) = id;
        break;
      }
      case kAfter:
      case kBefore:
      case kTimeEq: {
        if (!IsNumber(v)) break;
        const double m = ModelTimeOf(t.clock, v);
        if (codes[i] != kBefore) plan.t1 = std::max(plan.t1, m);
        if (codes[i] != kAfter) plan.t2 = std::min(plan.t2, m);
        break;
      }
      case kAfterNs:
      case kBeforeNs:
      case kTimeEqNs: {
        if (!IsNumber(v) || !t.clock.whole()) break;  // no nanoseconds: no row (SQLite says)
        // The ticks around the nanosecond: a bound that keeps every row.
        const auto [low, high] = t.clock.TicksAround(sqlite3_value_double(v));
        if (codes[i] != kBeforeNs) plan.t1 = std::max(plan.t1, t.clock.ModelTime(low));
        if (codes[i] != kAfterNs) plan.t2 = std::min(plan.t2, t.clock.ModelTime(high));
        break;
      }
    }
  }
  return plan;
}

// args: the current entity's fields (of the plan's key), from the first.
void LoadFields(Cursor& cursor) {
  cursor.fields.clear();
  cursor.field = 0;
  const EntityChunk& c = cursor.current();
  c.ForEachField(cursor.row, [&](const ExtraField& f) {
    if (cursor.plan().key == StringPool::kNoId || f.name == cursor.plan().key) cursor.fields.push_back(f);
  });
}

// From the cursor's place (chunk, row) on, to the first row that may
// match; eof when none is left.
void Settle(Cursor& cursor) {
  const bool is_args = !cursor.table().context->kind;
  for (;;) {
    while (cursor.chunk < cursor.scan->chunks().size()) {
      const EntityChunk& c = cursor.current();
      if (is_args && !c.HasFields()) {
        ++cursor.chunk, cursor.row = 0;
        continue;
      }
      for (; cursor.row < c.size(); ++cursor.row) {
        if (!cursor.plan().Meets(c, cursor.row)) continue;
        if (!is_args) return;
        LoadFields(cursor);
        if (!cursor.fields.empty()) return;
      }
      ++cursor.chunk, cursor.row = 0;
    }
    cursor.chunk = cursor.row = 0;
    if (!cursor.scan->NextPiece()) {
      cursor.eof = true;
      return;
    }
  }
}

int Filter(sqlite3_vtab_cursor* base, int, const char* codes, int argc, sqlite3_value** argv) {
  auto& cursor = *static_cast<Cursor*>(base);
  return Guarded(base->pVtab, [&] {
    cursor.scan.emplace(*cursor.table().context->source, MakePlan(cursor.table(), codes ? codes : "", argc, argv));
    cursor.eof = false;
    cursor.serial = 0;
    cursor.chunk = cursor.row = 0;
    Settle(cursor);
    return SQLITE_OK;
  });
}

int Next(sqlite3_vtab_cursor* base) {
  auto& cursor = *static_cast<Cursor*>(base);
  return Guarded(base->pVtab, [&] {
    ++cursor.serial;
    if (!cursor.table().context->kind && ++cursor.field < cursor.fields.size()) return SQLITE_OK;
    ++cursor.row;
    Settle(cursor);
    return SQLITE_OK;
  });
}

int Eof(sqlite3_vtab_cursor* base) { return static_cast<Cursor*>(base)->eof ? 1 : 0; }

// A column's value as SQLite's result.
struct SqliteOut {
  sqlite3_context* ctx;
  const Trace& trace;
  void Int(int64_t v) { sqlite3_result_int64(ctx, v); }
  void Real(double v) { sqlite3_result_double(ctx, v); }
  void Null() { sqlite3_result_null(ctx); }
  void Text(StringId id) {
    const std::string_view text = trace.Str(id);
    // The pool's texts never move while the trace lives.
    sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
  }
};

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  const auto& cursor = *static_cast<Cursor*>(base);
  const Table& t = cursor.table();
  const EntityChunk& c = cursor.current();
  SqliteOut out{ctx, t.context->source->trace()};
  if (!t.context->kind) {  // args
    if (column == 0) out.Int(t.ids.Id(c.store, c.index + cursor.row));
    else out.Text(column == 1 ? cursor.fields[cursor.field].name : cursor.fields[cursor.field].value);
    return SQLITE_OK;
  }
  PutColumn(t.context->spec->columns[column].role, c, cursor.row, t.clock, t.ids, out);
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  const auto& cursor = *static_cast<Cursor*>(base);
  const EntityChunk& c = cursor.current();
  // args: an entity has several fields, each a row.
  *rowid = cursor.table().context->kind ? cursor.table().ids.Id(c.store, c.index + cursor.row) : cursor.serial;
  return SQLITE_OK;
}

constexpr sqlite3_module kModule = {
    /* iVersion */ 0,
    /* xCreate */ nullptr,  // eponymous only: the table is there under its name
    /* xConnect */ Connect,
    /* xBestIndex */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy */ nullptr,
    /* xOpen */ Open,
    /* xClose */ Close,
    /* xFilter */ Filter,
    /* xNext */ Next,
    /* xEof */ Eof,
    /* xColumn */ Column,
    /* xRowid */ Rowid,
    /* xUpdate */ nullptr,
    /* xBegin */ nullptr,
    /* xSync */ nullptr,
    /* xCommit */ nullptr,
    /* xRollback */ nullptr,
    /* xFindFunction */ nullptr,
    /* xRename */ nullptr,
    /* xSavepoint */ nullptr,
    /* xRelease */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ nullptr,
};

// The entity tables and their kinds (none: args, every kind).
struct EntityTable {
  const char* name;
  std::optional<TypeKind> kind;
};
constexpr EntityTable kEntityTables[] = {{"states", TypeKind::kState},
                                         {"events", TypeKind::kEvent},
                                         {"links", TypeKind::kLink},
                                         {"variables", TypeKind::kVariable},
                                         {"args", std::nullopt}};

}  // namespace

std::optional<TypeKind> EntityKindOf(std::string_view table) {
  for (const EntityTable& e : kEntityTables)
    if (table == e.name) return e.kind;
  return std::nullopt;
}

EntityIds::EntityIds(const EntitySource& source) {
  const size_t stores = source.trace().stores().size();
  first_.resize(stores + 1, 0);
  for (uint32_t k = 0; k < stores; ++k) first_[k + 1] = first_[k] + source.size(k);
}

bool EntityIds::Place(int64_t id, uint32_t& store, uint64_t& index) const {
  if (id < 0 || static_cast<uint64_t>(id) >= first_.back()) return false;
  // The last store whose first id is at most id (stores may be empty).
  const auto at = std::upper_bound(first_.begin(), first_.end(), static_cast<uint64_t>(id)) - 1;
  store = static_cast<uint32_t>(at - first_.begin());
  index = static_cast<uint64_t>(id) - *at;
  return true;
}

void RegisterEntityTables(sqlite3* db, const EntitySource& source) {
  for (const EntityTable& e : kEntityTables) {
    auto* context = new TableContext{&source, &TableNamed(e.name), e.kind};
    const int rc = sqlite3_create_module_v2(db, e.name, &kModule, context,
                                            [](void* p) { delete static_cast<TableContext*>(p); });
    if (rc != SQLITE_OK) throw std::runtime_error(std::string("cannot register table ") + e.name);
  }
}

}  // namespace macroscope::query
