// Helpers of the streaming reader tests: every entity as one comparable
// line (entity_testing.h), from the in-memory model and from a recording
// sink, and a check that streaming a trace gives exactly the in-memory model's
// entities: the same multiset, and the same order per store for events,
// variables and links (states may come out of store order: an open state
// is handed over when it closes, docs/streaming.md).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "entity_testing.h"
#include "formats/format.h"
#include "formats/paje/generator.h"
#include "model/entity_sink.h"
#include "model/trace.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::streaming_test {

using namespace ::macroscope::testing;

using pipeline::testing::Line;
using pipeline::testing::Number;

// Lines per store ("container|type"), in store order.
using Lines = std::map<std::string, std::vector<std::string>>;

inline std::string StoreKey(const Trace& trace, const EntityChunk& c) {
  return std::to_string(c.container) + "|" + std::string(trace.Str(c.type_name));
}

inline Lines ModelLines(const Trace& trace) {
  Lines lines;
  for (const EntityStore& s : trace.stores()) {
    const EntityChunk c = EntityChunk::Of(trace, s);
    std::vector<std::string>& out = lines[StoreKey(trace, c)];
    for (size_t i = 0; i < c.size(); ++i) out.push_back(Line(trace, c, i));
  }
  return lines;
}

// Records what it is handed; checks every call, and (every `check_every`
// calls) that the trace holds few entities meanwhile.
class RecordingSink : public EntitySink {
 public:
  void Completed(const Trace& trace, const EntityChunk& c) override {
    EXPECT_FALSE(c.empty());
    // The chunk's names are those of its store's type and container.
    EXPECT_EQ(c.type_name, trace.type(c.type).name);
    EXPECT_EQ(c.container_name, trace.container(c.container).name);
    if (record) {
      std::vector<std::string>& out = lines[StoreKey(trace, c)];
      for (size_t i = 0; i < c.size(); ++i) out.push_back(Line(trace, c, i));
    }
    entities += c.size();
    ++calls;
    if (check_every != 0 && calls % check_every == 0) {
      size_t held = 0, capacity = 0;
      for (const EntityStore& x : trace.stores()) {
        held += x.size();
        capacity += x.start.capacity();
      }
      max_held = std::max(max_held, held);
      max_capacity = std::max(max_capacity, capacity);
    }
  }
  bool record = true;  // false: count only
  Lines lines;
  size_t entities = 0, calls = 0;
  size_t check_every = 0;
  size_t max_held = 0, max_capacity = 0;
};

inline size_t Total(const Lines& lines) {
  size_t n = 0;
  for (const auto& [key, list] : lines) n += list.size();
  return n;
}

// Reads `files` in memory and streamed (with `options`, whose sink is
// replaced), and checks the streamed entities are the model's. Returns
// the number of entities.
inline size_t ExpectStreamedEqualsModel(const std::vector<std::string>& files, formats::ReadOptions options) {
  Trace model;
  options.sink = nullptr;
  std::string refusal;  // a trace the reader refuses is refused streamed too, alike
  try {
    formats::ReadTrace(files, options, model);
  } catch (const UserError& e) {
    refusal = e.what();
  }
  const Lines expected = ModelLines(model);

  Trace streamed;
  RecordingSink sink;
  options.sink = &sink;
  try {
    formats::ReadTrace(files, options, streamed);
    EXPECT_EQ(refusal, "") << "refused in memory only";
  } catch (const UserError& e) {
    EXPECT_EQ(e.what(), refusal);
    return 0;
  }
  for (const EntityStore& s : streamed.stores()) EXPECT_EQ(s.size(), 0u) << "the trace kept entities";
  EXPECT_EQ(streamed.time_base(), model.time_base());
  EXPECT_EQ(streamed.start_time(), model.start_time());
  EXPECT_EQ(streamed.end_time(), model.end_time());
  EXPECT_EQ(streamed.containers().size(), model.containers().size());

  EXPECT_EQ(Total(sink.lines), Total(expected));
  for (const auto& [key, want] : expected) {
    auto it = sink.lines.find(key);
    std::vector<std::string> got = it == sink.lines.end() ? std::vector<std::string>() : it->second;
    std::vector<std::string> want_sorted = want;
    const bool states = !want.empty() && want.front().rfind("state|", 0) == 0;
    if (states) {  // the same entities; open states come later
      std::sort(got.begin(), got.end());
      std::sort(want_sorted.begin(), want_sorted.end());
    }
    EXPECT_EQ(got, want_sorted) << "store " << key;
  }
  for (const auto& [key, got] : sink.lines)
    EXPECT_TRUE(got.empty() || expected.count(key)) << "unexpected store " << key;
  return Total(expected);
}

// A generated Pajé trace (paje::GeneratePaje) with nested states, punctual
// events, links and variables, written to DIR/generated.trace; its path.
inline std::string GenerateFullTrace(const std::string& dir, int depth, int arity, uint64_t events) {
  paje::GeneratorOptions options;
  options.depth = depth;
  options.arity = arity;
  options.events = events;
  options.nested = options.punctual = options.links = options.variables = true;
  const std::string path = dir + "/generated.trace";
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) {
    ADD_FAILURE() << "cannot write " << path;
    return path;
  }
  paje::GeneratePaje(options, out);
  std::fclose(out);
  return path;
}

// The same with a drain interval (entities between two hand-overs).
inline size_t ExpectStreamedEqualsModel(const std::vector<std::string>& files, size_t drain_interval,
                                        formats::ReadOptions options = {}) {
  options.paje.simulator.drain_interval = drain_interval;
  return ExpectStreamedEqualsModel(files, options);
}

}  // namespace macroscope::streaming_test
