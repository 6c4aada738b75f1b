#include "query/rows_table.h"

#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace macroscope::query {

namespace {

struct Context {
  const TableSpec* spec;
  std::function<analysis::Table()> rows;
};

struct RowsVtab : sqlite3_vtab {
  const Context* context = nullptr;
  std::optional<analysis::Table> table;  // made at the first xFilter
};

struct RowsCursor : sqlite3_vtab_cursor {
  size_t row = 0;
  const analysis::Table* table() const { return &*static_cast<RowsVtab*>(pVtab)->table; }
};

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  const auto* context = static_cast<const Context*>(aux);
  const int rc = sqlite3_declare_vtab(db, CreateStatement(*context->spec).c_str());
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  auto* vtab = new RowsVtab();
  vtab->context = context;
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<RowsVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
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

int Filter(sqlite3_vtab_cursor* base, int, const char*, int, sqlite3_value**) {
  auto* vtab = static_cast<RowsVtab*>(base->pVtab);
  try {
    if (!vtab->table) {
      vtab->table = vtab->context->rows();
      if (vtab->table->columns.size() != vtab->context->spec->columns.size())
        throw std::logic_error(std::string("table ") + vtab->context->spec->name + ": columns differ from its schema");
    }
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s", e.what());
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
  return cursor->row >= cursor->table()->rows() ? 1 : 0;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  const auto* cursor = static_cast<RowsCursor*>(base);
  ResultCell(ctx, cursor->table()->at(cursor->row, static_cast<size_t>(column)));
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

void ResultCell(sqlite3_context* ctx, const analysis::Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return sqlite3_result_int64(ctx, *i);
  if (const auto* d = std::get_if<double>(&cell)) return sqlite3_result_double(ctx, *d);
  if (const auto* s = std::get_if<std::string>(&cell))
    return sqlite3_result_text(ctx, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
  sqlite3_result_null(ctx);
}

void RegisterRowsTable(sqlite3* db, const TableSpec& spec, std::function<analysis::Table()> rows) {
  auto* context = new Context{&spec, std::move(rows)};
  if (sqlite3_create_module_v2(db, spec.name, &kModule, context, [](void* p) { delete static_cast<Context*>(p); }) !=
      SQLITE_OK)
    throw std::runtime_error(std::string("cannot register table ") + spec.name);
}

}  // namespace macroscope::query
