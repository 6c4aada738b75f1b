// What the kernel analyses' tests share: the modules under test (made
// directly, before the lead registers them), Pajé traces written by the
// tests, and workflows "read -> module -> rows".
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "module_testing.h"
#include "pipeline/modules/modules.h"
#include "test_support.h"

namespace macroscope::kernel_analyses::testing {

using namespace ::macroscope::testing;

// A Pajé header: container type C, state type S, event types E1..E4 (one
// per series), all under C.
inline std::string PajeHeader() {
  std::string h;
  auto def = [&](const char* name, int id, std::vector<const char*> fields) {
    h += "%EventDef " + std::string(name) + " " + std::to_string(id) + "\n";
    for (const char* f : fields) h += "% " + std::string(f) + "\n";
    h += "%EndEventDef\n";
  };
  def("PajeDefineContainerType", 0, {"Alias string", "Type string", "Name string"});
  def("PajeDefineStateType", 1, {"Alias string", "Type string", "Name string"});
  def("PajeDefineEventType", 2, {"Alias string", "Type string", "Name string"});
  def("PajeCreateContainer", 3, {"Time date", "Alias string", "Type string", "Container string", "Name string"});
  def("PajePushState", 4, {"Time date", "Type string", "Container string", "Value string"});
  def("PajePopState", 5, {"Time date", "Type string", "Container string"});
  def("PajeNewEvent", 6, {"Time date", "Type string", "Container string", "Value string"});
  h += "0 C 0 C\n1 S C S\n";
  for (const char* e : {"E1", "E2", "E3", "E4"}) h += std::string("2 ") + e + " C " + e + "\n";
  h += "3 0 c1 C 0 c1\n3 0 c2 C 0 c2\n";
  return h;
}

// A state [start, end] on `container`; an event at `t`.
inline std::string PajeState(double start, double end, const std::string& container, const std::string& value) {
  char line[256];
  std::snprintf(line, sizeof line, "4 %.9f S %s %s\n5 %.9f S %s\n", start, container.c_str(), value.c_str(), end,
                container.c_str());
  return line;
}
inline std::string PajeEvent(double t, const std::string& type, const std::string& container,
                             const std::string& value) {
  char line[256];
  std::snprintf(line, sizeof line, "6 %.9f %s %s %s\n", t, type.c_str(), container.c_str(), value.c_str());
  return line;
}

// Runs read(params) -> `info` (instance "m", parameters `module_params`) -> rows.
inline pipeline::RowBatch ReadInto(const nlohmann::json& read_params, const pipeline::ModuleInfo& info,
                                   const nlohmann::json& module_params) {
  using namespace pipeline;
  Workflow w;
  w.Add(pipeline::testing::Make(ReadModule(), "read", read_params));
  w.Add(pipeline::testing::Make(info, "m", module_params));
  auto& sink =
      static_cast<pipeline::testing::RowCollector&>(w.Add(std::make_unique<pipeline::testing::RowCollector>("sink")));
  w.Link("read", "out", "m", "in");
  w.Link("m", "rows", "sink", "in");
  w.Run();
  return sink.all;
}

// The value of `column` in row `row` as text.
inline std::string Cell(const pipeline::RowBatch& rows, size_t row, const std::string& column) {
  for (size_t c = 0; c < rows.columns.size(); ++c)
    if (rows.columns[c] == column) return analysis::CellText(rows.at(row, c));
  ADD_FAILURE() << "no column " << column;
  return "";
}

inline nlohmann::json JsonOf(const CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

}  // namespace macroscope::kernel_analyses::testing
