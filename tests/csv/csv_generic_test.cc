// The generic CSV: a table written here with counts known from how it was
// written, read in process (entities per kind and type) and by the CLI;
// times read exactly; and neither CSV reader claims another format's file.
#include <map>
#include <string>

#include "formats/csv/dump_reader.h"
#include "formats/csv/generic_reader.h"
#include "formats/format.h"
#include "test_support.h"

namespace macroscope::csv {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::TempDir;
using testing::WriteText;

// Entities per "KIND TYPE" in a simulated trace.
std::map<std::string, size_t> Counts(const Trace& trace) {
  std::map<std::string, size_t> counts;
  for (const EntityStore& s : trace.stores())
    counts[std::string(TypeKindName(s.kind)) + " " + std::string(trace.Str(trace.type(s.type).name))] += s.size();
  return counts;
}

TEST(GenericCsv, CountsOfAWrittenTable) {
  // cpuN: K back-to-back states, each with one nested state; an event
  // every other state; a load value per state; a message cpuN -> cpuN+1.
  const int kCpus = 4, kStates = 25;
  std::string text = "# written by the test\ncontainer,parent,type,kind,start,end,value,end_container\n";
  std::map<std::string, size_t> expected;
  for (int c = 0; c < kCpus; ++c) {
    const std::string cpu = "cpu" + std::to_string(c);
    for (int i = 0; i < kStates; ++i) {
      const std::string t0 = std::to_string(i) + ".5", t1 = std::to_string(i + 1) + ".5";
      text += cpu + ",node" + std::to_string(c / 2) + ",Activity,state," + t0 + "," + t1 + ",compute,\n";
      text += cpu + ",,Activity,," + std::to_string(i) + ".75," + std::to_string(i) + ".875,inner,\n";
      expected["state Activity"] += 2;
      if (i % 2 == 0) {
        text += cpu + ",,Marker,event," + t0 + ",,tick,\n";
        ++expected["event Marker"];
      }
      text += cpu + ",,Load,," + t0 + ",," + std::to_string(i % 7) + ".25,\n";
      ++expected["variable Load"];
      if (c + 1 < kCpus) {
        text += cpu + ",,Message,," + t0 + "," + std::to_string(i) + ".625,m,cpu" + std::to_string(c + 1) + "\n";
        ++expected["link Message"];
      }
    }
  }
  Trace trace;
  ReadCounts counts = ReadGenericCsvText(text, "table.csv", trace, {});
  EXPECT_EQ(counts.lines, static_cast<uint64_t>(kCpus * kStates * 3 + kCpus * (kStates + 1) / 2 + (kCpus - 1) * kStates));
  EXPECT_EQ(Counts(trace), expected);
  EXPECT_EQ(trace.time_base().den, 1000u);  // the finest decimal used: 0.875 s
  EXPECT_EQ(trace.end_time(), 25000.0);     // 0.5 .. 25.5 s: ms from the earliest time
  // Two levels of containers: nodes, then cpus under them.
  size_t nodes = 0, cpus = 0;
  for (const Container& c : trace.containers()) {
    const std::string type(trace.Str(trace.type(c.type).name));
    nodes += type == "Container";
    cpus += type == "Container 2";
  }
  EXPECT_EQ(nodes, 2u);
  EXPECT_EQ(cpus, static_cast<size_t>(kCpus));
}

TEST(GenericCsv, ExactTimesAndUnits) {
  TempDir dir;
  const std::string csv = dir.path() + "/exact.csv";
  WriteText(csv,
            "container,type,start_ns,end_ns,value\n"
            "t1,Run,1700000000123456789,1700000000123456999,busy\n"
            "t1,Mark,1700000000123456800,,x\n");
  auto dump = Macroscope("dump -l 9 " + Quote(csv));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find("State, t1, Run, 1700000000.123456789, 1700000000.123456999, 0.000000210, 0.000000000, busy"),
            std::string::npos)
      << dump.out;
  EXPECT_NE(dump.out.find("Event, t1, Mark, 1700000000.123456800, x"), std::string::npos) << dump.out;
}

TEST(GenericCsv, SpreadsheetExampleOfTheDocs) {
  TempDir dir;
  const std::string csv = dir.path() + "/sheet.csv";
  WriteText(csv,
            "container,type,kind,start,end,value\r\n"
            "cpu0,Activity,state,0.0,1.5,compute\r\n"
            "cpu0,Activity,state,1.5,2.25,communicate\r\n"
            "cpu1,Activity,state,0.25,2.0,compute\r\n"
            "cpu0,Marker,event,1.0,,checkpoint\r\n"
            "cpu1,Load,variable,0.5,,0.75\r\n");
  auto info = Macroscope("info " + Quote(csv));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto stats = Macroscope("stats " + Quote(csv));
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("communicate"), std::string::npos) << stats.out;
}

TEST(CsvSniffing, OtherFormatsAreNotClaimed) {
  const std::string not_csv[] = {
      "[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"a\"}]\n",          // Chrome JSON
      "{\"traceEvents\":[]}\n",                                                              // Chrome JSON
      "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n",  // Pajé
      "==1234== Lackey, an example Valgrind tool\nI  04000000,3\n S 7ff000,8\n",              // lackey
      "1\n2\n3\n42\n",                                                                       // integers
      "container;type;time\nc;t;1\n",                                                       // not commas
  };
  for (const std::string& head : not_csv) {
    EXPECT_FALSE(LooksLikeDump(head)) << head;
    EXPECT_FALSE(LooksLikeGenericCsv(head)) << head;
  }
  EXPECT_TRUE(LooksLikeDump("Container, 0, 0, 0, 1, 1, 0\n"));
  EXPECT_TRUE(LooksLikeGenericCsv("# c\nContainer, Type, Time_us, Value\n"));
  EXPECT_TRUE(LooksLikeGenericCsv("container,type,value\n"));  // refused later: no time column
}

TEST(CsvSniffing, RegistryDetectsBoth) {
  TempDir dir;
  const std::string dump = dir.path() + "/a.txt", table = dir.path() + "/b.txt";
  WriteText(dump, "Container, 0, 0, 0, 1, 1, 0\n");
  WriteText(table, "container,type,time\nc,t,1\n");
  EXPECT_EQ(formats::Detect(dump).name, "pj_dump");
  EXPECT_EQ(formats::Detect(table).name, "csv");
}

}  // namespace
}  // namespace macroscope::csv
