// `macroscope convert … -o X.prv` and back: the suite's Paraver trace keeps
// its dump to the byte through the writer, the files written are Paraver's
// (header, .pcf sections, .row levels), and a generated Pajé trace keeps
// its states, events and links.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "paraver_suite_trace.h"
#include "test_support.h"

namespace macroscope::paraver {
namespace {

using macroscope::testing::Macroscope;
using macroscope::testing::ReadText;
using macroscope::testing::TempDir;

std::string Dump(const std::string& file) {
  auto r = Macroscope("dump -u " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

nlohmann::json Totals(const std::string& file) {
  auto r = Macroscope("info --json " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out)["totals"];
}

TEST(ParaverRoundTrip, SuiteTraceKeepsItsDump) {
  for (bool bare : {false, true}) {
    TempDir dir;
    const std::string in = testing::WriteSuiteTrace(dir.path(), bare);
    const std::string out = dir.path() + "/again.prv", third = dir.path() + "/third.prv";
    const std::string before = Dump(in);
    EXPECT_EQ(before.find("Running") == std::string::npos, bare) << before;
    auto r = Macroscope("convert " + in + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty() && r.err.empty()) << r.out << r.err;
    EXPECT_EQ(Dump(out), before) << "bare: " << bare;
    // Written again from the re-read trace: the same three files.
    ASSERT_EQ(Macroscope("convert " + out + " -o " + third).exit_code, 0);
    for (const char* ext : {".prv", ".pcf", ".row"})
      EXPECT_EQ(ReadText(dir.path() + "/again" + ext), ReadText(dir.path() + "/third" + ext)) << ext;
  }
}

TEST(ParaverRoundTrip, WrittenFilesAreParaversOwn) {
  TempDir dir;
  const std::string in = testing::WriteSuiteTrace(dir.path());
  const std::string out = dir.path() + "/out.prv";
  ASSERT_EQ(Macroscope("convert " + in + " -o " + out).exit_code, 0);
  const std::string prv = ReadText(out), pcf = ReadText(dir.path() + "/out.pcf");
  const std::string row = ReadText(dir.path() + "/out.row");
  // The header keeps the unit, the duration, the structure and the communicator.
  EXPECT_EQ(prv.substr(0, prv.find('\n')), "#Paraver (24/11/26 at 10:00):2000_ns:1(3):1:2(2:1,1:1),1");
  EXPECT_NE(prv.find("\nc:1:1:2:1:2\n"), std::string::npos) << prv;
  // The communication with its four times, size and tag.
  EXPECT_NE(prv.find(":300:310:3:1:2:1:320:330:1024:5\n"), std::string::npos) << prv;
  // Numbers kept from the .pcf, names and colours in the written .pcf.
  EXPECT_NE(prv.find(":150:50000001:3\n"), std::string::npos) << prv;
  EXPECT_NE(pcf.find("STATES\n0    Idle\n1    Running\n2    Waiting a message\n"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("1    {0,0,255}\n"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("EVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n0    Outside MPI\n3    MPI_Isend\n"),
            std::string::npos)
      << pcf;
  EXPECT_NE(row.find("LEVEL THREAD SIZE 3\nTHREAD 1.1.1 main\nTHREAD 1.1.2 helper\nTHREAD 1.2.1 main\n"),
            std::string::npos)
      << row;
}

// Generates DIR/gen.trace with `options` and converts it to DIR/gen.prv;
// returns what convert printed on stderr.
std::string ConvertGenerated(const TempDir& dir, const std::string& options) {
  const std::string paje = dir.path() + "/gen.trace";
  EXPECT_EQ(Macroscope("generate " + options + " -o " + paje).exit_code, 0);
  auto r = Macroscope("convert " + paje + " -o " + dir.path() + "/gen.prv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.err;
}

TEST(ParaverRoundTrip, GeneratedPajeKeepsItsCounts) {
  TempDir dir;
  const std::string paje = dir.path() + "/gen.trace", prv = dir.path() + "/gen.prv";
  EXPECT_EQ(ConvertGenerated(dir, "--depth 2 --arity 3 --events 5000 --nested --punctual --links"), "");
  auto before = Totals(paje), after = Totals(prv);
  for (const char* kind : {"state", "event", "link"}) EXPECT_EQ(before[kind], after[kind]) << kind;
  EXPECT_GT(before["state"].get<int>(), 0);
  EXPECT_GT(before["event"].get<int>(), 0);
  EXPECT_GT(before["link"].get<int>(), 0);
}

TEST(ParaverRoundTrip, VariablesAreCountedNotWritten) {
  TempDir dir;
  const std::string err = ConvertGenerated(dir, "--depth 1 --arity 2 --events 100 --variables");
  EXPECT_NE(err.find("variable value(s) left out: Paraver has no variables"), std::string::npos) << err;
  EXPECT_EQ(Totals(dir.path() + "/gen.prv")["variable"], 0);
}

TEST(ParaverRoundTrip, OutputFormatFromExtensionOrTo) {
  TempDir dir;
  const std::string in = testing::WriteSuiteTrace(dir.path());
  ASSERT_EQ(Macroscope("convert " + in + " --to paraver -o " + dir.path() + "/named").exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/named.pcf"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/named.row"));
  auto r = Macroscope("convert " + in + " --to paraver -o -");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("three files"), std::string::npos) << r.err;
  auto f = Macroscope("formats");
  EXPECT_NE(f.out.find("paraver"), std::string::npos) << f.out;
}

}  // namespace
}  // namespace macroscope::paraver
