// Chrome times are exact (docs/time.md): "ts" and "dur" are read from the
// number's text as whole nanoseconds from the first time, never through a
// double of microseconds; a time the model cannot hold exactly (2^53 ns or
// more from the first, beyond 64 bits, below the nanosecond, not a number)
// is never accepted: the event is skipped and counted, as browsers skip
// unusable events, and text that is not JSON (NaN, Infinity) is refused.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "formats/chrome/chrome_reader.h"
#include "formats/chrome/event_time.h"
#include "model/time_base.h"
#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::ExpectRefused;
using testing::Macroscope;
using testing::ReadText;
using testing::RunCommand;
using testing::Scratch;
using testing::WriteText;

// Nanoseconds of microsecond texts, by Python's decimal arithmetic (exact),
// independently of the reader.
std::vector<int64_t> PythonNanoseconds(const std::vector<std::string>& micros) {
  std::string list;
  for (const std::string& m : micros) list += (list.empty() ? "'" : ", '") + m + "'";
  auto r = RunCommand("python3 -c \"from decimal import Decimal\nfor m in [" + list +
                      "]: print(int(Decimal(m) * 1000))\"");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<int64_t> ns;
  std::istringstream in(r.out);
  for (int64_t v = 0; in >> v;) ns.push_back(v);
  EXPECT_EQ(ns.size(), micros.size()) << r.out;
  return ns;
}

// The exact parser against Python's decimal arithmetic on random JSON
// number texts (fractions, trailing zeros, exponents, beyond 64 bits):
// Python says which are whole ns in an int64_t, and which ns.
TEST(ChromeTimes, ParserAgreesWithPythonDecimal) {
  const std::string dir = Scratch("decimal");
  WriteText(dir + "/cases.py", R"(import random
from decimal import Decimal, getcontext
getcontext().prec = 200
random.seed(3)
for _ in range(3000):
    whole = random.choice([0, 1, random.randint(0, 10**random.randint(1, 22))])
    s = ('-' if random.random() < 0.3 else '') + str(whole)
    if random.random() < 0.6:
        fraction = ''.join(random.choice('0123456789') for _ in range(random.randint(1, 8)))
        s += '.' + fraction + '0' * random.randint(0, 3)
    if random.random() < 0.3:
        s += 'e' + random.choice(['', '+', '-']) + str(random.randint(0, 25))
    v = Decimal(s) * 1000
    if v != v.to_integral_value(): print(s, 'finer')
    elif not -2**63 <= int(v) < 2**63: print(s, 'range')
    else: print(s, int(v))
)");
  auto r = RunCommand("python3 " + dir + "/cases.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  size_t cases = 0;
  for (std::string text, expected; lines >> text >> expected; ++cases) {
    int64_t ns = 0;
    const MicrosText got = ParseMicrosAsNs(text, ns);
    if (expected == "finer") EXPECT_EQ(got, MicrosText::kFinerThanNs) << text;
    else if (expected == "range") EXPECT_EQ(got, MicrosText::kOutOfRange) << text;
    else EXPECT_TRUE(got == MicrosText::kExact && std::to_string(ns) == expected) << text << " -> " << ns;
  }
  EXPECT_EQ(cases, 3000u);
  for (const char* text : {"NaN", "-", "1.", ".5", "1e", "1e+", "0x10", "1.5.2", "--1", "Infinity", ""}) {
    int64_t ns = 0;
    EXPECT_EQ(ParseMicrosAsNs(text, ns), MicrosText::kNotANumber) << text;
  }
}

// Microseconds since 1970 with nanosecond fractions (a double of them steps
// by 0.25 µs), as numbers, as strings and with exponents: every one exact.
TEST(ChromeTimes, MicrosecondsAreExactNanoseconds) {
  const std::vector<std::string> micros = {"1700000000000000.123", "1700000000000000.124", "1700000000000001.5",
                                           "1.700000000000002001e15", "1700000000000003"};
  const std::vector<int64_t> ns = PythonNanoseconds(micros);
  ASSERT_EQ(ns.size(), micros.size());
  std::string text = "[";
  for (size_t i = 0; i < micros.size(); ++i) {
    // Odd ones quoted, as some writers do.
    const std::string ts = i % 2 ? "\"" + micros[i] + "\"" : micros[i];
    text += (i ? ",\n" : "") + std::string("{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"e") + std::to_string(i) +
            "\",\"ts\":" + ts + "}";
  }
  text += ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"x\",\"ts\":" + micros[0] + ",\"dur\":0.001}]";
  Trace trace;
  ReadReport report = ReadChromeText(text, "epoch.json", trace);
  EXPECT_EQ(report.skipped, 0u);
  EXPECT_EQ(report.instants, micros.size());
  const TimeBase& base = trace.time_base();
  EXPECT_TRUE(base.whole_ticks);
  EXPECT_EQ(base.den, 1000000000u);
  EXPECT_EQ(base.origin, ns[0]);  // the first time read
  std::vector<int64_t> read;
  for (const EntityStore& s : trace.stores())
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.kind == TypeKind::kState) {
        EXPECT_EQ(ClockTicks(base, s.start[i]), ns[0]);
        EXPECT_EQ(ClockTicks(base, s.end[i]), ns[0] + 1);  // "dur": 0.001, one ns
      } else {
        read.push_back(ClockTicks(base, s.start[i]));
      }
    }
  EXPECT_EQ(read, ns);
  EXPECT_EQ(ClockTicks(base, trace.start_time()), ns[0]);
  EXPECT_EQ(ClockTicks(base, trace.end_time()), ns.back());

  // dump prints the clock's seconds: the file's microseconds / 10^6, every digit.
  const std::string file = Scratch("epoch") + "/epoch.json";
  WriteText(file, text);
  auto r = Macroscope("dump -l 9 " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Event, Thread 1, Instant, 1700000000.000000123, e0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Event, Thread 1, Instant, 1700000000.000000124, e1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Event, Thread 1, Instant, 1700000000.000002001, e3"), std::string::npos) << r.out;
}

// The times of the user's report, and their kin, each in its own event
// between good ones: `info` reads the good ones and names the others in its
// one warning line; `convert` writes only the good ones.
TEST(ChromeTimes, ImpossibleTimesAreSkippedAndCounted) {
  const std::vector<std::string> bad = {
      R"({"ph":"i","pid":1,"tid":1,"name":"far","ts":1e308})",
      R"({"ph":"i","pid":1,"tid":1,"name":"below int64","ts":-9223372036854775809})",
      R"({"ph":"i","pid":1,"tid":1,"name":"beyond uint64","ts":18446744073709551616})",
      R"({"ph":"i","pid":1,"tid":1,"name":"nan","ts":"NaN"})",
      R"({"ph":"X","pid":1,"tid":1,"name":"huge dur","ts":5,"dur":1e300})",
      R"({"ph":"X","pid":1,"tid":1,"name":"sub-ns dur","ts":5,"dur":0.0004})",
  };
  std::string text = "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"good\",\"ts\":1,\"dur\":10}";
  std::vector<size_t> offsets;
  for (const std::string& event : bad) {
    text += ",\n";
    offsets.push_back(text.size());
    text += event;
  }
  text += ",\n{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"good\",\"ts\":20}]\n";
  const std::string dir = Scratch("impossible");
  const std::string file = dir + "/times.json";
  WriteText(file, text);

  auto r = Macroscope("info --json " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "macroscope: warning: " + file + ": 6 events skipped: 3 with a \"ts\" 2^53 ns or more from the "
                       "first time (bytes " + std::to_string(offsets[0]) + ", " + std::to_string(offsets[1]) + ", " +
                       std::to_string(offsets[2]) + "), 1 with a non-numeric \"ts\", 1 with a \"dur\" of 2^53 ns "
                       "or more, 1 with a \"dur\" finer than a nanosecond\n");
  const auto info = nlohmann::json::parse(r.out);
  EXPECT_EQ(info["totals"]["state"], 1);
  EXPECT_EQ(info["totals"]["event"], 1);

  const std::string out = dir + "/out.json";
  auto c = Macroscope("convert " + file + " -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  // The written events, by Python's json module: only the good ones, 19 µs apart.
  WriteText(dir + "/events.py", R"(import json, sys
events = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] != "M"]
print(sorted(e["name"] for e in events), max(e["ts"] for e in events) - min(e["ts"] for e in events))
)");
  auto p = RunCommand("python3 " + dir + "/events.py " + out);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "['good', 'good'] 19\n");
}

// What is not JSON stays refused with its line and column: JSON has no NaN
// nor Infinity, and a number beyond a double is no time either.
TEST(ChromeTimes, NonJsonNumbersAreRefused) {
  const std::string dir = Scratch("non_json");
  const std::string head = "[{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"good\",\"ts\":1},\n";
  struct Case {
    std::string name, event, message;
  };
  for (const Case& c : std::vector<Case>{
           {"nan.json", R"({"ph":"i","ts":NaN})", "invalid JSON"},
           {"infinity.json", R"({"ph":"i","ts":-Infinity})", "invalid JSON"},
           {"overflow.json", R"({"ph":"i","ts":1e999})", "a number too large for a double"}}) {
    const std::string file = dir + "/" + c.name;
    WriteText(file, head + c.event + "]\n");
    ExpectRefused(file, file + ":2: column ");
    ExpectRefused(file, c.message);
  }
}

}  // namespace
}  // namespace macroscope::chrome
