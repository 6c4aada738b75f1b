// The simulator sharded by container (formats/paje/sharded_simulation.h)
// against the sequential one: every trace the pj_dump comparisons read,
// simulated with 1, 2 and 3 shards, gives the same dump or the same error
// (message and line); so does a generated trace of every entity kind, in
// memory and streamed through a sink.
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "formats/paje/dump_writer.h"
#include "formats/paje/generator.h"
#include "formats/paje/reader.h"
#include "model/entity_sink.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::testing {
namespace {

using paje::ReadOptions;

constexpr int kShardCounts[] = {2, 3};

// The dump of `file` read with `shards` simulating threads, or the error.
std::string DumpWith(const std::string& file, ReadOptions options, int shards) {
  options.simulator.shards = shards;
  Trace trace;
  try {
    paje::ReadPaje({file}, options, trace);
  } catch (const UserError& e) {
    return std::string("error: ") + e.what();
  }
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  paje::DumpOptions dump;
  dump.user_fields = true;
  paje::WriteDump(trace, dump, out);
  std::fclose(out);
  std::string result(text, size);
  std::free(text);
  return result;
}

// Whatever `shards` changes is a difference: the dumps are compared as
// texts, in the order of the merged trace's stores.
void ExpectSameAcrossShards(const std::string& file, const ReadOptions& options) {
  const std::string expected = DumpWith(file, options, 1);
  for (int shards : kShardCounts) {
    SCOPED_TRACE(file + " with " + std::to_string(shards) + " shards");
    EXPECT_EQ(DumpWith(file, options, shards), expected);
  }
}

std::vector<std::string> TracesIn(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".trace") files.push_back(entry.path().string());
  return files;
}

// The traces tests/paje/CMakeLists.txt compares with pj_dump: pajeng's
// examples, the edge cases and the bad inputs.
std::vector<std::string> ComparedTraces() {
  CommandResult listed = RunCommand("dpkg -L pajeng | grep '/examples/traces/.*\\.trace$'");
  std::vector<std::string> files = SortedLines(listed.out);
  std::erase(files, "");
  EXPECT_FALSE(files.empty()) << "dpkg -L pajeng lists no example trace";
  for (const char* folder : {"/tests/paje/traces", "/tests/paje/bad"})
    for (std::string& f : TracesIn(std::string(MACROSCOPE_SOURCE_DIR) + folder)) files.push_back(f);
  return files;
}

TEST(ShardedSimulationTest, ComparedTracesDumpAlikeWithAnyShardCount) {
  for (const std::string& file : ComparedTraces()) {
    ReadOptions plain, interrupting, old_names;
    interrupting.simulator.no_imbrication = true;  // pj_dump -i
    old_names.no_strict = true;                    // pj_dump -n
    ExpectSameAcrossShards(file, plain);
    ExpectSameAcrossShards(file, interrupting);
    ExpectSameAcrossShards(file, old_names);
  }
}

// The event definitions of the generator's traces (generator.h), for the
// hand-written traces below, with a node and process container type, a
// state type and a link type.
std::string Header() {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  paje::GeneratorOptions g;
  g.events = 0;
  paje::GeneratePaje(g, out);
  std::fclose(out);
  std::string header(text, size);
  std::free(text);
  const std::string end = "%EndEventDef\n";
  header.resize(header.rfind(end) + end.size());
  return header + "0 N 0 Node\n0 P N Proc\n1 S P State\n4 L N P P Comm\n";
}

// Containers n and p0..p7 (p-k in n), enough for every shard to hold some.
std::string Containers() {
  std::string text = "6 0 n N 0 n\n";
  for (int k = 0; k < 8; ++k) text += "6 0 p" + std::to_string(k) + " P n p" + std::to_string(k) + "\n";
  return text;
}

std::string ErrorWith(const std::string& path, int shards) {
  std::string dump = DumpWith(path, ReadOptions{}, shards);
  EXPECT_EQ(dump.rfind("error: ", 0), 0u) << dump.substr(0, 200);
  return dump;
}

TEST(ShardedSimulationTest, FirstErrorInInputOrderWins) {
  TempDir dir;
  const std::string path = dir.path() + "/errors.trace";
  // Every process container goes wrong, one line after the other: a pop
  // of an empty stack first, then time going backwards.
  std::string text = Header() + Containers();
  for (int k = 0; k < 8; ++k) text += "11 5 p" + std::to_string(k) + " S run\n";
  for (int k = 7; k >= 0; --k) text += "12 1 p" + std::to_string(k) + " S\n";
  WriteText(path, text);
  const std::string expected = ErrorWith(path, 1);
  EXPECT_NE(expected.find("errors.trace:"), std::string::npos) << expected;
  EXPECT_NE(expected.find("time goes backwards"), std::string::npos) << expected;
  for (int shards : kShardCounts) EXPECT_EQ(ErrorWith(path, shards), expected) << shards << " shards";

  // The same after a pop of an empty stack in one of them, earlier.
  text = Header() + Containers() + "11 1 p5 S run\n12 2 p5 S\n12 2 p5 S\n";
  for (int k = 0; k < 8; ++k) text += "11 1 p" + std::to_string(k) + " S run\n";
  WriteText(path, text);
  EXPECT_NE(ErrorWith(path, 1).find("whose stack is empty"), std::string::npos);
  for (int shards : kShardCounts) EXPECT_EQ(ErrorWith(path, shards), ErrorWith(path, 1)) << shards << " shards";
}

TEST(ShardedSimulationTest, IncompleteLinksOfSeveralShardsAsSequential) {
  TempDir dir;
  const std::string path = dir.path() + "/links.trace";
  // Links are held by the node containers: one node per process, each
  // with a link that never ends, destroyed together with their parent.
  std::string text = Header();
  text += "0 R 0 Rack\n0 M R Node2\n0 Q M Proc2\n4 K M Q Q Comm2\n6 0 r R 0 r\n";
  for (int k = 0; k < 8; ++k) {
    const std::string m = "m" + std::to_string(k), q = "q" + std::to_string(k);
    text += "6 0 " + m + " M r " + m + "\n6 0 " + q + " Q " + m + " " + q + "\n";
  }
  for (int k = 0; k < 8; ++k) text += "15 1 m" + std::to_string(k) + " K q" + std::to_string(k) + " msg k\n";
  WriteText(path, text + "7 2 R r\n");
  const std::string expected = ErrorWith(path, 1);
  EXPECT_NE(expected.find("incomplete link"), std::string::npos) << expected;
  for (int shards : kShardCounts) EXPECT_EQ(ErrorWith(path, shards), expected) << shards << " shards";
  // At the end of the trace (the root's destruction).
  WriteText(path, text);
  EXPECT_NE(ErrorWith(path, 1).find("end of trace: "), std::string::npos);
  for (int shards : kShardCounts) EXPECT_EQ(ErrorWith(path, shards), ErrorWith(path, 1)) << shards << " shards";
}

std::string GenerateMixed(const std::string& path) {
  paje::GeneratorOptions g;
  g.depth = 3;
  g.arity = 4;
  g.events = 60000;
  g.seed = 5;
  g.nested = g.punctual = g.links = g.variables = true;
  return paje::GeneratePajeFile(g, path);
}

TEST(ShardedSimulationTest, GeneratedMixedTraceAlike) {
  TempDir dir;
  const std::string path = GenerateMixed(dir.path() + "/mixed.trace");
  ExpectSameAcrossShards(path, ReadOptions{});
  ReadOptions interrupting;
  interrupting.simulator.no_imbrication = true;
  ExpectSameAcrossShards(path, interrupting);
}

// Every entity handed over, per store in the order it came (the order
// across stores depends on the threads' timing).
class Collector : public EntitySink {
 public:
  void Completed(const Trace& trace, const EntityChunk& c) override {
    std::vector<std::string>& lines = by_store_[{c.container, c.type}];
    for (size_t i = 0; i < c.size(); ++i) {
      std::string line = std::string(trace.Str(c.container_name)) + " " + std::string(trace.Str(c.type_name)) + " " +
                         std::to_string(c.start[i]) + " " + std::to_string(c.End(i));
      if (!c.value.empty()) line += " " + std::string(trace.Str(c.value[i]));
      if (!c.number.empty()) line += " " + std::to_string(c.number[i]);
      if (!c.level.empty()) line += " " + std::to_string(c.level[i]);
      if (!c.key.empty()) line += " " + std::string(trace.Str(c.key[i]));
      c.ForEachField(i, [&](const ExtraField& f) { line += " " + std::string(trace.Str(f.value)); });
      lines.push_back(line);
    }
  }
  const std::map<std::pair<ContainerId, TypeId>, std::vector<std::string>>& by_store() const { return by_store_; }

 private:
  std::map<std::pair<ContainerId, TypeId>, std::vector<std::string>> by_store_;
};

TEST(ShardedSimulationTest, GeneratedMixedTraceStreamsAlike) {
  TempDir dir;
  const std::string path = GenerateMixed(dir.path() + "/mixed.trace");
  auto stream = [&](int shards) {
    Collector collector;
    ReadOptions options;
    options.simulator.sink = &collector;
    options.simulator.drain_interval = 997;
    options.simulator.shards = shards;
    Trace trace;
    paje::ReadPaje({path}, options, trace);
    for (const EntityStore& s : trace.stores()) EXPECT_EQ(s.size(), 0u) << "a store kept entities";
    return collector.by_store();
  };
  const auto expected = stream(1);
  EXPECT_GT(expected.size(), 64u);
  for (int shards : kShardCounts) EXPECT_EQ(stream(shards), expected) << shards << " shards";
}

// Time going back is judged against each store's last entity, also once
// that entity was handed over to a sink and while the states kept open
// below it end later: random traces of states (set, push, pop, reset),
// events, variables and links whose times sometimes go back are refused
// at the same line with the same message, or read alike, in memory and
// streamed with a drain after every entity, on 1 and 2 shards, with and
// without pj_dump -i.
TEST(ShardedSimulationTest, RandomTimeOrdersAreJudgedAlikeStreamed) {
  TempDir dir;
  const std::string path = dir.path() + "/random.trace";
  std::mt19937_64 rng(17);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  int refused = 0, read = 0;
  for (int round = 0; round < 400; ++round) {
    std::string text = Header() + "2 E P Event\n3 V P Var \"0 0 1\"\n" + Containers();
    int time = 10;
    int pushed[2] = {0, 0};  // pops only of what was pushed: the errors are of time
    int key = 0;
    for (int line = 0; line < 30; ++line) {
      time += pick(16) == 0 ? -1 - pick(3) : pick(3);  // now and then back a little
      const int k = pick(2);
      const std::string t = std::to_string(time), p = " p" + std::to_string(k), v = " v" + std::to_string(pick(3));
      switch (pick(8)) {
        case 0: text += "10 " + t + p + " S" + v + "\n", pushed[k] = 1; break;
        case 1: case 2: text += "11 " + t + p + " S" + v + "\n", ++pushed[k]; break;
        case 3: case 4:
          if (pushed[k] > 0) text += "12 " + t + p + " S\n", --pushed[k];
          break;
        case 5: text += "13 " + t + p + " E tick\n"; break;
        case 6: text += "14 " + t + p + " V " + std::to_string(pick(9)) + "\n"; break;
        default:  // a link's start, then its end (either may come first), each key once
          text += (pick(2) ? "15 " : "16 ") + t + " n L" + p + " m k" + std::to_string(key / 2) + "\n", ++key;
      }
    }
    WriteText(path, text);
    for (bool interrupting : {false, true}) {
      ReadOptions options;
      options.simulator.no_imbrication = interrupting;
      options.simulator.ignore_incomplete_links = true;
      const std::string in_memory = DumpWith(path, options, 1);
      const bool failed = in_memory.rfind("error: ", 0) == 0;
      (failed ? refused : read) += 1;
      for (int shards : {1, 2}) {
        Collector collector;
        ReadOptions streamed = options;
        streamed.simulator.sink = &collector;
        streamed.simulator.drain_interval = 1;
        streamed.simulator.shards = shards;
        Trace trace;
        std::string got = "read";
        try {
          paje::ReadPaje({path}, streamed, trace);
        } catch (const UserError& e) {
          got = std::string("error: ") + e.what();
        }
        ASSERT_EQ(got, failed ? in_memory : "read") << text << "-i: " << interrupting << ", shards: " << shards;
      }
    }
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(read, 100);
}

}  // namespace
}  // namespace macroscope::testing
