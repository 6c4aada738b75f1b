// Test-only modules for the engine's tests: a numbered entity source, a
// counting sink, a module that fails, a pair that would wait forever, row
// sources and sinks; and a Run() under a watchdog, so a hang fails the test
// instead of stalling the suite.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "entity_testing.h"
#include "pipeline/workflow.h"
#include "util/error.h"

namespace macroscope::pipeline::engine_test {

template <class M, class... Args>
M& AddModule(Workflow& workflow, Args&&... args) {
  return static_cast<M&>(workflow.Add(std::make_unique<M>(std::forward<Args>(args)...)));
}

// Values of one variable numbered 0..total-1 (the number and the start),
// `batch` per batch, each with one user field {n, n} when `fields`.
class Generate : public Module {
 public:
  Generate(std::string name, uint64_t total, size_t batch = 100, bool fields = false)
      : Module(std::move(name)), out_(AddOutput<EntityBatch>("out")), total_(total), batch_(batch), fields_(fields) {}
  void Run() override {
    auto trace = std::make_shared<Trace>();
    const TypeId type = trace->AddType(kRootType, TypeKind::kVariable, trace->strings().Intern("n"), kEmptyString);
    std::vector<pipeline::testing::TestEntity> entities;
    for (uint64_t n = 0; n < total_;) {
      entities.clear();
      for (size_t i = 0; i < batch_ && n < total_; ++i, ++n) {
        pipeline::testing::TestEntity& e = entities.emplace_back();
        e.type = type;
        e.start = e.end = e.number = static_cast<double>(n);
        if (fields_) e.fields.push_back({static_cast<StringId>(n), static_cast<StringId>(n)});
      }
      EntityBatch& b = out_.Claim();
      b.Clear();
      b.trace = trace;
      pipeline::testing::AppendEntities(b, entities);
      out_.Publish();
    }
  }

 private:
  Output<EntityBatch>& out_;
  uint64_t total_;
  size_t batch_;
  bool fields_;
};

// Keeps what it reads: entity numbers, batch addresses, fields' values.
class Sink : public Module {
 public:
  explicit Sink(std::string name) : Module(std::move(name)), in_(AddInput<EntityBatch>("in")) {}
  void Run() override {
    while (const EntityBatch* b = in_.Next()) {
      batches.push_back(b);
      for (size_t k = 0; k < b->chunks(); ++k) {
        const EntityChunk c = b->chunk(k);
        for (size_t i = 0; i < c.size(); ++i) {
          numbers.push_back(static_cast<uint64_t>(c.Number(i)));
          c.ForEachField(i, [&](const ExtraField& f) { field_values.push_back(f.value); });
        }
      }
    }
  }
  std::vector<uint64_t> numbers;
  std::vector<const EntityBatch*> batches;
  std::vector<StringId> field_values;

 private:
  Input<EntityBatch>& in_;
};

// Passes batches on, and throws UserError(message) on batch number `at`.
class Fail : public Module {
 public:
  Fail(std::string name, size_t at, std::string message)
      : Module(std::move(name)),
        in_(AddInput<EntityBatch>("in")),
        out_(AddOutput<EntityBatch>("out")),
        at_(at),
        message_(std::move(message)) {}
  void Run() override {
    for (size_t n = 0; const EntityBatch* b = in_.Next(); ++n) {
      if (n == at_) throw UserError(message_);
      out_.Claim() = *b;
      out_.Publish();
    }
  }

 private:
  Input<EntityBatch>& in_;
  Output<EntityBatch>& out_;
  size_t at_;
  std::string message_;
};

// Stall (a, b) -> Wait (a, b): Stall fills `a` and never writes `b`; Wait
// reads `b` first. Both wait forever, in the rings, until cancelled.
class Stall : public Module {
 public:
  explicit Stall(std::string name)
      : Module(std::move(name)), a_(AddOutput<EntityBatch>("a")), b_(AddOutput<EntityBatch>("b")) {}
  void Run() override {
    for (;;) {
      a_.Claim().Clear();
      a_.Publish();
    }
  }

 private:
  Output<EntityBatch>& a_;
  Output<EntityBatch>& b_;
};
class Wait : public Module {
 public:
  explicit Wait(std::string name)
      : Module(std::move(name)), a_(AddInput<EntityBatch>("a")), b_(AddInput<EntityBatch>("b")) {}
  void Run() override {
    while (b_.Next()) {
    }
    while (a_.Next()) {
    }
  }

 private:
  Input<EntityBatch>& a_;
  Input<EntityBatch>& b_;
};

// `rows` rows of `columns`, cell (r, c) = offset + 10 r + c, `batch` rows per batch.
class RowSource : public Module {
 public:
  RowSource(std::string name, std::vector<std::string> columns, int64_t rows, int64_t offset = 0, int64_t batch = 3)
      : Module(std::move(name)),
        out_(AddOutput<RowBatch>("rows")),
        columns_(std::move(columns)),
        rows_(rows),
        offset_(offset),
        batch_(batch) {}
  void Run() override {
    for (int64_t r = 0; r < rows_;) {
      RowBatch& b = out_.Claim();
      b.Clear();
      b.columns = columns_;
      for (int64_t i = 0; i < batch_ && r < rows_; ++i, ++r)
        for (size_t c = 0; c < columns_.size(); ++c) b.cells.emplace_back(offset_ + 10 * r + static_cast<int64_t>(c));
      out_.Publish();
    }
  }

 private:
  Output<RowBatch>& out_;
  std::vector<std::string> columns_;
  int64_t rows_, offset_, batch_;
};

// Keeps every row it reads.
class RowSink : public Module {
 public:
  explicit RowSink(std::string name) : Module(std::move(name)), in_(AddInput<RowBatch>("in")) {}
  void Run() override {
    while (const RowBatch* b = in_.Next()) {
      columns = b->columns;
      for (size_t r = 0; r < b->rows(); ++r)
        rows.emplace_back(b->cells.begin() + r * b->columns.size(), b->cells.begin() + (r + 1) * b->columns.size());
    }
  }
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;

 private:
  Input<RowBatch>& in_;
};

// The message of the UserError `f` throws, or "" when it throws none.
template <class F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// Runs `workflow`; returns "" or the UserError's message. A run still going
// after `limit` fails the test; one that Cancel() cannot stop aborts it.
inline std::string RunWithin(Workflow& workflow, std::chrono::seconds limit = std::chrono::seconds(30)) {
  auto run = std::async(std::launch::async, [&workflow]() -> std::string {
    try {
      workflow.Run();
      return "";
    } catch (const UserError& e) {
      return e.what();
    }
  });
  if (run.wait_for(limit) == std::future_status::ready) return run.get();
  ADD_FAILURE() << "the workflow still runs after " << limit.count() << " s";
  workflow.Cancel();
  if (run.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    std::fprintf(stderr, "the workflow hangs even after Cancel()\n");
    std::abort();
  }
  return run.get();
}

}  // namespace macroscope::pipeline::engine_test
