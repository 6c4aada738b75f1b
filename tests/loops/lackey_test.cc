// `macroscope loops --from-lackey`: the data addresses of real programs
// traced by valgrind's lackey. The fixture (record_lackey_traces.sh)
// compiles four kernels (tests/loops/kernels) and records them; each
// kernel's accesses must be regenerated exactly, counted as an independent
// awk pass over the trace counts them, and its nests named after its
// arrays. Bad input: malformed lines, unknown functions, filters that keep
// nothing, programs that are not ELF.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/lackey_trace.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::loops {
namespace {

using ::macroscope::testing::CommandResult;
using ::macroscope::testing::Quote;
using ::macroscope::testing::TempDir;
using ::macroscope::testing::WriteText;

const std::string kTraces = LACKEY_TRACES;

// Skips the test, with the fixture's reason, when it could not record.
#define NEEDS_LACKEY_TRACES()                                                          \
  if (std::filesystem::exists(kTraces + "/skipped"))                                   \
  GTEST_SKIP() << "no lackey traces: " << ::macroscope::testing::ReadText(kTraces + "/skipped")

// `macroscope ARGS` run from `dir`.
CommandResult MacroscopeIn(const std::string& dir, const std::string& args) {
  return ::macroscope::testing::RunCommand("cd " + Quote(dir) + " && " + MACROSCOPE_BINARY + " " + args);
}

// `macroscope ARGS` run from `dir` exits 1 with `message`.
void ExpectRefused(const std::string& dir, const std::string& args, const std::string& message) {
  const CommandResult r = MacroscopeIn(dir, args);
  EXPECT_EQ(r.exit_code, 1) << args;
  EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
}

struct Kernel {
  std::string name;                 // the program and its kernel function
  uint64_t load_bias;               // where valgrind maps it: PIE or not (record_lackey_traces.sh)
  std::vector<std::string> arrays;  // what its nests must name
};

void PrintTo(const Kernel& k, std::ostream* out) { *out << k.name; }

const std::vector<Kernel>& Kernels() {
  static const std::vector<Kernel> kernels = {
      {"fir2dim", 0, {"image", "coefficients", "output"}},
      {"matmul", 0x108000, {"A", "B", "C"}},
      {"trisolve", 0, {"L", "b", "x"}},
      {"stencil", 0x108000, {"grid", "next"}},
  };
  return kernels;
}

// The data accesses of the function's instructions, counted apart from
// macroscope: nm gives the function's address and size, awk compares the
// trace's instruction addresses with it as zero-padded hex strings.
int64_t IndependentCount(const Kernel& k) {
  const std::string program = Quote(kTraces + "/" + k.name), trace = Quote(kTraces + "/" + k.name + ".lackey");
  const std::string script =
      "set -- $(nm -S --defined-only " + program + " | awk '$4 == \"" + k.name + "\" { print $1, $2 }')\n" +
      "lo=$(printf '%016x' $((0x$1 + " + std::to_string(k.load_bias) + ")))\n" +
      "hi=$(printf '%016x' $((0x$1 + 0x$2 + " + std::to_string(k.load_bias) + ")))\n" +
      "awk -v lo=\"x$lo\" -v hi=\"x$hi\" '\n"
      "  /^I/ { split($2, f, \",\"); a = f[1]; while (length(a) < 16) a = \"0\" a; a = \"x\" a\n"
      "         inside = a >= lo && a < hi; next }\n"
      "  /^ [LSM] / { if (inside) n++ }\n"
      "  END { print n + 0 }' " + trace;
  const CommandResult r = ::macroscope::testing::RunCommand(script);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return std::stoll(r.out);
}

// "verify: ok, N values regenerated exactly" -> N; -1 without it.
int64_t VerifiedValues(const std::string& err) {
  const std::string prefix = "verify: ok, ";
  const size_t at = err.find(prefix);
  return at == std::string::npos ? -1 : std::stoll(err.substr(at + prefix.size()));
}

class LackeyKernel : public ::testing::TestWithParam<Kernel> {};

TEST_P(LackeyKernel, RegeneratedExactlyAndNamed) {
  NEEDS_LACKEY_TRACES();
  const Kernel& k = GetParam();
  // From the trace's folder: the program of its Command: line (./KERNEL) is the default --binary.
  const CommandResult r = MacroscopeIn(kTraces, "loops --from-lackey " + k.name + ".lackey --function " + k.name +
                                                    " --verify");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const int64_t values = VerifiedValues(r.err);
  EXPECT_GT(values, 0) << r.err;
  EXPECT_EQ(values, IndependentCount(k)) << r.out;
  EXPECT_NE(r.out.find("load bias " + Hex(k.load_bias)), std::string::npos) << r.out;
  const size_t nests = r.out.find("\nnests:\n");
  ASSERT_NE(nests, std::string::npos) << r.out;
  const std::string section = r.out.substr(nests);
  for (const std::string& array : k.arrays) {
    EXPECT_NE(section.find(" " + array + " ("), std::string::npos) << array << " unnamed in\n" << section;
  }
  EXPECT_NE(section.find("(depth "), std::string::npos) << section;
  // The model size, for the record (docs/loops.md quotes it).
  const size_t size = r.out.find("model size: ");
  ASSERT_NE(size, std::string::npos);
  std::cout << k.name << ": " << r.out.substr(size, r.out.find('\n', size) - size) << "\n";
}

INSTANTIATE_TEST_SUITE_P(Kernels, LackeyKernel, ::testing::ValuesIn(Kernels()),
                         [](const ::testing::TestParamInfo<Kernel>& info) { return info.param.name; });

TEST(LackeyTraces, FiltersOnTheRecordedTrace) {
  NEEDS_LACKEY_TRACES();
  const std::string trace = Quote(kTraces + "/matmul.lackey"), program = Quote(kTraces + "/matmul");
  const auto count = [&](const std::string& extra) {
    const CommandResult r = ::macroscope::testing::Macroscope("loops --from-lackey " + trace + " --binary " + program +
                                                              " --function matmul --verify " + extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return VerifiedValues(r.err);
  };
  // An array's range (hex, B excluded) from the program's symbols, at valgrind's address.
  const auto array = [&](const std::string& name) {
    const CommandResult nm =
        ::macroscope::testing::RunCommand("nm -S " + program + " | awk '$4 == \"" + name + "\" { print $1, $2 }'");
    EXPECT_EQ(nm.exit_code, 0);
    const uint64_t start = std::stoull(nm.out.substr(0, nm.out.find(' ')), nullptr, 16) + 0x108000;
    const uint64_t size = std::stoull(nm.out.substr(nm.out.find(' ') + 1), nullptr, 16);
    return " --range " + Hex(start) + "-" + Hex(start + size);
  };
  // Loads and stores of the function add up to all of its accesses (the
  // sum stays in a register: no modify).
  EXPECT_EQ(count("--access loads") + count("--access stores"), count(""));
  EXPECT_EQ(count("--access loads" + array("A")), 12 * 12 * 12);  // A[i][k] for every i, j, k
  EXPECT_EQ(count("--access stores" + array("C")), 12 * 12);      // C[i][j], once each
  EXPECT_EQ(count(array("B")), 12 * 12 * 12);
  // JSON names the source and the filter.
  const CommandResult json = ::macroscope::testing::Macroscope("loops --from-lackey " + trace + " --binary " + program +
                                                               " --function matmul --emit json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"source\":\"lackey\""), std::string::npos) << json.out.substr(0, 200);
  EXPECT_NE(json.out.find("\"function\":\"matmul\""), std::string::npos);
}

TEST(LackeyTraces, UnknownFunctionListsCloseNames) {
  NEEDS_LACKEY_TRACES();
  const std::string args = "loops --from-lackey matmul.lackey --function matmult";
  ExpectRefused(kTraces, args, "./matmul: no function 'matmult' among its ");  // the count is the compiler's
  ExpectRefused(kTraces, args, " functions; close names: matmul");
}

TEST(LackeyTraces, FunctionNeverTracedKeepsNothing) {
  NEEDS_LACKEY_TRACES();
  // matmul's program has the function, but trisolve's run never ran an instruction at its addresses.
  const std::string args = "loops --from-lackey trisolve.lackey --binary matmul --function matmul";
  ExpectRefused(kTraces, args, "trisolve.lackey: no access kept: none of the ");
  ExpectRefused(kTraces, args, " data accesses is by the instructions of function 'matmul' in matmul [0x");
}

// A hand-written trace in lackey's form.
constexpr const char* kSmallTrace =
    "==7== Lackey, an example Valgrind tool\n"
    "==7== Command: ./not-here --size 3\n"
    "==7== \n"
    "I  00109139,4\n"
    " L 0010c440,8\n"
    " S 1fff000608,8\n"
    "I  0010913d,3\n"
    " M 0010c448,4\n"
    "I  00109140,2\n"
    " L 0010c450,8\n"
    "==7== \n"
    "==7== Counted 3 calls to main()\n";

class LackeyInput : public ::testing::Test {
 protected:
  std::string Trace(const std::string& text) {
    const std::string path = dir_.path() + "/trace.lackey";
    WriteText(path, text);
    return path;
  }
  CommandResult Loops(const std::string& text, const std::string& extra) {
    return MacroscopeIn(dir_.path(), "loops --from-lackey " + Quote(Trace(text)) + " --verify " + extra);
  }
  // `macroscope ARGS`, run in the scratch folder, exits 1 with `message`.
  void Refused(const std::string& args, const std::string& message) { ExpectRefused(dir_.path(), args, message); }
  // The same for the lackey trace `text` read with options `extra`.
  void TraceRefused(const std::string& text, const std::string& extra, const std::string& message) {
    Refused("loops --from-lackey " + Quote(Trace(text)) + " " + extra, message);
  }
  TempDir dir_;
};

TEST_F(LackeyInput, ParsesKindsAndCounts) {
  LackeyFilter all;
  const LackeyAccesses read = ReadLackey(kSmallTrace, "t", all);
  EXPECT_EQ(read.addresses, (std::vector<int64_t>{0x10c440, 0x1fff000608, 0x10c448, 0x10c450}));
  EXPECT_EQ(read.loads, 2);
  EXPECT_EQ(read.stores, 1);
  EXPECT_EQ(read.modifies, 1);
  EXPECT_EQ(read.accesses, 4);
  EXPECT_EQ(read.first_address, 0x10c440u);
  EXPECT_EQ(LackeyCommand(kSmallTrace), "./not-here --size 3");

  LackeyFilter some;
  some.instructions = {{0x10913d, 0x109142}};
  some.instructions_text = "instructions in test";
  some.access = AccessFilter::kStores;  // a modify stores too
  EXPECT_EQ(ReadLackey(kSmallTrace, "t", some).addresses, (std::vector<int64_t>{0x10c448}));
  some.access = AccessFilter::kLoads;
  EXPECT_EQ(ReadLackey(kSmallTrace, "t", some).addresses, (std::vector<int64_t>{0x10c448, 0x10c450}));
}

TEST_F(LackeyInput, RangesAndHex) {
  EXPECT_EQ(ParseHex("0x1F"), 31u);
  EXPECT_EQ(ParseHex("1f"), 31u);
  EXPECT_FALSE(ParseHex("0x"));
  EXPECT_FALSE(ParseHex("-1"));
  EXPECT_FALSE(ParseHex("1g"));
  EXPECT_FALSE(ParseHex("10000000000000000"));  // 2^64
  const auto range = ParseAddressRange("0x10-20");
  ASSERT_TRUE(range);
  EXPECT_TRUE(range->Contains(0x10));
  EXPECT_TRUE(range->Contains(0x1f));
  EXPECT_FALSE(range->Contains(0x20));  // the end is excluded
  EXPECT_FALSE(ParseAddressRange("20-10"));
  EXPECT_FALSE(ParseAddressRange("10"));
}

TEST_F(LackeyInput, OptionsFilterTheSeries) {
  const auto values = [&](const std::string& extra) {
    const CommandResult r = Loops(kSmallTrace, extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return VerifiedValues(r.err);
  };
  EXPECT_EQ(values(""), 4);
  EXPECT_EQ(values("--access loads"), 3);
  EXPECT_EQ(values("--access stores"), 2);
  EXPECT_EQ(values("--range 10c440-0x10c450"), 2);
  // No program (./not-here is no file): the report says so and has no nests section.
  const CommandResult r = Loops(kSmallTrace, "");
  EXPECT_NE(r.out.find("program: none (the traced program './not-here' (Command: line) is not a file here"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("nests:"), std::string::npos);
}

TEST_F(LackeyInput, MalformedLineNamesFileAndLine) {
  std::string text = kSmallTrace;
  text.insert(text.find("I  00109140"), "the program's own output\n");
  TraceRefused(text, "", "trace.lackey:9: not a lackey line (expected 'I  ADDRESS,SIZE', ' L|S|M ADDRESS,SIZE' "
                         "or '==PID== ...'): 'the program's own output'");
  TraceRefused("I  00109139,4\n L 0x10c440,8\n", "",
               "trace.lackey:2: data access line: address '0x10c440' is not a 64-bit hexadecimal number");
  TraceRefused("I  00109139\n", "", "trace.lackey:1: instruction line: expected ADDRESS,SIZE");
  TraceRefused("I  00109139,4\n S 10,0\n", "",
               "trace.lackey:2: data access line: size '0' is not a positive decimal number");
}

TEST_F(LackeyInput, FilterKeepingNothingSaysWhich) {
  TraceRefused(kSmallTrace, "--range 0-10",
               "no access kept: none of the 4 data accesses is in the data range [0x0, 0x10) of --range");
  const std::string one_load = std::string(kSmallTrace).substr(0, std::string(kSmallTrace).find(" S "));
  TraceRefused(one_load, "--access stores", "no access kept: none of the 1 data accesses is a store (--access stores)");
  TraceRefused("==7== Command: ./x\n", "", "the trace has no data access (was it recorded with --trace-mem=yes?)");
}

TEST_F(LackeyInput, ProgramsThatAreNotUsable) {
  WriteText(dir_.path() + "/notes.txt", "not a program\n");
  TraceRefused(kSmallTrace, "--binary notes.txt", "notes.txt: not an ELF executable");
  TraceRefused(kSmallTrace, "--binary absent", "absent: cannot open the program");
  TraceRefused(kSmallTrace, "--function main",
               "--function needs the traced program's symbols: the traced program './not-here'");
}

TEST_F(LackeyInput, OptionsInTheWrongCombination) {
  const std::string trace = Quote(Trace(kSmallTrace));
  Refused("loops " + trace + " --from-lackey " + trace, "give one of FILE, --from TRACE or --from-lackey FILE");
  Refused("loops --from x.paje --container c --type t --from-lackey " + trace, "give one of FILE");
  Refused("loops " + trace + " --function main", "--function needs --from-lackey FILE");
  Refused("loops " + trace + " --binary prog", "--binary needs --from-lackey FILE");
  Refused("loops " + trace + " --range 1-2", "--range needs --from-lackey FILE");
  Refused("loops " + trace + " --access loads", "--access needs --from-lackey FILE");
  TraceRefused(kSmallTrace, "--access reads", "--access must be all, loads or stores");
  TraceRefused(kSmallTrace, "--range 20-10", "--range must be A-B");
  TraceRefused(kSmallTrace, "--container c", "--container needs --from TRACE");
}

}  // namespace
}  // namespace macroscope::loops
