// `import macroscope` (docs/python.md): a trace opened as the query
// library opens it (query/opened_trace.h) and asked in SQL; every answer a
// pandas DataFrame whose columns are NumPy arrays filled as the rows come
// (integers int64, or pandas' Int64 where some are NULL; reals float64;
// text an object array whose equal texts share one Python string).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "query/opened_trace.h"
#include "query/query_session.h"
#include "util/error.h"

namespace py = pybind11;

namespace macroscope::python {

namespace {

// One column of an answer, typed by what it holds: integers, reals, texts,
// or (SQLite lets a column mix them) cells.
class ColumnBuilder {
 public:
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
    null_.push_back(null ? 1 : 0);
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
    const size_t n = null_.size();
    switch (kind_) {
      case Kind::kInteger: {
        py::array_t<int64_t> values(static_cast<py::ssize_t>(n), ints_.data());
        bool any_null = false;
        for (uint8_t b : null_) any_null |= b != 0;
        if (!any_null) return values;
        py::array_t<bool> mask(static_cast<py::ssize_t>(n));
        bool* m = mask.mutable_data();
        for (size_t i = 0; i < n; ++i) m[i] = null_[i] != 0;
        return py::module_::import("pandas").attr("arrays").attr("IntegerArray")(values, mask);
      }
      case Kind::kReal: return py::array_t<double>(static_cast<py::ssize_t>(n), reals_.data());
      case Kind::kNone:
        for (size_t i = 0; i < n; ++i) texts_.push_back(py::none());
        [[fallthrough]];
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

  // From the values so far to `kind`.
  void Become(Kind kind) {
    const size_t n = null_.size();
    if (kind == Kind::kReal && kind_ == Kind::kInteger) {
      for (size_t i = 0; i < n; ++i)
        reals_.push_back(null_[i] ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(ints_[i]));
      ints_.clear();
    } else if (kind == Kind::kMixed) {
      std::vector<py::object> objects;
      for (size_t i = 0; i < n; ++i) {
        if (null_[i]) objects.push_back(py::none());
        else if (kind_ == Kind::kInteger) objects.push_back(py::int_(ints_[i]));
        else if (kind_ == Kind::kReal) objects.push_back(py::float_(reals_[i]));
        else objects.push_back(texts_[i]);
      }
      texts_ = std::move(objects);
      ints_.clear();
      reals_.clear();
    } else {  // from nothing (only NULLs so far)
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
  std::vector<uint8_t> null_;
  std::vector<int64_t> ints_;
  std::vector<double> reals_;
  std::vector<py::object> texts_;
  std::unordered_map<std::string, py::object> strings_;
};

// A trace and its SQL session.
class PyTrace {
 public:
  PyTrace(std::vector<std::string> files, const formats::ReadOptions& options)
      : opened_(files, options, store::CacheBudget::Serving(size_t{512} << 20)),
        session_(opened_.source(), opened_.files()) {}

  // The last statement's rows of `sql`, `parameters` bound in order.
  py::object Query(const std::string& sql) {
    std::vector<ColumnBuilder> columns;
    std::vector<std::string> names;
    bool fresh = true;
    {
      session_.Run(sql, [&](const analysis::Table& part, bool last) {
        if (fresh) {
          names = part.columns;
          columns.assign(names.size(), ColumnBuilder());
        }
        for (size_t i = 0; i < part.cells.size(); ++i) columns[i % names.size()].Add(part.cells[i]);
        fresh = last;
      });
    }
    py::dict data;
    py::list order;
    for (size_t c = 0; c < names.size(); ++c) {
      data[py::str(names[c])] = columns[c].Finish();
      order.append(names[c]);
    }
    return py::module_::import("pandas").attr("DataFrame")(data, py::arg("columns") = order);
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
           "The rows of the last statement of `sql` (SQLite's SQL over the trace's tables) as a DataFrame");

  m.def(
      "_open",
      [](const std::vector<std::string>& files, int threads, bool sort, bool no_strict) {
        formats::ReadOptions options;
        options.threads = threads;
        options.paje.sort = sort;
        options.paje.no_strict = no_strict;
        py::gil_scoped_release release;  // reading may take a while
        return std::make_unique<PyTrace>(files, options);
      },
      py::arg("files"), py::arg("threads") = 0, py::arg("sort") = false, py::arg("no_strict") = false);
}

}  // namespace macroscope::python
