// Every reader, streamed, against its in-memory result: the trace is read
// through formats::ReadTrace once without a sink (the model) and once with
// a PlacingSink (placed_entities.h), which puts each chunk's entities at
// their EntityChunk::index; every place of every store must be filled
// exactly once, with the model's entity. Drains at every entity, every 7
// and at the default interval; with 2 threads too where the reader reads on
// threads (OTF2 locations, CTF streams, Pajé lines). Inputs: the suite's
// own (the fuzz corpus' seeds, the OTF2 writer's archives, a generated
// Pajé trace and its store) and ../shared/testdata's real traces (skipped
// with one line when absent). Pajé has one case here: tests/paje's
// ChunkIndexTest covers it more.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/paje/generator.h"
#include "placed_entities.h"
#include "ring_archive.h"
#include "sample_archive.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::testing {
namespace {

namespace fs = std::filesystem;

// How a streamed read is made: threads reading, entities between two
// drains (the simulator's; every format but the store goes through it).
struct Reading {
  int threads;
  size_t interval;
};
constexpr size_t kDefaultInterval = paje::SimulatorOptions{}.drain_interval;
constexpr Reading kSequential[] = {{1, 1}, {1, 7}, {1, kDefaultInterval}};
constexpr Reading kThreaded[] = {{1, 1}, {1, 7}, {2, 1}, {2, kDefaultInterval}};
// The real traces, larger, and CTF's reads cost 0.1 s each (babeltrace2's
// set-up): a drain at every entity, and the threads at another interval.
constexpr Reading kFewSequential[] = {{1, 1}, {1, kDefaultInterval}};
constexpr Reading kFewThreaded[] = {{1, 1}, {2, 7}};

// Reads `files` in memory (sequentially), then streamed in each of
// `readings`, and expects the placed entities to be the in-memory stores.
// Returns the model's entities; 0 for a trace refused in memory, which is
// not streamed (refusals streamed are tests/pipeline's streaming tests').
size_t ExpectPlacedAsInMemory(const std::vector<std::string>& files, std::span<const Reading> readings,
                              formats::ReadOptions options = {}) {
  Trace model;
  options.threads = 1;
  try {
    formats::ReadTrace(files, options, model);
  } catch (const UserError&) {
    return 0;
  }
  for (const Reading& reading : readings) {
    SCOPED_TRACE(files.front() + ": " + std::to_string(reading.threads) + " thread(s), a drain every " +
                 std::to_string(reading.interval) + " entities" + (options.events_only ? ", events only" : ""));
    PlacingSink sink;
    formats::ReadOptions streamed = options;
    streamed.threads = reading.threads;
    streamed.sink = &sink;
    streamed.paje.simulator.drain_interval = reading.interval;
    Trace trace;
    formats::ReadTrace(files, streamed, trace);
    ExpectPlacedAs(model, sink);
  }
  size_t entities = 0;
  for (const EntityStore& s : model.stores()) entities += s.size();
  return entities;
}

// The entities of every file of the fuzz corpus' folder `format` that the
// reader accepts (the regressions among them may be refused).
size_t ExpectCorpusPlacedAsInMemory(const std::string& format, formats::ReadOptions options = {}) {
  size_t entities = 0;
  for (const auto& e : fs::directory_iterator(std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/corpus/" + format))
    entities += ExpectPlacedAsInMemory({e.path().string()}, kSequential, options);
  return entities;
}

std::string Shared(const std::string& path) { return SharedTestData() + "/" + path; }

// A generated Pajé trace: of every kind, nested, inner containers busy
// too; or states only (`every_kind` false).
std::string GeneratePaje(const std::string& path, int depth, int arity, uint64_t events, bool every_kind = true) {
  paje::GeneratorOptions g;
  g.depth = depth;
  g.arity = arity;
  g.events = events;
  g.nested = g.punctual = g.links = g.variables = g.inner = every_kind;
  g.nesting = 3;
  return paje::GeneratePajeFile(g, path);
}

TEST(StreamedReaders, Paje) {
  TempDir dir;
  EXPECT_GT(ExpectPlacedAsInMemory({GeneratePaje(dir.path() + "/generated.trace", 3, 3, 20000)}, kThreaded), 10000u);
}

TEST(StreamedReaders, Otf2WrittenArchives) {
  TempDir sample, ring;
  EXPECT_GT(ExpectPlacedAsInMemory({otf2::testing::WriteSampleArchive(sample.path())}, kThreaded), 10u);
  // Every message between two locations; types first used in orders of
  // each location's own; a node variable all locations set.
  // (Written with the largest chunks, which the library reads whole: few
  // reads of it.)
  const std::string anchor = mpi::testing::WriteRingArchive(ring.path(), 2, 20, true, true);
  EXPECT_GT(ExpectPlacedAsInMemory({anchor}, kFewThreaded), 100u);
}

TEST(StreamedReaders, Otf2SharedArchives) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"ping-pong-otf2", "ping-pong-otf2-papi"})
    EXPECT_GT(ExpectPlacedAsInMemory({Shared("otf2/") + name + "/traces.otf2"}, kFewThreaded), 50u) << name;
}

// CTF mapped (kernel and user mappings) or one entity per event.
size_t ExpectCtfPlacedAsInMemory(const std::string& dir, std::span<const Reading> readings, bool events_only) {
  formats::ReadOptions options;
  options.events_only = events_only;
  return ExpectPlacedAsInMemory({dir}, readings, options);
}

TEST(StreamedReaders, CtfCommittedTrace) {
  for (bool events_only : {false, true})
    EXPECT_GT(ExpectCtfPlacedAsInMemory(std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/ctf_trace", kThreaded,
                                        events_only),
              5u);
}

TEST(StreamedReaders, CtfSharedTraces) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name :
       {"mpi_allreduce", "mpi_ssend_irecv", "flipping-endianness", "bug446190", "cyg-profile", "perf-taskset2"})
    EXPECT_GT(ExpectCtfPlacedAsInMemory(Shared("ctf/") + name, kFewThreaded, false), 100u) << name;
  // Events only: the kernel trace of 4 CPU streams.
  EXPECT_GT(ExpectCtfPlacedAsInMemory(Shared("ctf/bug446190"), kFewThreaded, true), 30000u);
}

TEST(StreamedReaders, ChromeCorpus) { EXPECT_GT(ExpectCorpusPlacedAsInMemory("chrome"), 15u); }

TEST(StreamedReaders, ChromeSharedTraces) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const auto& e : fs::directory_iterator(Shared("chrome")))
    EXPECT_GT(ExpectPlacedAsInMemory({e.path().string()}, kFewSequential), 900u) << e.path();
}

// The fuzz corpus holds a .prv, .pcf and .row in one file, cut at NUL
// bytes (fuzz/README.md): written back apart, named alike.
TEST(StreamedReaders, ParaverCorpus) {
  TempDir dir;
  size_t entities = 0;
  for (const auto& e : fs::directory_iterator(std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/corpus/paraver")) {
    const std::string input = ReadText(e.path().string());
    const std::string base = dir.path() + "/" + e.path().stem().string();
    size_t begin = 0;
    for (const char* extension : {".prv", ".pcf", ".row"}) {
      const size_t end = std::min(input.find('\0', begin), input.size());
      if (begin <= input.size()) WriteText(base + extension, input.substr(begin, end - begin));
      begin = end + 1;
    }
    entities += ExpectPlacedAsInMemory({base + ".prv"}, kSequential);
  }
  EXPECT_GT(entities, 20u);
}

TEST(StreamedReaders, GstreamerCorpus) { EXPECT_GT(ExpectCorpusPlacedAsInMemory("gstreamer"), 50u); }

// pj_dump's CSV (`macroscope dump` of a generated trace, read back) and the
// generic CSV. The fuzz corpus' files start with a byte that picks the
// reader (fuzz/README.md), but for quoted_fields.csv: each is read without
// it and as it is, one of which the readers refuse.
TEST(StreamedReaders, Csv) {
  TempDir dir;
  const std::string dump = dir.path() + "/generated.csv";
  const CommandResult dumped = Macroscope("dump " + Quote(GeneratePaje(dir.path() + "/generated.trace", 2, 3, 2000)));
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  WriteText(dump, dumped.out);
  EXPECT_GT(ExpectPlacedAsInMemory({dump}, kSequential), 1000u);
  // Beyond a tiny budget, the rows and simulator calls in runs on disk
  // (tests/csv/csv_bounded_memory_test.cc: the same trace as in memory).
  formats::ReadOptions tiny;
  tiny.paje.sort_memory = 4096;
  EXPECT_GT(ExpectPlacedAsInMemory({dump}, kSequential, tiny), 1000u);

  size_t entities = 0;
  for (const auto& e : fs::directory_iterator(std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/corpus/csv")) {
    const std::string unpicked = dir.path() + "/" + e.path().filename().string();
    WriteText(unpicked, ReadText(e.path().string()).substr(1));
    entities += ExpectPlacedAsInMemory({unpicked}, kSequential) + ExpectPlacedAsInMemory({e.path()}, kSequential);
  }
  EXPECT_GT(entities, 30u);
}

// trace-cmd .dat files, mapped and raw.
TEST(StreamedReaders, FtraceCorpus) {
  for (bool events_only : {false, true}) {
    formats::ReadOptions options;
    options.events_only = events_only;
    EXPECT_GT(ExpectCorpusPlacedAsInMemory("ftrace", options), 20u) << "events only: " << events_only;
  }
}

// Nsight's records are sorted in a budget (--sort-memory): also tiny, so
// that they go through runs on disk.
formats::ReadOptions TinySortBudget() {
  formats::ReadOptions options;
  options.paje.sort_memory = 4096;
  return options;
}

TEST(StreamedReaders, NsysCorpus) {
  EXPECT_GT(ExpectCorpusPlacedAsInMemory("nsys"), 20u);
  EXPECT_GT(ExpectCorpusPlacedAsInMemory("nsys", TinySortBudget()), 20u);
}

TEST(StreamedReaders, NsysSharedExport) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = Shared("nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
  EXPECT_GT(ExpectPlacedAsInMemory({file}, kFewSequential), 100u);
  EXPECT_GT(ExpectPlacedAsInMemory({file}, kFewSequential, TinySortBudget()), 100u);
}

// The store hands its entities in chunks of its own (65536 entities at
// most), not through the simulator: one streamed read. Stores of `macroscope
// import`: a generated trace of every kind, and 70000 states in one store
// (two chunks); the fuzz corpus' store.
// `trace` imported (`macroscope import`: its reader streams into the store
// writer) into a store beside it.
std::string Imported(const std::string& trace) {
  const std::string store = trace + ".mstore";
  const CommandResult r = Macroscope("import -q -o " + Quote(store) + " " + Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return store;
}

TEST(StreamedReaders, Store) {
  TempDir dir;
  constexpr Reading kOnce[] = {{1, kDefaultInterval}};
  EXPECT_GT(ExpectPlacedAsInMemory({Imported(GeneratePaje(dir.path() + "/kinds.trace", 3, 3, 20000))}, kOnce), 10000u);
  EXPECT_EQ(ExpectPlacedAsInMemory({Imported(GeneratePaje(dir.path() + "/states.trace", 1, 1, 70000, false))}, kOnce),
            70000u);
  EXPECT_GE(ExpectCorpusPlacedAsInMemory("store"), 5u);
}

// A store holds its trace: imported streamed (the entities of a store come
// out of its order, so the store keeps their places), read back streamed,
// it places the entities of the trace read in memory. An OTF2 ring: its
// messages' links end out of order, in chunks whose places jump back.
TEST(StreamedReaders, StoreGivesBackItsTrace) {
  TempDir dir;
  const std::string anchor = mpi::testing::WriteRingArchive(dir.path(), 4, 20000, true, true);
  Trace model;
  formats::ReadTrace({anchor}, {}, model);
  PlacingSink sink;
  formats::ReadOptions streamed;
  streamed.sink = &sink;
  Trace trace;
  formats::ReadTrace({Imported(anchor)}, streamed, trace);
  ExpectPlacedAs(model, sink);
}

}  // namespace
}  // namespace macroscope::testing
