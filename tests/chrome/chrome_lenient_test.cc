// Chrome JSON as browsers read it: an unusable event is skipped and counted
// (one warning line with the first reasons and their byte offsets), and
// numbers written as strings are numbers. What is still refused (text that
// is not JSON, no event array) is in chrome_bad_input_test.cc.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "formats/chrome/chrome_reader.h"
#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::Macroscope;
using testing::RunCommand;
using testing::Scratch;
using testing::WriteText;

// A file as a ROCm profiler writes it: "{}" first, then pid, tid, ts and
// dur as strings (ts with a fractional part), and three events no viewer
// can use: an X whose "ts" is not a number, an event of a phase nobody
// defines, and an E without a B. Returns the text; `offsets` gets the byte
// offset of each of the three and of the "{}".
std::string RocmLikeTrace(std::vector<size_t>& offsets) {
  std::string text = "{ \"traceEvents\":[{}\n";
  offsets = {text.find("{}")};
  text += ",{\"args\":{\"name\":\"CPU HIP API\"},\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\"}\n";
  text += ",{\"args\":{\"name\":\"GPU0\"},\"ph\":\"M\",\"pid\":6,\"name\":\"process_name\"}\n";
  uint64_t ts = 1672531200000;
  for (int i = 0; i < 120; ++i, ts += 37) {
    const std::string tid = std::to_string(31000 + i % 3);
    text += ",{\"ph\":\"X\",\"name\":\"hipLaunchKernel\",\"pid\":\"2\",\"tid\":\"" + tid + "\",\"ts\":\"" +
            std::to_string(ts) + "." + std::to_string(i % 10) + "\",\"dur\":\"" + std::to_string(5 + i % 7) +
            "\",\"args\":{\"BeginNs\":\"" + std::to_string(ts * 1000) + "\"}}\n";
    text += ",{\"ph\":\"X\",\"name\":\"kernel " + std::to_string(i % 4) + "\",\"pid\":\"6\",\"tid\":\"0\",\"ts\":\"" +
            std::to_string(ts + 20) + "\",\"dur\":\"11\"}\n";
    if (i % 10 == 0)
      text += ",{\"ph\":\"i\",\"name\":\"marker\",\"pid\":\"2\",\"tid\":\"" + tid + "\",\"ts\":\"" +
              std::to_string(ts + 3) + "\",\"s\":\"t\"}\n";
    if (i == 40) {
      offsets.push_back(text.size() + 1);
      text += ",{\"ph\":\"X\",\"name\":\"broken\",\"pid\":\"2\",\"tid\":\"31000\",\"ts\":\"abc\",\"dur\":\"3\"}\n";
    }
    if (i == 60) {
      offsets.push_back(text.size() + 1);
      text += ",{\"ph\":\"Q\",\"name\":\"new phase\",\"pid\":\"2\",\"tid\":\"31000\",\"ts\":\"" + std::to_string(ts) +
              "\"}\n";
    }
    if (i == 80) {
      offsets.push_back(text.size() + 1);
      text += ",{\"ph\":\"E\",\"pid\":\"2\",\"tid\":\"31002\",\"ts\":\"" + std::to_string(ts) + "\"}\n";
    }
  }
  return text + "]}\n";
}

// Counts made by Python's json module, independently of the reader: X
// events whose ts and dur are numbers or numeric strings (slices), i events
// likewise (instants), and every other event that is neither M nor a
// usable X/i (skipped).
const char* kCounter = R"(import json, math, sys
def number(v):
    if isinstance(v, bool): return False
    if isinstance(v, (int, float)): return True
    try: return math.isfinite(float(v))
    except (TypeError, ValueError): return False
events = json.load(open(sys.argv[1]))["traceEvents"]
slices = instants = skipped = 0
for e in events:
    ph = e.get("ph") if isinstance(e, dict) else None
    if ph == "M": continue
    if ph == "X" and number(e.get("ts")) and number(e.get("dur", 0)): slices += 1
    elif ph == "i" and number(e.get("ts")): instants += 1
    else: skipped += 1
print(slices, instants, skipped)
)";

TEST(ChromeLenient, RocmLikeTraceCountsAgreeWithPython) {
  const std::string dir = Scratch("rocm");
  std::vector<size_t> offsets;
  const std::string file = dir + "/results.json";
  WriteText(file, RocmLikeTrace(offsets));
  WriteText(dir + "/count.py", kCounter);
  auto python = RunCommand("python3 " + dir + "/count.py " + file);
  ASSERT_EQ(python.exit_code, 0) << python.err;
  uint64_t slices = 0, instants = 0, skipped = 0;
  std::istringstream(python.out) >> slices >> instants >> skipped;
  EXPECT_EQ(slices, 240u);
  EXPECT_EQ(skipped, 4u);

  auto r = Macroscope("info --json " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto info = nlohmann::json::parse(r.out);
  EXPECT_EQ(info["totals"]["state"], slices);
  EXPECT_EQ(info["totals"]["event"], instants);
  // One line for all the skipped events: per reason, with the offsets of
  // the first three.
  ASSERT_EQ(offsets.size(), 4u);
  EXPECT_EQ(r.err, "macroscope: warning: " + file + ": 4 events skipped: 1 without a string \"ph\" (byte " +
                       std::to_string(offsets[0]) + "), 1 with a non-numeric \"ts\" (byte " +
                       std::to_string(offsets[1]) + "), 1 of unknown phase \"Q\" (byte " +
                       std::to_string(offsets[2]) + "), 1 E without a matching B\n");

  Trace trace;
  ReadReport report = ReadChrome({file}, trace);
  EXPECT_EQ(report.skipped, skipped);
  EXPECT_EQ(report.slices, slices);
  EXPECT_EQ(report.instants, instants);
  EXPECT_EQ(report.events, slices + instants + skipped + 2);
  // Strings that are not numbers name their container, numbers as strings
  // are the numbers: pid "2" is process 2, named by its metadata.
  std::vector<std::string> processes;
  for (const Container& c : trace.containers())
    if (c.parent == 0) processes.emplace_back(trace.Str(c.name));
  EXPECT_EQ(processes, (std::vector<std::string>{"CPU HIP API", "GPU0"}));
}

// "ts": "1.5" is the same double as "ts": 1.5, exactly (nlohmann's parser
// reads both), and pid/tid "7" are the process/thread 7.
TEST(ChromeLenient, NumbersWrittenAsStringsAreTheNumbers) {
  const std::string as_numbers =
      R"([{"ph":"X","pid":7,"tid":70,"ts":1672531200001.123,"dur":0.1,"name":"a"},
          {"ph":"X","pid":7,"tid":70,"ts":1672531200001.2,"dur":20,"name":"b"},
          {"ph":"C","pid":7,"ts":3.25,"name":"q","args":{"v":1e-3}},
          {"ph":"M","pid":7,"name":"process_sort_index","args":{"sort_index":4}}])";
  std::string as_strings = as_numbers;
  for (const char* field : {"pid", "tid", "ts", "dur", "v", "sort_index"}) {
    const std::string key = std::string("\"") + field + "\":";
    for (size_t at = as_strings.find(key); at != std::string::npos; at = as_strings.find(key, at)) {
      at += key.size();
      const size_t end = as_strings.find_first_of(",}", at);
      as_strings.insert(end, "\"");
      as_strings.insert(at, "\"");
    }
  }
  ASSERT_NE(as_strings.find(R"("ts":"1672531200001.123")"), std::string::npos) << as_strings;
  Trace numbers, strings;
  ReadReport a = ReadChromeText(as_numbers, "numbers.json", numbers);
  ReadReport b = ReadChromeText(as_strings, "strings.json", strings);
  EXPECT_EQ(b.skipped, 0u);
  EXPECT_EQ(b.slices, 2u);
  EXPECT_EQ(b.counter_values, 1u);
  EXPECT_EQ(b.names, 1u);
  EXPECT_EQ(strings.start_time(), numbers.start_time());
  EXPECT_EQ(strings.end_time(), numbers.end_time());
  ASSERT_EQ(strings.stores().size(), numbers.stores().size());
  for (size_t s = 0; s < strings.stores().size(); ++s) {
    EXPECT_EQ(strings.stores()[s].start, numbers.stores()[s].start);
    EXPECT_EQ(strings.stores()[s].end, numbers.stores()[s].end);
    EXPECT_EQ(strings.stores()[s].number, numbers.stores()[s].number);
  }
  EXPECT_EQ(strings.Str(strings.container(1).name), "Process 7");
  EXPECT_EQ(strings.Str(strings.container(2).name), "Thread 70");
  EXPECT_EQ(a.skipped, 0u);
}

TEST(ChromeLenient, TextPidsAndTidsNameTheirContainers) {
  Trace t;
  ReadReport r = ReadChromeText(R"([{"ph":"i","pid":"gpu","tid":"stream 1","ts":1,"name":"a"},
      {"ph":"i","pid":"gpu","tid":"stream 1","ts":2,"name":"b"},
      {"ph":"i","pid":3,"tid":"3","ts":3,"name":"c"}])", "names.json", t);
  EXPECT_EQ(r.instants, 3u);
  std::vector<std::string> names;
  for (const Container& c : t.containers()) names.emplace_back(t.Str(c.name));
  EXPECT_EQ(names, (std::vector<std::string>{"0", "gpu", "stream 1", "Process 3", "Thread 3"}));
}

// Each kind of unusable event, alone between two good ones: skipped with
// its reason, the good ones read.
TEST(ChromeLenient, EveryKindOfUnusableEventIsSkipped) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"(42)", "not a JSON object"},
      {R"("X")", "not a JSON object"},
      {R"([{"ph":"X"}])", "not a JSON object"},
      {R"({})", "without a string \"ph\""},
      {R"({"ph":5,"ts":1})", "without a string \"ph\""},
      {R"({"ph":"Zz","ts":1})", "of unknown phase \"Zz\""},
      {R"({"ph":"X","dur":1})", "without \"ts\""},
      {R"({"ph":"X","ts":"abc"})", "with a non-numeric \"ts\""},
      {R"({"ph":"i","ts":true})", "with a non-numeric \"ts\""},
      {R"({"ph":"i","ts":"1e999"})", "with a non-numeric \"ts\""},
      {R"({"ph":"X","ts":1,"dur":[2]})", "with a non-numeric \"dur\""},
      {R"({"ph":"X","ts":1,"dur":-2})", "with a negative \"dur\""},
      // Times a double of nanoseconds from the first time (0 here) would
      // not hold exactly (docs/time.md).
      {R"({"ph":"X","ts":1e308,"dur":1e308})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":-9223372036854775809})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":18446744073709551616})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":18446744073709551615})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":-9223372036854775})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":9007199254740.992})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":"-9007199254740.992"})", "with a \"ts\" 2^53 ns or more from the first time"},
      {R"({"ph":"i","ts":1.0005})", "with a \"ts\" finer than a nanosecond"},
      {R"({"ph":"i","ts":"2.0000001"})", "with a \"ts\" finer than a nanosecond"},
      {R"({"ph":"i","ts":1e-4})", "with a \"ts\" finer than a nanosecond"},
      {R"({"ph":"i","ts":"NaN"})", "with a non-numeric \"ts\""},
      {R"({"ph":"i","ts":"-Infinity"})", "with a non-numeric \"ts\""},
      {R"({"ph":"i","ts":"nan"})", "with a non-numeric \"ts\""},
      {R"({"ph":"X","ts":1,"dur":1e308})", "with a \"dur\" of 2^53 ns or more"},
      {R"({"ph":"X","ts":1,"dur":"18446744073709551616"})", "with a \"dur\" of 2^53 ns or more"},
      {R"({"ph":"X","ts":1,"dur":9007199254740.991})", "with \"ts\" + \"dur\" 2^53 ns or more from the first time"},
      {R"({"ph":"X","ts":1,"dur":0.0001})", "with a \"dur\" finer than a nanosecond"},
      {R"({"ph":"i","ts":1,"pid":{}})", "with a \"pid\" neither a string nor a number"},
      {R"({"ph":"B","ts":1,"tid":[1]})", "with a \"tid\" neither a string nor a number"},
      {R"({"ph":"X","ts":1,"name":{"a":1}})", "with a \"name\" neither a string nor a number"},
      {R"({"ph":"X","ts":1,"cat":true})", "with a \"cat\" neither a string nor a number"},
      {R"({"ph":"b","ts":1,"id":[]})", "with a \"id\" neither a string nor a number"},
      {R"({"ph":"i","ts":1,"s":{}})", "with a \"s\" neither a string nor a number"},
      {R"({"ph":"s","ts":1,"name":"flow"})", "without \"id\" (flow)"},
      {R"({"ph":"C","ts":1,"name":"c","args":[1]})", "without an \"args\" object (C)"},
      {R"({"ph":"M","name":"thread_name","args":{"name":{}}})", "without a string args.name (thread_name)"},
      {R"({"ph":"M","name":"process_sort_index","args":{"sort_index":"x"}})",
       "without a numeric args.sort_index (process_sort_index)"},
      {R"({"ph":"E","pid":1,"tid":2,"ts":100})", "E without a matching B"},
      {"{\"ph\":\"X\",\"ts\":1,\"args\":" + std::string(1001, '[') + std::string(1001, ']') + "}",
       "nested deeper than 1000 levels"},
  };
  for (const auto& [event, reason] : cases) {
    const std::string text = "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5,\"name\":\"good\"},\n" + event +
                             ",\n{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":9,\"name\":\"good\"}]";
    Trace t;
    ReadReport r = ReadChromeText(text, "case.json", t);
    EXPECT_EQ(r.skipped, 1u) << event;
    EXPECT_EQ(r.Skipped(reason), 1u) << event << " -> " << (r.skip_reasons.empty() ? "" : r.skip_reasons[0].first);
    ASSERT_EQ(r.skip_samples.size(), 1u) << event;
    EXPECT_EQ(r.skip_samples[0].offset, text.find('\n') + 1) << event;
    EXPECT_EQ(r.slices, 1u) << event;
    EXPECT_EQ(r.instants, 1u) << event;
    EXPECT_EQ(t.start_time(), 0) << event;
    EXPECT_EQ(t.end_time(), 9000) << event;  // whole ns
    // A skipped event leaves no container behind (the E's thread aside:
    // it is known before the E is matched, as in chrome://tracing).
    EXPECT_EQ(t.containers().size(), reason == "E without a matching B" ? 4u : 3u) << event;
  }
}

// Distinct reasons beyond ReadReport::kSkipReasons are gathered in one.
TEST(ChromeLenient, ManyReasonsMakeOneBoundedLine) {
  std::string text = "[";
  for (int i = 0; i < 40; ++i) text += (i ? "," : "") + std::string("{\"ph\":\"u") + std::to_string(i) + "\"}";
  text += "]";
  Trace t;
  ReadReport r = ReadChromeText(text, "many.json", t);
  EXPECT_EQ(r.skipped, 40u);
  ASSERT_EQ(r.skip_reasons.size(), ReadReport::kSkipReasons + 1);
  EXPECT_EQ(r.skip_reasons.back(), (std::pair<std::string, uint64_t>{"for other reasons", 40 - ReadReport::kSkipReasons}));
  EXPECT_EQ(r.skip_samples.size(), ReadReport::kSkipSamples);
  const auto w = r.Warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("40 events skipped: 1 of unknown phase \"u0\" (byte 1), 1 of unknown phase \"u1\" (byte 13), ", 0),
            0u) << w[0];
  EXPECT_NE(w[0].find(", 24 for other reasons"), std::string::npos) << w[0];
}

// Offsets name the file when the trace is read from several.
TEST(ChromeLenient, OffsetsOfALaterFileNameIt) {
  const std::string dir = Scratch("two_files");
  const std::string a = R"([{"ph":"i","ts":1,"name":"a"}, {}])";
  WriteText(dir + "/a.json", a);
  WriteText(dir + "/b.json", R"([{"ph":"Y","ts":2}, {"ph":"i","ts":3,"name":"b"}])");
  Trace t;
  ReadReport r = ReadChrome({dir + "/a.json", dir + "/b.json"}, t);
  EXPECT_EQ(r.instants, 2u);
  ASSERT_EQ(r.Warnings().size(), 1u);
  EXPECT_EQ(r.Warnings()[0], "2 events skipped: 1 without a string \"ph\" (byte " + std::to_string(a.find("{}")) +
                                 "), 1 of unknown phase \"Y\" (byte 1 of " + dir + "/b.json)");
}

}  // namespace
}  // namespace macroscope::chrome
