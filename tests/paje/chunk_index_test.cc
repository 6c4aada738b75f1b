// Where a streamed chunk's entities sit in their store (EntityChunk::index),
// for Pajé (the placing sink: placed_entities.h): on generated traces of
// every kind, on the hand-written traces compared with pj_dump, and on a
// trace whose states stay open over many drains, with and without -i
// (interrupted states), drains from every entity to every few hundred,
// read sequentially, with 2 decoding threads and with 2 shards. Every
// other reader: tests/formats/streamed_readers_test.cc.
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "formats/paje/generator.h"
#include "formats/paje/reader.h"
#include "placed_entities.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::testing {
namespace {

using paje::ReadOptions;

// How a trace is read: threads decoding, bytes per decoded chunk, shards simulating.
struct Reading {
  const char* name;
  int threads;
  size_t chunk_bytes;
  int shards;
};
constexpr Reading kReadings[] = {
    {"sequential", 1, paje::kChunkBytes, 1},
    {"2 decoding threads", 2, 2000, 1},
    {"2 shards", 1, paje::kChunkBytes, 2},
};

// Reads `path` in memory, then streamed with every reading and drain
// interval, and expects the placed entities to be the in-memory stores.
// Returns the number of entities; 0 for a trace refused in memory, which
// is skipped (refusals streamed are the streaming tests').
size_t ExpectPlacedAsInMemory(const std::string& path, const ReadOptions& options,
                              std::initializer_list<size_t> drain_intervals) {
  Trace model;
  try {
    paje::ReadPaje({path}, options, model, 1);
  } catch (const UserError&) {
    return 0;
  }
  for (const Reading& reading : kReadings) {
    for (size_t interval : drain_intervals) {
      SCOPED_TRACE(path + ", " + reading.name + ", a drain every " + std::to_string(interval) + " entities" +
                   (options.simulator.no_imbrication ? ", -i" : ""));
      PlacingSink sink;
      ReadOptions streamed = options;
      streamed.chunk_bytes = reading.chunk_bytes;
      streamed.simulator.shards = reading.shards;
      streamed.simulator.sink = &sink;
      streamed.simulator.drain_interval = interval;
      Trace trace;
      paje::ReadPaje({path}, streamed, trace, reading.threads);
      ExpectPlacedAs(model, sink);
    }
  }
  size_t entities = 0;
  for (const EntityStore& s : model.stores()) entities += s.size();
  return entities;
}

// A generated trace of every kind, nested 3 deep, inner containers busy too.
std::string Generate(const std::string& path, uint64_t seed) {
  paje::GeneratorOptions g;
  g.depth = 3;
  g.arity = 3;
  g.events = 20000;
  g.seed = seed;
  g.nested = g.punctual = g.links = g.variables = g.inner = true;
  g.nesting = 3;
  return paje::GeneratePajeFile(g, path);
}

TEST(ChunkIndexTest, GeneratedTracesPlaceAsInMemory) {
  TempDir dir;
  for (uint64_t seed : {1, 2, 3}) {
    const std::string path = Generate(dir.path() + "/generated.trace", seed);
    for (bool interrupting : {false, true}) {
      ReadOptions options;
      options.simulator.no_imbrication = interrupting;
      EXPECT_GT(ExpectPlacedAsInMemory(path, options, {1, 61, 4096}), 10000u);
    }
  }
}

// pajeng's examples are left to the other tests: the edge cases cover
// resets, destructions, user fields, nesting and links ending first.
TEST(ChunkIndexTest, HandWrittenTracesPlaceAsInMemory) {
  size_t read = 0;  // traces read with entities
  const std::string folder = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces";
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".trace") continue;
    for (bool interrupting : {false, true}) {
      ReadOptions options;
      options.simulator.no_imbrication = interrupting;
      if (ExpectPlacedAsInMemory(entry.path().string(), options, {1, 2, 5}) > 0) ++read;
    }
  }
  EXPECT_GT(read, 20u);
}

// Thread t keeps `main` open for 50 steps at a time (set again then),
// pushing `a` (with a field) and sometimes `b` over it each step, with an
// event and a variable changed (twice at the same instant every fifth
// step); thread u keeps `outer` open for the whole trace, with states
// pushed and popped above it. With -i every push interrupts the state
// below, which resumes as a new entity at the pop.
std::string LongOpenStates() {
  std::string text =
      "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
      "%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
      "%EventDef PajeDefineEventType 2\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
      "%EventDef PajeDefineVariableType 3\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
      "%EventDef PajeCreateContainer 4\n% Time date\n% Alias string\n% Type string\n% Container string\n"
      "% Name string\n%EndEventDef\n"
      "%EventDef PajeSetState 5\n% Time date\n% Type string\n% Container string\n% Value string\n%EndEventDef\n"
      "%EventDef PajePushState 6\n% Time date\n% Type string\n% Container string\n% Value string\n"
      "% Tag string\n%EndEventDef\n"
      "%EventDef PajePopState 7\n% Time date\n% Type string\n% Container string\n%EndEventDef\n"
      "%EventDef PajeNewEvent 8\n% Time date\n% Type string\n% Container string\n% Value string\n%EndEventDef\n"
      "%EventDef PajeSetVariable 9\n% Time date\n% Type string\n% Container string\n% Value double\n%EndEventDef\n"
      "%EventDef PajeAddVariable 10\n% Time date\n% Type string\n% Container string\n% Value double\n"
      "%EndEventDef\n"
      "0 T 0 Thread\n1 S T State\n2 E T Event\n3 V T Var\n4 0 t T 0 t\n4 0 u T 0 u\n"
      "5 0 S t main\n6 0 S u outer o\n";
  for (int k = 1; k <= 300; ++k) {
    auto at = [k](const char* fraction) { return std::to_string(k) + fraction; };
    text += "6 " + at(".0") + " S t a tag" + std::to_string(k) + "\n";
    text += "6 " + at(".1") + " S u in" + std::to_string(k % 4) + " x\n";
    if (k % 3 == 0) text += "6 " + at(".2") + " S t b y\n7 " + at(".3") + " S t\n";
    text += "8 " + at(".4") + " E t tick\n9 " + at(".4") + " V t " + std::to_string(k) + "\n";
    if (k % 5 == 0) text += "10 " + at(".4") + " V t 1\n";
    text += "7 " + at(".5") + " S t\n7 " + at(".6") + " S u\n";
    if (k % 50 == 0) text += "5 " + at(".7") + " S t main\n";
  }
  return text;
}

TEST(ChunkIndexTest, StatesOpenOverManyDrainsPlaceAsInMemory) {
  TempDir dir;
  const std::string path = dir.path() + "/open.trace";
  WriteText(path, LongOpenStates());
  for (bool interrupting : {false, true}) {
    ReadOptions options;
    options.simulator.no_imbrication = interrupting;
    EXPECT_GT(ExpectPlacedAsInMemory(path, options, {1, 3, 50}), 1000u);
  }
}

}  // namespace
}  // namespace macroscope::testing
