// Helpers of the streaming reader tests: every entity as one comparable
// line (kind, type, container, times, value, number, level, key, peers,
// user fields), from the in-memory model and from a recording sink, and a
// check that streaming a trace gives exactly the in-memory model's
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

#include "formats/format.h"
#include "formats/paje/generator.h"
#include "model/entity_sink.h"
#include "model/trace.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::streaming_test {

using namespace ::macroscope::testing;

inline std::string Number(double d) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  return buffer;
}

// Entity i of `s`, as one line.
inline std::string Line(const Trace& trace, const EntityStore& s, size_t i) {
  auto name = [&](ContainerId c) {
    return c == kNone ? std::string("-") : std::string(trace.Str(trace.container(c).name));
  };
  std::string line = std::string(TypeKindName(s.kind)) + "|" + std::string(trace.Str(trace.type(s.type).name)) + "|" +
                     name(s.container) + "|" + Number(s.start[i]) + "|" + Number(s.End(i));
  if (!s.value.empty()) line += "|v=" + std::string(trace.Str(s.value[i]));
  if (!s.number.empty()) line += "|n=" + Number(s.number[i]);
  if (!s.level.empty()) line += "|l=" + std::to_string(s.level[i]);
  if (!s.key.empty()) line += "|k=" + std::string(trace.Str(s.key[i]));
  if (!s.peer_start.empty()) line += "|from=" + name(s.peer_start[i]) + "|to=" + name(s.peer_end[i]);
  s.extras.ForEach(i, [&](const ExtraField& f) {
    line += "|" + std::string(trace.Str(f.name)) + "=" + std::string(trace.Str(f.value));
  });
  return line;
}

// Lines per store ("container|type"), in store order.
using Lines = std::map<std::string, std::vector<std::string>>;

inline std::string StoreKey(const Trace& trace, const EntityStore& s) {
  return std::to_string(s.container) + "|" + std::string(trace.Str(trace.type(s.type).name));
}

inline Lines ModelLines(const Trace& trace) {
  Lines lines;
  for (const EntityStore& s : trace.stores()) {
    std::vector<std::string>& out = lines[StoreKey(trace, s)];
    for (size_t i = 0; i < s.size(); ++i) out.push_back(Line(trace, s, i));
  }
  return lines;
}

// Records what it is handed; checks every call, and (every `check_every`
// calls) that the trace holds few entities meanwhile.
class RecordingSink : public EntitySink {
 public:
  void Completed(const Trace& trace, const EntityStore& s, size_t begin, size_t end) override {
    EXPECT_LT(begin, end);
    EXPECT_LE(end, s.size());
    if (record) {
      std::vector<std::string>& out = lines[StoreKey(trace, s)];
      for (size_t i = begin; i < end; ++i) out.push_back(Line(trace, s, i));
    }
    entities += end - begin;
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
