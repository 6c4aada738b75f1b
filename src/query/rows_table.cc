#include "query/rows_table.h"

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

namespace macroscope::query {

namespace {

// A cell as SQLite's result: NULL, INTEGER, REAL or TEXT (copied).
void ResultCell(sqlite3_context* ctx, const analysis::Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return sqlite3_result_int64(ctx, *i);
  if (const auto* d = std::get_if<double>(&cell)) return sqlite3_result_double(ctx, *d);
  if (const auto* s = std::get_if<std::string>(&cell))
    return sqlite3_result_text(ctx, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
  sqlite3_result_null(ctx);
}

// An SQLite value as a cell.
analysis::Cell CellOf(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER: return static_cast<int64_t>(sqlite3_value_int64(value));
    case SQLITE_FLOAT: return sqlite3_value_double(value);
    case SQLITE_NULL: return {};
    default: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
      return std::string(text ? text : "", static_cast<size_t>(sqlite3_value_bytes(value)));
    }
  }
}

// A call's arguments and the rows they made.
struct Made {
  std::vector<analysis::Cell> arguments;
  analysis::Table table;
};

struct RowsVtab : sqlite3_vtab {
  const RowsTableSpec* spec = nullptr;
  // The last call's, for the next call with the same arguments.
  std::shared_ptr<const Made> last;
};

// Each cursor reads the rows of its own call: a statement may call the
// function twice with other arguments (stats(a, b) joined with stats()).
struct RowsCursor : sqlite3_vtab_cursor {
  size_t row = 0;
  std::shared_ptr<const Made> made;
  const RowsVtab& vtab() const { return *static_cast<RowsVtab*>(pVtab); }
};

std::string Declaration(const RowsTableSpec& spec) {
  std::string sql = "CREATE TABLE x(";
  for (size_t i = 0; i < spec.columns.size(); ++i) sql += (i ? ", " : "") + spec.columns[i];
  // Hidden, named apart from the result's columns (kernel_processes(pid)
  // has a pid column): a call gives them by position.
  for (const std::string& a : spec.arguments) sql += ", \"arg_" + a + "\" HIDDEN";
  return sql + ")";
}

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  const auto* spec = static_cast<const RowsTableSpec*>(aux);
  const int rc = sqlite3_declare_vtab(db, Declaration(*spec).c_str());
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  auto* vtab = new RowsVtab();
  vtab->spec = spec;
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<RowsVtab*>(vtab);
  return SQLITE_OK;
}

// The arguments given (= on a hidden column) go to xFilter in their order;
// idxNum has a bit for each.
int BestIndex(sqlite3_vtab* base, sqlite3_index_info* info) {
  const RowsTableSpec& spec = *static_cast<RowsVtab*>(base)->spec;
  const int columns = static_cast<int>(spec.columns.size());
  int given = 0;
  std::vector<int> constraint_of(spec.arguments.size(), -1);
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < columns || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;  // an argument not known yet: another plan first
    constraint_of[static_cast<size_t>(c.iColumn - columns)] = i;
  }
  int next = 1;
  for (size_t a = 0; a < constraint_of.size(); ++a) {
    if (constraint_of[a] < 0) continue;
    info->aConstraintUsage[constraint_of[a]].argvIndex = next++;
    info->aConstraintUsage[constraint_of[a]].omit = 1;
    given |= 1 << a;
  }
  info->idxNum = given;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new RowsCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete static_cast<RowsCursor*>(cursor);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* base, int given, const char*, int argc, sqlite3_value** argv) {
  auto* vtab = static_cast<RowsVtab*>(base->pVtab);
  const RowsTableSpec& spec = *vtab->spec;
  try {
    std::vector<analysis::Cell> arguments = spec.defaults;
    int next = 0;
    for (size_t a = 0; a < arguments.size() && next < argc; ++a)
      if (given & (1 << a)) arguments[a] = CellOf(argv[next++]);
    auto* cursor = static_cast<RowsCursor*>(base);
    cursor->made.reset();
    if (!vtab->last || vtab->last->arguments != arguments) {
      vtab->last.reset();
      auto made = std::make_shared<Made>(Made{std::move(arguments), {}});
      made->table = spec.rows(made->arguments);
      if (made->table.columns.size() != spec.columns.size())
        throw std::logic_error(spec.name + ": its rows have other columns than it declares");
      vtab->last = std::move(made);
    }
    cursor->made = vtab->last;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s: %s", spec.name.c_str(), e.what());
    return SQLITE_ERROR;
  }
  static_cast<RowsCursor*>(base)->row = 0;
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* base) {
  ++static_cast<RowsCursor*>(base)->row;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* base) {
  const auto* cursor = static_cast<RowsCursor*>(base);
  return !cursor->made || cursor->row >= cursor->made->table.rows() ? 1 : 0;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  const auto* cursor = static_cast<RowsCursor*>(base);
  const Made& made = *cursor->made;
  const size_t columns = cursor->vtab().spec->columns.size();
  if (static_cast<size_t>(column) < columns) ResultCell(ctx, made.table.at(cursor->row, static_cast<size_t>(column)));
  else ResultCell(ctx, made.arguments[static_cast<size_t>(column) - columns]);
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(static_cast<RowsCursor*>(base)->row);
  return SQLITE_OK;
}

// Eponymous only (no xCreate): the table is there under its name.
constexpr sqlite3_module kModule = {
    0,       nullptr, Connect, BestIndex, Disconnect, nullptr, Open,    Close,   Filter,  Next,    Eof,     Column,
    Rowid,   nullptr, nullptr, nullptr,   nullptr,    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

}  // namespace

void RegisterRowsTable(sqlite3* db, RowsTableSpec spec) {
  if (spec.defaults.size() != spec.arguments.size() || spec.arguments.size() > 30)
    throw std::logic_error(spec.name + ": a default for each argument");
  auto* owned = new RowsTableSpec(std::move(spec));
  if (sqlite3_create_module_v2(db, owned->name.c_str(), &kModule, owned,
                               [](void* p) { delete static_cast<RowsTableSpec*>(p); }) != SQLITE_OK)
    throw std::runtime_error("cannot register table " + owned->name);
}

}  // namespace macroscope::query
