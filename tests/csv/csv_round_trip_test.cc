// pj_dump's CSV read back: `macroscope dump` of a dump prints the dump
// again, byte for byte, for generated traces with every kind of entity,
// nested states and several container levels, and for pj_dump's own
// output of Debian's example traces (same lines; pj_dump orders the
// containers its own way).
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::ReadText;
using testing::RunCommand;
using testing::SortedLines;
using testing::TempDir;
using testing::WriteText;

// `macroscope dump` of `csv` (a file) must print `csv`'s text again.
void ExpectRedumps(const std::string& csv, const std::string& options = "") {
  auto again = Macroscope("dump " + options + " " + Quote(csv));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, ReadText(csv));
}

TEST(DumpRoundTrip, GeneratedTraces) {
  TempDir dir;
  const std::vector<std::string> shapes{
      "--depth 3 --arity 3 --values 5 --events 3000 --nested --punctual --links --variables",
      "--depth 1 --arity 4 --values 2 --events 500 --nested --seed 7",
      "--depth 2 --arity 2 --values 12 --events 2000 --links --variables --seed 3",
  };
  for (size_t i = 0; i < shapes.size(); ++i) {
    SCOPED_TRACE(shapes[i]);
    const std::string paje = dir.path() + "/g" + std::to_string(i) + ".paje";
    const std::string csv = dir.path() + "/g" + std::to_string(i) + ".csv";
    ASSERT_EQ(Macroscope("generate " + shapes[i] + " -o " + Quote(paje)).exit_code, 0);
    auto dump = Macroscope("dump " + Quote(paje));
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    WriteText(csv, dump.out);
    if (i == 0) {  // every kind of line
      for (const char* kind : {"\nState, ", "\nEvent, ", "\nVariable, ", "\nLink, "})
        EXPECT_NE(dump.out.find(kind), std::string::npos) << kind;
    }
    ExpectRedumps(csv);
    // Read as a trace like any other: the same entities as the Pajé file.
    auto totals = [](const std::string& info) {  // the line; the types' tables list them in reading order
      const size_t at = info.find("totals:");
      return info.substr(at, info.find('\n', at) - at);
    };
    auto a = Macroscope("info " + Quote(paje));
    auto b = Macroscope("info " + Quote(csv));
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(totals(a.out), totals(b.out));
  }
}

// A nested state inside another of the same type (imbrication 1, 2).
TEST(DumpRoundTrip, NestedStatesAndDestroyedContainers) {
  TempDir dir;
  const std::string paje = dir.path() + "/n.paje", csv = dir.path() + "/n.csv";
  auto header = Macroscope("generate --depth 1 --arity 1 --events 1");
  ASSERT_EQ(header.exit_code, 0);
  std::string text = header.out.substr(0, header.out.find("\n0 L1 0"));
  text +=
      "\n0 P 0 \"Process\"\n0 T P \"Thread\"\n1 S T \"State\"\n2 E T \"Event\"\n3 V P \"Memory\" \"1 1 1\"\n"
      "6 0 p1 P 0 \"proc one\"\n6 0 t1 T p1 \"thread one\"\n6 0.5 t2 T p1 \"thread two\"\n"
      "11 1.25 t1 S \"run\"\n11 1.5 t1 S \"io\"\n11 1.75 t1 S \"wait\"\n12 2 t1 S\n12 2.125 t1 S\n"
      "13 2.25 t2 E \"mark\"\n14 2.5 p1 V 3.5\n11 2.75 t2 S \"run\"\n7 3.0625 T t2\n12 4 t1 S\n14 5 p1 V 7\n";
  WriteText(paje, text);
  auto dump = Macroscope("dump " + Quote(paje));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find(", 2.000000, wait"), std::string::npos) << dump.out;
  WriteText(csv, dump.out);
  ExpectRedumps(csv);
}

// pj_dump's own output of Debian's example traces. Not among them: those
// whose types or containers share a name that only their aliases told
// apart (categories, containers, g5k, ms: refused, naming the line), and
// gattaca*, native_sample (a few lines differ; docs/csv.md).
TEST(DumpRoundTrip, PjDumpOutput) {
  const std::string examples = "/usr/share/doc/pajeng/examples/traces/";
  if (RunCommand("test -d " + examples).exit_code != 0) GTEST_SKIP() << "no pajeng example traces (Debian pajeng)";
  TempDir dir;
  for (const std::string name : {"events", "links", "replay_output_shurakai_extract", "simu-mardi", "states", "variables"}) {
    SCOPED_TRACE(name);
    auto peer = RunCommand("pj_dump " + Quote(examples + name + ".trace"));
    ASSERT_EQ(peer.exit_code, 0) << peer.err;
    const std::string csv = dir.path() + "/" + name + ".csv";
    WriteText(csv, peer.out);
    auto again = Macroscope("dump " + Quote(csv));
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(SortedLines(again.out), SortedLines(peer.out));
    // Our own dump of it is a fixed point.
    const std::string ours = dir.path() + "/m_" + name + ".csv";
    WriteText(ours, again.out);
    ExpectRedumps(ours);
  }
}

// Another clock: a dump printed with 9 decimals reads back exactly.
TEST(DumpRoundTrip, ExactClockDecimals) {
  TempDir dir;
  const std::string csv = dir.path() + "/clock.csv";
  WriteText(csv,
            "Container, 0, 0, 1700000000.000000001, 1700000003.000000007, 3.000000006, 0\n"
            "Container, 0, Thread, 1700000000.000000001, 1700000003.000000007, 3.000000006, t1\n"
            "Event, t1, Mark, 1700000001.123456789, hello\n"
            "State, t1, Run, 1700000000.000000001, 1700000002.999999999, 2.999999998, 0.000000000, busy\n"
            "State, t1, Run, 1700000001.000000003, 1700000001.000000004, 0.000000001, 1.000000000, inner\n");
  ExpectRedumps(csv, "-l 9");
}

}  // namespace
}  // namespace macroscope
