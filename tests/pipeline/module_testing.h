// What the module library's tests share: a small trace with every kind of
// entity, modules that feed a workflow given batches and collect what
// comes out, and a runner for "source -> module under test -> collector".
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "pipeline/modules/modules.h"
#include "pipeline/modules/row_reading.h"
#include "pipeline/workflow.h"
#include "util/error.h"

namespace macroscope::pipeline::testing {

// Two nodes n1, n2 (type Node) under the root, from 0 to 10 s (Pajé-like
// seconds); their entities, in each store's order:
//   State  n1: run [0,2], wait [2,5]      n2: run [1,4]
//   Event  n1: tick @3 (cpu=1)            n2: tick @6 (cpu=2)
//   Power  n1: 10 [0,5], 20 [5,10]        n2: 1.5 [0,10]
//   Comm (links, in the root "0"): msg n1->n2 [1,1.5] key k1, msg n2->n1 [2,4] key k2
struct Sample {
  std::shared_ptr<Trace> trace;
  EntityBatch batch;  // all ten entities
};

inline Sample MakeSample() {
  Sample s;
  auto t = std::make_shared<Trace>();
  auto id = [&](std::string_view text) { return t->strings().Intern(text); };
  const TypeId node = t->AddType(kRootType, TypeKind::kContainer, id("Node"), kEmptyString);
  const TypeId state = t->AddType(node, TypeKind::kState, id("State"), kEmptyString);
  const TypeId event = t->AddType(node, TypeKind::kEvent, id("Event"), kEmptyString);
  t->AddType(node, TypeKind::kVariable, id("Power"), kEmptyString);
  const TypeId comm = t->AddType(kRootType, TypeKind::kLink, id("Comm"), kEmptyString);
  t->type(comm).start_type = node;
  t->type(comm).end_type = node;
  for (const char* name : {"n1", "n2"}) {
    const ContainerId c = t->AddContainer(kRootContainer, node, id(name), kEmptyString, 0);
    t->container(c).end = 10;
    t->container(c).destroyed = true;
  }
  t->AddValue(state, id("run"), kEmptyString, kEmptyString);
  t->AddValue(state, id("wait"), kEmptyString, kEmptyString);
  t->AddValue(event, id("tick"), kEmptyString, kEmptyString);
  t->AddValue(comm, id("msg"), kEmptyString, kEmptyString);
  t->SetTimeSpan(0, 10);

  EntityBatch& b = s.batch;
  auto add = [&](TypeKind kind, std::string_view type, ContainerId c, double start, double end) -> Entity& {
    Entity& e = b.entities.emplace_back();
    e.kind = kind;
    e.type = id(type);
    e.container_id = c;
    e.container = t->container(c).name;
    e.start = start;
    e.end = end;
    return e;
  };
  auto field = [&](Entity& e, std::string_view name, std::string_view value) {
    e.fields_begin = static_cast<uint32_t>(b.fields.size());
    b.fields.push_back({id(name), id(value)});
    e.fields_end = static_cast<uint32_t>(b.fields.size());
  };
  add(TypeKind::kState, "State", 1, 0, 2).value = id("run");
  add(TypeKind::kState, "State", 1, 2, 5).value = id("wait");
  add(TypeKind::kState, "State", 2, 1, 4).value = id("run");
  Entity& tick1 = add(TypeKind::kEvent, "Event", 1, 3, 3);
  tick1.value = id("tick");
  field(tick1, "cpu", "1");
  Entity& tick2 = add(TypeKind::kEvent, "Event", 2, 6, 6);
  tick2.value = id("tick");
  field(tick2, "cpu", "2");
  add(TypeKind::kVariable, "Power", 1, 0, 5).number = 10;
  add(TypeKind::kVariable, "Power", 1, 5, 10).number = 20;
  add(TypeKind::kVariable, "Power", 2, 0, 10).number = 1.5;
  for (auto [from, to, start, end, key] : {std::tuple{"n1", "n2", 1.0, 1.5, "k1"}, {"n2", "n1", 2.0, 4.0, "k2"}}) {
    Entity& link = add(TypeKind::kLink, "Comm", kRootContainer, start, end);
    link.value = id("msg");
    link.key = id(key);
    link.peer_start = id(from);
    link.peer_end = id(to);
  }
  b.trace = t;
  b.base = t->time_base();
  s.trace = std::move(t);
  return s;
}

// Publishes the given batches on "out" (entities or rows).
template <class T>
class Source : public Module {
 public:
  Source(std::string name, std::vector<T> batches) : Module(std::move(name)), batches_(std::move(batches)) {
    out_ = &AddOutput<T>("out");
  }
  void Run() override {
    for (const T& batch : batches_) {
      T& slot = out_->Claim();
      slot = batch;
      out_->Publish();
    }
  }

 private:
  std::vector<T> batches_;
  Output<T>* out_;
};

// Collects what comes on "in": entities with their own user fields, or
// rows into one table.
class EntityCollector : public Module {
 public:
  explicit EntityCollector(std::string name) : Module(std::move(name)) { in_ = &AddInput<EntityBatch>("in"); }
  void Run() override {
    while (const EntityBatch* batch = in_->Next()) {
      ++batches;
      for (Entity e : batch->entities) {
        const uint32_t begin = static_cast<uint32_t>(all.fields.size());
        all.fields.insert(all.fields.end(), batch->fields.begin() + e.fields_begin,
                          batch->fields.begin() + e.fields_end);
        e.fields_begin = begin;
        e.fields_end = static_cast<uint32_t>(all.fields.size());
        all.entities.push_back(e);
      }
      all.trace = batch->trace;
      all.base = batch->base;
    }
  }
  EntityBatch all;
  int batches = 0;

 private:
  Input<EntityBatch>* in_;
};

class RowCollector : public Module {
 public:
  explicit RowCollector(std::string name) : Module(std::move(name)) { in_ = &AddInput<RowBatch>("in"); }
  void Run() override {
    while (const RowBatch* batch = in_->Next()) {
      all.columns = batch->columns;
      all.cells.insert(all.cells.end(), batch->cells.begin(), batch->cells.end());
    }
  }
  RowBatch all;

 private:
  Input<RowBatch>* in_;
};

inline std::unique_ptr<Module> Make(const ModuleInfo& info, const std::string& name, nlohmann::json params) {
  return info.make(name, Params(name, std::move(params)));
}

// Runs source -> `info` (instance "m") -> a row collector on its "rows".
inline RowBatch RowsOf(const ModuleInfo& info, nlohmann::json params, std::vector<EntityBatch> batches) {
  Workflow w;
  w.Add(std::make_unique<Source<EntityBatch>>("source", std::move(batches)));
  w.Add(Make(info, "m", std::move(params)));
  auto& sink = static_cast<RowCollector&>(w.Add(std::make_unique<RowCollector>("sink")));
  w.Link("source", "out", "m", "in");
  w.Link("m", "rows", "sink", "in");
  w.Run();
  return sink.all;
}

// Runs batches -> `info` (a writer or a chart, instance "m"); returns the files it wrote.
template <class T>
std::vector<std::string> FilesWritten(const ModuleInfo& info, nlohmann::json params, std::vector<T> batches) {
  Workflow w;
  w.Add(std::make_unique<Source<T>>("source", std::move(batches)));
  Module& m = w.Add(Make(info, "m", std::move(params)));
  w.Link("source", "out", "m", "in");
  w.Run();
  return m.files_written();
}

// Rows -> a row writer or a chart.
inline std::vector<std::string> WriteRows(const ModuleInfo& info, nlohmann::json params,
                                          std::vector<RowBatch> batches) {
  return FilesWritten(info, std::move(params), std::move(batches));
}

// Entities -> an entity writer.
inline std::vector<std::string> WriteEntities(const ModuleInfo& info, nlohmann::json params,
                                              std::vector<EntityBatch> batches) {
  return FilesWritten(info, std::move(params), std::move(batches));
}

// Every row as its cells' text.
inline std::vector<std::vector<std::string>> Texts(const RowBatch& rows) {
  std::vector<std::vector<std::string>> out(rows.rows());
  for (size_t r = 0; r < rows.rows(); ++r)
    for (size_t c = 0; c < rows.columns.size(); ++c) out[r].push_back(CellText(rows.at(r, c)));
  return out;
}

// The message of the UserError `f` throws ("" when it throws none).
template <class F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace macroscope::pipeline::testing
