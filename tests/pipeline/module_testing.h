// What the module library's tests share: a small trace with every kind of
// entity (made with entity_testing.h), modules that feed a workflow given batches and collect what
// comes out, and a runner for "source -> module under test -> collector".
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "entity_testing.h"
#include "pipeline/modules/modules.h"
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
  std::vector<TestEntity> entities;  // the ten, in that order
  EntityBatch batch;                 // all ten

  // Entities [first, last) as a batch.
  EntityBatch Batch(size_t first, size_t last) const {
    return BatchOf(trace, std::span<const TestEntity>(entities).subspan(first, last - first));
  }
};

inline Sample MakeSample() {
  Sample s;
  auto t = std::make_shared<Trace>();
  auto id = [&](std::string_view text) { return t->strings().Intern(text); };
  const TypeId node = t->AddType(kRootType, TypeKind::kContainer, id("Node"), kEmptyString);
  const TypeId state = t->AddType(node, TypeKind::kState, id("State"), kEmptyString);
  const TypeId event = t->AddType(node, TypeKind::kEvent, id("Event"), kEmptyString);
  const TypeId power = t->AddType(node, TypeKind::kVariable, id("Power"), kEmptyString);
  const TypeId comm = t->AddType(kRootType, TypeKind::kLink, id("Comm"), kEmptyString);
  t->type(comm).start_type = node;
  t->type(comm).end_type = node;
  ContainerId n[3] = {kRootContainer};
  for (int i : {1, 2}) {
    n[i] = t->AddContainer(kRootContainer, node, id("n" + std::to_string(i)), kEmptyString, 0);
    t->container(n[i]).end = 10;
    t->container(n[i]).destroyed = true;
  }
  t->AddValue(state, id("run"), kEmptyString, kEmptyString);
  t->AddValue(state, id("wait"), kEmptyString, kEmptyString);
  t->AddValue(event, id("tick"), kEmptyString, kEmptyString);
  t->AddValue(comm, id("msg"), kEmptyString, kEmptyString);
  t->SetTimeSpan(0, 10);

  auto cpu = [&](std::string_view value) { return std::vector<ExtraField>{{id("cpu"), id(value)}}; };
  s.entities = {
      {.container = n[1], .type = state, .start = 0, .end = 2, .value = id("run")},
      {.container = n[1], .type = state, .start = 2, .end = 5, .value = id("wait")},
      {.container = n[2], .type = state, .start = 1, .end = 4, .value = id("run")},
      {.container = n[1], .type = event, .start = 3, .end = 3, .value = id("tick"), .fields = cpu("1")},
      {.container = n[2], .type = event, .start = 6, .end = 6, .value = id("tick"), .fields = cpu("2")},
      {.container = n[1], .type = power, .start = 0, .end = 5, .number = 10},
      {.container = n[1], .type = power, .start = 5, .end = 10, .number = 20},
      {.container = n[2], .type = power, .start = 0, .end = 10, .number = 1.5},
  };
  for (auto [from, to, start, end, key] : {std::tuple{1, 2, 1.0, 1.5, "k1"}, {2, 1, 2.0, 4.0, "k2"}})
    s.entities.push_back({.type = comm,
                          .start = start,
                          .end = end,
                          .value = id("msg"),
                          .key = id(key),
                          .peer_start = n[from],
                          .peer_end = n[to]});
  s.trace = std::move(t);
  s.batch = s.Batch(0, s.entities.size());
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

// Collects what comes on "in": entities into one batch, or rows into one
// table.
class EntityCollector : public Module {
 public:
  explicit EntityCollector(std::string name) : Module(std::move(name)) { in_ = &AddInput<EntityBatch>("in"); }
  void Run() override {
    while (const EntityBatch* batch = in_->Next()) {
      ++batches;
      for (size_t k = 0; k < batch->chunks(); ++k) all.Append(batch->chunk(k));
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
    for (size_t c = 0; c < rows.columns.size(); ++c) out[r].push_back(analysis::CellText(rows.at(r, c)));
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
