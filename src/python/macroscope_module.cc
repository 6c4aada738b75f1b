// `import macroscope` (docs/python.md): a trace opened as the query
// library opens it (query/opened_trace.h) and asked in SQL; every answer a
// pandas DataFrame whose columns are NumPy arrays filled as the rows come
// (integers int64, or pandas' Int64 where some are NULL; reals float64;
// a query's texts an object array whose equal texts share one Python
// string, an entity table's names read in bulk a Categorical).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "query/clock.h"
#include "query/entity_columns.h"
#include "query/entity_scan.h"
#include "query/entity_tables.h"
#include "query/opened_trace.h"
#include "query/query_session.h"
#include "query/schema.h"
#include "util/error.h"
#include "util/huge_page_allocator.h"

namespace py = pybind11;

namespace macroscope::python {

namespace {

// The vector's buffer as a NumPy array (of `dtype`, T's by default) that
// owns it: no copy.
template <class T, class A>
py::array Handed(std::vector<T, A>&& values, py::dtype dtype = py::dtype::of<T>()) {
  auto* owned = new std::vector<T, A>(std::move(values));
  py::capsule free(owned, [](void* p) { delete static_cast<std::vector<T, A>*>(p); });
  return py::array(dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(owned->size())}, owned->data(), free);
}

// The columns as a DataFrame, in the dict's order. copy=False: the arrays
// become the frame's columns as they are. (Not columns=[…]: pandas 1.5
// then makes an object array of every column, Categoricals and Int64
// arrays converted row by row, a second for 10^7 rows.)
py::object DataFrame(const py::dict& columns) {
  return py::module_::import("pandas").attr("DataFrame")(columns, py::arg("copy") = false);
}

// One column of an answer, typed by what it holds: integers, reals, texts,
// or (SQLite lets a column mix them) cells.
class ColumnBuilder {
 public:
  // Typed, for the bulk reading: no cell in between.
  void AddInt(int64_t v) {
    if (kind_ != Kind::kInteger) return Add(analysis::Cell(v));
    NotNull();
    ints_.push_back(v);
  }
  void AddReal(double v) {
    if (kind_ != Kind::kReal) return Add(analysis::Cell(v));
    NotNull();
    reals_.push_back(v);
  }
  // Room for `rows` rows, made once the first value says what they hold.
  void Reserve(size_t rows) { reserve_ = rows; }
  void AddNull() { Add(analysis::Cell()); }
  // A text as one shared Python string.
  void AddText(const py::object& text) {
    if (kind_ == Kind::kNone) Become(Kind::kText);
    if (kind_ != Kind::kText && kind_ != Kind::kMixed) Become(Kind::kMixed);
    NotNull();
    texts_.push_back(text);
  }

  void Add(const analysis::Cell& cell) {
    const bool null = std::holds_alternative<std::monostate>(cell);
    if (kind_ != Kind::kMixed) {
      const Kind kind = null ? kind_
                        : std::holds_alternative<int64_t>(cell) ? Kind::kInteger
                        : std::holds_alternative<double>(cell)  ? Kind::kReal
                                                                : Kind::kText;
      if (kind_ == Kind::kNone && kind != Kind::kNone) Become(kind);
      else if (kind == Kind::kReal && kind_ == Kind::kInteger) Become(Kind::kReal);
      else if (kind != kind_ && !(kind == Kind::kInteger && kind_ == Kind::kReal)) Become(Kind::kMixed);
    }
    if (null) Null();
    else NotNull();
    switch (kind_) {
      case Kind::kNone: break;
      case Kind::kInteger: ints_.push_back(null ? 0 : std::get<int64_t>(cell)); break;
      case Kind::kReal:
        reals_.push_back(null                                     ? std::numeric_limits<double>::quiet_NaN()
                         : std::holds_alternative<int64_t>(cell) ? static_cast<double>(std::get<int64_t>(cell))
                                                                  : std::get<double>(cell));
        break;
      case Kind::kText: texts_.push_back(null ? py::none() : Text(std::get<std::string>(cell))); break;
      case Kind::kMixed: texts_.push_back(Object(cell)); break;
    }
  }

  py::object Finish() {
    const size_t n = rows_;
    const bool any_null = std::find(null_.begin(), null_.end(), 1) != null_.end();
    if (any_null) null_.resize(n, 0);
    switch (kind_) {
      case Kind::kInteger: {
        py::array values = Handed(std::move(ints_));
        if (!any_null) return values;
        return py::module_::import("pandas").attr("arrays").attr("IntegerArray")(
            values, Handed(std::move(null_), py::dtype("bool")));
      }
      case Kind::kReal: return Handed(std::move(reals_));
      case Kind::kNone:  // only NULLs: NumPy fills an object array with None
        return py::array(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
      default: {
        py::array objects(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
        auto** data = static_cast<PyObject**>(objects.mutable_data());
        for (size_t i = 0; i < n; ++i) {
          Py_XDECREF(data[i]);
          data[i] = texts_[i].release().ptr();
        }
        return objects;
      }
    }
  }

 private:
  enum class Kind { kNone, kInteger, kReal, kText, kMixed };

  // The row's NULL flag: kept only once a NULL came (null_ then has one
  // a row; before, every row so far was not NULL).
  void NotNull() {
    if (!null_.empty()) null_.push_back(0);
    ++rows_;
  }
  void Null() {
    null_.resize(rows_, 0);
    null_.push_back(1);
    ++rows_;
  }
  bool IsNull(size_t i) const { return i < null_.size() && null_[i] != 0; }

  // From the values so far to `kind`.
  void Become(Kind kind) {
    const size_t n = rows_;
    if (kind == Kind::kReal && kind_ == Kind::kInteger) {
      for (size_t i = 0; i < n; ++i)
        reals_.push_back(IsNull(i) ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(ints_[i]));
      ints_.clear();
    } else if (kind == Kind::kMixed) {
      std::vector<py::object> objects;
      for (size_t i = 0; i < n; ++i) {
        if (IsNull(i)) objects.push_back(py::none());
        else if (kind_ == Kind::kInteger) objects.push_back(py::int_(ints_[i]));
        else if (kind_ == Kind::kReal) objects.push_back(py::float_(reals_[i]));
        else objects.push_back(texts_[i]);
      }
      texts_ = std::move(objects);
      ints_.clear();
      reals_.clear();
    } else {  // from nothing (only NULLs so far)
      if (kind == Kind::kInteger) ints_.reserve(reserve_);
      if (kind == Kind::kReal) reals_.reserve(reserve_);
      if (kind == Kind::kText) texts_.reserve(reserve_);
      for (size_t i = 0; i < n; ++i) {
        if (kind == Kind::kInteger) ints_.push_back(0);
        if (kind == Kind::kReal) reals_.push_back(std::numeric_limits<double>::quiet_NaN());
        if (kind == Kind::kText) texts_.push_back(py::none());
      }
    }
    kind_ = kind;
  }

  py::object Text(const std::string& text) {
    auto [at, added] = strings_.try_emplace(text);
    if (added) at->second = py::str(text);
    return at->second;
  }
  py::object Object(const analysis::Cell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return py::int_(*i);
    if (const auto* d = std::get_if<double>(&cell)) return py::float_(*d);
    if (const auto* s = std::get_if<std::string>(&cell)) return Text(*s);
    return py::none();
  }

  Kind kind_ = Kind::kNone;
  size_t rows_ = 0;
  size_t reserve_ = 0;  // rows expected (Reserve)
  std::vector<uint8_t> null_;
  std::vector<int64_t> ints_;
  std::vector<double> reals_;
  std::vector<py::object> texts_;
  std::unordered_map<std::string, py::object> strings_;
};

// One column of an entity table read in bulk (PutColumn's output): the
// column's kind is its role's, the same for every row, so each value goes
// straight to its vector. Texts (types, values, keys: a few names
// repeated) become a pandas Categorical, codes into the names met.
class EntityColumn {
 public:
  void Reserve(size_t rows) { reserve_ = rows; }
  void Int(int64_t v) {
    if (kind_ == Kind::kNone) Start(Kind::kInteger);
    if (kind_ != Kind::kInteger) Mixed("an integer");
    Row(false);
    ints_.push_back(v);
  }
  void Real(double v) {
    if (kind_ == Kind::kNone) Start(Kind::kReal);
    if (kind_ != Kind::kReal) Mixed("a real");
    Row(false);
    reals_.push_back(v);
  }
  void Text(StringId id) {
    if (kind_ == Kind::kNone) Start(Kind::kText);
    if (kind_ != Kind::kText) Mixed("a text");
    Row(false);
    if (id != last_id_) {
      auto [at, added] = code_of_.try_emplace(id, static_cast<int32_t>(names_.size()));
      if (added) names_.push_back(id);
      last_id_ = id;
      last_code_ = at->second;
    }
    codes_.push_back(last_code_);
  }
  void Null() {
    if (kind_ == Kind::kNone) {  // NULLs so far: no flags needed (yet)
      ++rows_;
      return;
    }
    Row(true);
    switch (kind_) {
      case Kind::kInteger: ints_.push_back(0); break;
      case Kind::kReal: reals_.push_back(std::numeric_limits<double>::quiet_NaN()); break;
      case Kind::kText: codes_.push_back(-1); break;  // a Categorical's missing value
      case Kind::kNone: break;
    }
  }

  py::object Finish(const Trace& trace) {
    py::module_ pandas = py::module_::import("pandas");
    switch (kind_) {
      case Kind::kInteger: {
        py::array values = Handed(std::move(ints_));
        if (null_.empty()) return values;
        return pandas.attr("arrays").attr("IntegerArray")(values, Handed(std::move(null_), py::dtype("bool")));
      }
      case Kind::kReal: return Handed(std::move(reals_));
      case Kind::kText: {
        py::list categories;
        for (StringId id : names_) categories.append(py::str(std::string(trace.Str(id))));
        return pandas.attr("Categorical").attr("from_codes")(Handed(std::move(codes_)), categories);
      }
      case Kind::kNone: break;
    }
    // Only NULLs (the nanoseconds of decimal times): integers all missing,
    // pandas' Int64 as where some are (an object array of None would cost
    // the DataFrame a copy with a reference a row).
    py::module_ numpy = py::module_::import("numpy");
    const auto n = static_cast<py::ssize_t>(rows_);
    return pandas.attr("arrays").attr("IntegerArray")(numpy.attr("zeros")(n, "int64"), numpy.attr("ones")(n, "bool"));
  }

 private:
  enum class Kind { kNone, kInteger, kReal, kText };

  // The first value says what the column holds: room for every row, and
  // the rows so far (NULLs) as its missing values.
  void Start(Kind kind) {
    kind_ = kind;
    const size_t nulls = rows_;
    if (nulls > 0) null_.assign(nulls, 1);
    if (kind == Kind::kInteger) ints_.reserve(std::max(reserve_, nulls)), ints_.assign(nulls, 0);
    if (kind == Kind::kReal) reals_.reserve(std::max(reserve_, nulls)), reals_.assign(nulls, std::nan(""));
    if (kind == Kind::kText) codes_.reserve(std::max(reserve_, nulls)), codes_.assign(nulls, -1);
  }
  [[noreturn]] void Mixed(const char* what) const {
    throw std::logic_error(std::string("an entity column given ") + what + " after values of another kind");
  }
  // The NULL flags, kept once a NULL came (before, every row was not NULL).
  void Row(bool null) {
    if (null && null_.empty()) null_.assign(rows_, 0);
    if (!null_.empty()) null_.push_back(null ? 1 : 0);
    ++rows_;
  }

  Kind kind_ = Kind::kNone;
  // Written once, start to end: huge pages where the kernel gives them.
  template <class T>
  using Column = std::vector<T, HugePageAllocator<T>>;
  size_t rows_ = 0, reserve_ = 0;
  Column<uint8_t> null_;
  Column<int64_t> ints_;
  Column<double> reals_;
  Column<int32_t> codes_;
  std::vector<StringId> names_;  // the categories, by code
  std::unordered_map<StringId, int32_t> code_of_;
  StringId last_id_ = StringPool::kNoId;
  int32_t last_code_ = -1;
};

// The columns as a DataFrame, in order, under their names (which SQL lets
// repeat: the dict holds them by position).
py::object Frame(const std::vector<std::string>& names, std::vector<ColumnBuilder>& columns) {
  py::dict data;
  for (size_t c = 0; c < names.size(); ++c) data[py::int_(c)] = columns[c].Finish();
  py::object frame = DataFrame(data);
  frame.attr("columns") = py::cast(names);
  return frame;
}

// A trace and its SQL session.
class PyTrace {
 public:
  PyTrace(std::vector<std::string> files, const formats::ReadOptions& options, size_t memory)
      : opened_(files, options, store::CacheBudget::Serving(memory)),
        session_(opened_.source(), opened_.files()) {
    session_.SetTraceOpener(query::OpenOtherTraces(options, store::CacheBudget::Serving(memory)));
  }

  // The entities of a table ("states", "events", "links", "variables")
  // meeting [start, end] (the tables' time; an event: at a time in it), of
  // the containers given by id or by name or path, of the types given by
  // name: the rows of the same selection in SQL, read from the chunks into
  // the columns without SQLite.
  // A bound as Python gives it: an int of ticks (exact, however far from
  // the clock's zero), or a float.
  using Bound = std::optional<std::variant<int64_t, double>>;

  py::object Entities(const std::string& table, Bound start, Bound end,
                      std::optional<std::vector<int64_t>> container_ids,
                      std::optional<std::vector<std::string>> container_names,
                      std::optional<std::vector<std::string>> type_names) {
    const EntitySource& source = opened_.source();
    const Trace& trace = source.trace();
    const std::optional<TypeKind> entities = query::EntityKindOf(table);
    if (!entities) throw UserError(table + ": not a table of entities (states, events, links, variables)");
    const TypeKind kind = *entities;
    const query::TableSpec& spec = query::TableNamed(table);
    const query::Clock clock(trace.time_base());
    query::EntityPlan plan = query::EntityPlan::Of(trace, kind);
    if (container_ids || container_names) {
      std::vector<bool> wanted(trace.containers().size(), false);
      for (int64_t id : container_ids.value_or(std::vector<int64_t>{}))
        if (id >= 0 && static_cast<size_t>(id) < wanted.size()) wanted[static_cast<size_t>(id)] = true;
      const std::vector<std::string> names = container_names.value_or(std::vector<std::string>{});
      for (ContainerId c = 1; c < trace.containers().size(); ++c)
        for (const std::string& name : names)
          if (trace.Str(trace.container(c).name) == name || trace.ContainerPath(c) == name) wanted[c] = true;
      plan.KeepStores([&](uint32_t k) { return wanted[trace.stores()[k].container]; });
    }
    if (type_names) plan.KeepTypes(trace, std::vector<std::string_view>(type_names->begin(), type_names->end()));
    const auto model_time = [&](const std::variant<int64_t, double>& bound) {
      return std::visit([&](auto t) { return clock.ModelTime(t); }, bound);
    };
    if (start) plan.t1 = model_time(*start);
    if (end) plan.t2 = model_time(*end);
    const double t1 = plan.t1, t2 = plan.t2;

    const query::EntityIds ids(source);
    std::vector<EntityColumn> columns(spec.columns.size());
    if (!start && !end) {  // every entity of the stores: their count is known
      uint64_t rows = 0;
      for (uint32_t k : plan.stores) rows += source.size(k);
      for (EntityColumn& column : columns) column.Reserve(rows);
    }
    query::EntityScan scan(source, std::move(plan));
    std::vector<uint32_t> rows;  // of a chunk, those in the window
    while (scan.NextPiece()) {
      for (const EntityChunk& c : scan.chunks()) {
        rows.clear();
        for (size_t i = 0; i < c.size(); ++i) {
          // The SQL selection's own test (events: ts in [start, end]).
          const double a = c.start[i], b = kind == TypeKind::kEvent ? a : c.End(i);
          if (b >= t1 && a <= t2) rows.push_back(static_cast<uint32_t>(i));
        }
        // Column by column: one role's case all along a run of rows.
        for (size_t col = 0; col < columns.size(); ++col) {
          const query::Role role = spec.columns[col].role;
          for (uint32_t i : rows) query::PutColumn(role, c, i, clock, ids, columns[col]);
        }
      }
    }
    py::dict data;  // in the columns' order (dicts keep it)
    for (size_t col = 0; col < columns.size(); ++col) data[py::str(spec.columns[col].name)] = columns[col].Finish(trace);
    return DataFrame(data);
  }

  // The last statement's rows of `sql`.
  py::object Query(const std::string& sql) {
    std::vector<ColumnBuilder> columns;
    std::vector<std::string> names;
    bool fresh = true;
    session_.Run(sql, [&](const analysis::Table& part, bool last) {
      if (fresh) {
        names = part.columns;
        columns.assign(names.size(), ColumnBuilder());
      }
      for (size_t i = 0; i < part.cells.size(); ++i) columns[i % names.size()].Add(part.cells[i]);
      fresh = last;
    });
    return Frame(names, columns);
  }

 private:
  query::OpenedTrace opened_;
  query::QuerySession session_;
};

}  // namespace

PYBIND11_MODULE(_macroscope, m) {
  m.doc() = "The native part of the macroscope package (macroscope/__init__.py)";
  py::register_exception<UserError>(m, "Error", PyExc_ValueError);

  py::class_<PyTrace>(m, "_Trace")
      .def("query", &PyTrace::Query, py::arg("sql"),
           "The rows of the last statement of `sql` (SQLite's SQL over the trace's tables) as a DataFrame")
      .def("entities", &PyTrace::Entities, py::arg("table"), py::arg("start"), py::arg("end"),
           py::arg("container_ids"), py::arg("container_names"), py::arg("type_names"),
           "The rows of an entity table meeting a window, of containers and types, read from the chunks");

  m.def(
      "_open",
      [](const std::vector<std::string>& files, int threads, bool sort, bool no_strict, std::optional<size_t> memory) {
        formats::ReadOptions options;
        options.threads = threads;
        options.paje.sort = sort;
        options.paje.no_strict = no_strict;
        py::gil_scoped_release release;  // reading may take a while
        return std::make_unique<PyTrace>(files, options, memory.value_or(store::CacheBudget::DefaultBytes()));
      },
      py::arg("files"), py::arg("threads") = 0, py::arg("sort") = false, py::arg("no_strict") = false,
      py::arg("memory") = py::none());
}

}  // namespace macroscope::python
