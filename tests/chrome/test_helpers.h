// Helpers of the Chrome tests: the shared ones (tests/support) under this
// folder's namespace, per-test scratch folders, catapult's traces.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "test_support.h"

namespace macroscope::chrome::testing {

using macroscope::testing::CommandResult;
using macroscope::testing::Macroscope;
using macroscope::testing::ReadText;
using macroscope::testing::RunCommand;
using macroscope::testing::WriteText;

inline std::string Scratch(const std::string& name) {
  std::string dir = ::testing::TempDir() + "chrome_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Checks the refusal of `file` by `info` and by `convert` (no output left).
inline void ExpectRefused(const std::string& file, const std::string& message_part) {
  auto r = Macroscope("info " + file);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.rfind("macroscope: " + file + ":", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(message_part), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const std::string out = file + ".out.json";
  auto c = Macroscope("convert " + file + " -o " + out);
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(c.out.empty());
  EXPECT_FALSE(std::filesystem::exists(out));
  for (auto& entry : std::filesystem::directory_iterator(std::filesystem::path(file).parent_path()))
    EXPECT_EQ(entry.path().string().find(".out.json"), std::string::npos) << "left behind: " << entry.path();
}

// catapult's traces in the shared test data (tests on them skip without it).
inline std::string ChromeTestData() { return macroscope::testing::SharedTestData() + "/chrome"; }

// A Chrome trace the suite writes itself (the same bytes every run), with
// every phase the reader maps: B/E (nested, one B left open), X, i, C,
// s/f flows (two starts never ended), M names, async S/T/F. Returns the
// events per phase, and "total".
inline std::map<std::string, uint64_t> WriteSuiteTrace(const std::string& path) {
  std::map<std::string, uint64_t> phases;
  std::mt19937 random(7);
  std::string text = "{\"traceEvents\": [\n";
  bool first = true;
  auto add = [&](const std::string& ph, int tid, uint64_t ts, const std::string& rest) {
    text += first ? "" : ",\n";
    first = false;
    text += "{\"ph\":\"" + ph + "\",\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ts\":" +
            std::to_string(ts) + "." + std::to_string(random() % 1000) + rest + "}";
    ++phases[ph];
    ++phases["total"];
  };
  add("M", 0, 0, ",\"name\":\"process_name\",\"args\":{\"name\":\"suite\"}");
  for (int tid = 1; tid <= 3; ++tid) {
    add("M", tid, 0, ",\"name\":\"thread_name\",\"args\":{\"name\":\"worker " + std::to_string(tid) + "\"}");
    uint64_t t = 10 * tid;
    for (int i = 0; i < 40; ++i, t += 100) {
      const std::string name = ",\"name\":\"step" + std::to_string(i % 4) + "\"";
      add("B", tid, t, name);
      add("X", tid, t + 10, ",\"name\":\"inner\",\"dur\":20");
      add("i", tid, t + 40, ",\"name\":\"mark\",\"s\":\"t\"");
      add("C", tid, t + 45, ",\"name\":\"queue\",\"args\":{\"length\":" + std::to_string(random() % 50) + "}");
      if (i % 5 == 0) add("s", tid, t + 50, ",\"name\":\"msg\",\"cat\":\"c\",\"id\":" + std::to_string(tid * 100 + i));
      if (i % 5 == 0 && tid < 3)
        add("f", tid % 3 + 1, t + 60, ",\"name\":\"msg\",\"cat\":\"c\",\"id\":" + std::to_string(tid * 100 + i) +
                                          ",\"bp\":\"e\"");
      if (i % 10 == 0) {
        const std::string id = ",\"name\":\"load\",\"cat\":\"a\",\"id\":" + std::to_string(tid * 1000 + i);
        add("S", tid, t + 1, id);
        add("T", tid, t + 30, id + ",\"args\":{\"step\":\"half\"}");
        add("F", tid, t + 70, id);
      }
      if (!(tid == 2 && i == 39)) add("E", tid, t + 80, "");
    }
  }
  text += "\n]}\n";
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  WriteText(path, text);
  return phases;
}

}  // namespace macroscope::chrome::testing
