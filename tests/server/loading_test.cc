// `serve` answers while it reads its traces: the start-up line comes
// first, the list says which traces are still being read and how far,
// their endpoints answer 503 with Retry-After until they are ready, and
// then answer as usual; a signal meanwhile ends the command at once; a
// trace that cannot be read ends it with the reader's error.
//
// The hidden --read-after FILE holds the reading back until FILE exists:
// what the test sees before it creates the file does not depend on the
// machine's speed, and afterwards the test only waits (boundedly) for
// "ready".
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "serve_process.h"
#include "test_support.h"

namespace macroscope::server::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

const std::string kExample = SourcePath("examples/synthetic.trace");

class ServerLoading : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new macroscope::testing::TempDir();
    big_ = dir_->path() + "/big.paje";
    // Large enough to take a while to read (~0.5 s), so that the polling
    // below can see the progress move.
    RunMacroscope("generate --events 3000000 -o '" + big_ + "'");
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  // A file of this test's that the reading waits for.
  static std::string Gate() {
    return dir_->path() + "/gate-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }

  static macroscope::testing::TempDir* dir_;
  static std::string big_;
};

macroscope::testing::TempDir* ServerLoading::dir_ = nullptr;
std::string ServerLoading::big_;

// Every endpoint of trace `t` that reads the trace.
std::vector<std::string> TraceEndpoints(int t) {
  const std::string base = "/api/traces/" + std::to_string(t);
  return {base,
          base + "/aggregate?slices=10&p=0.5",
          base + "/plist?slices=10",
          base + "/stats",
          base + "/window?start=0&end=1&width=10",
          base + "/entity/0:0",
          base + "/search?q=a"};
}

TEST_F(ServerLoading, AnswersWhileTracesAreRead) {
  const std::string gate = Gate();
  ServeProcess serve({big_, kExample, "--read-after", gate}, /*wait_until_read=*/false);
  // The start-up line comes before any trace is read.
  EXPECT_EQ(serve.output().find("macroscope: read "), std::string::npos) << serve.output();
  auto client = serve.Client();

  auto list = GetJson(*client, "/api/traces");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["name"], "big.paje");
  EXPECT_EQ(list[1]["name"], "synthetic.trace");
  for (const auto& trace : list) {
    EXPECT_EQ(trace["format"], "paje");
    EXPECT_EQ(trace["state"], "loading");
    EXPECT_EQ(trace["progress"], nlohmann::json({{"bytes", 0}, {"total_bytes", 0}, {"entities", 0}}));
    // What needs the trace read is not there yet.
    for (const char* field : {"start", "end", "time", "totals"}) EXPECT_FALSE(trace.contains(field)) << field;
  }
  for (int t : {0, 1}) {
    for (const std::string& path : TraceEndpoints(t)) {
      auto answer = client->Get(path.c_str());
      ASSERT_TRUE(answer) << path;
      EXPECT_EQ(answer->status, 503) << path << ": " << answer->body;
      EXPECT_EQ(answer->get_header_value("Retry-After"), "1") << path;
      EXPECT_EQ(nlohmann::json::parse(answer->body, nullptr, false),
                nlohmann::json({{"error", std::to_string(t) + ": still being read"}}))
          << path << ": " << answer->body;
    }
  }
  GetJson(*client, "/api/traces/2", 404);  // an unknown trace is still unknown

  // Let the reading start, then poll until both are ready: while the big
  // trace is read, its progress only grows and never passes its size.
  macroscope::testing::WriteText(gate, "");
  const uint64_t size = std::filesystem::file_size(big_);
  uint64_t last_bytes = 0, last_entities = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  for (;;) {
    list = GetJson(*client, "/api/traces");
    ASSERT_EQ(list.size(), 2u);
    if (list[0]["state"] == "loading") {
      const auto& progress = list[0]["progress"];
      const uint64_t bytes = progress["bytes"], total = progress["total_bytes"], entities = progress["entities"];
      EXPECT_TRUE(total == 0 || total == size) << progress;
      EXPECT_LE(bytes, size) << progress;
      EXPECT_GE(bytes, last_bytes) << progress;
      EXPECT_GE(entities, last_entities) << progress;
      last_bytes = bytes;
      last_entities = entities;
    } else {
      EXPECT_EQ(list[0]["state"], "ready");
    }
    if (list[0]["state"] == "ready" && list[1]["state"] == "ready") break;
    ASSERT_LT(Clock::now(), deadline) << "not ready within 60 s: " << list;
    std::this_thread::sleep_for(milliseconds(20));
  }

  // Ready: listed whole, and every endpoint answers.
  for (const auto& trace : list) {
    EXPECT_FALSE(trace.contains("progress"));
    for (const char* field : {"start", "end", "time", "totals"}) EXPECT_TRUE(trace.contains(field)) << field;
  }
  EXPECT_GT(list[0]["totals"]["state"].get<uint64_t>(), 0u);
  EXPECT_EQ(GetJson(*client, "/api/traces/0")["state"], "ready");
  EXPECT_FALSE(GetJson(*client, "/api/traces/1")["containers"].empty());
  const std::string span = "start=" + list[1]["start"].dump() + "&end=" + list[1]["end"].dump();
  EXPECT_GT(GetJson(*client, "/api/traces/1/window?" + span + "&width=100")["shown"].get<int>(), 0);
  EXPECT_FALSE(GetJson(*client, "/api/traces/1/stats")["rows"].empty());
  EXPECT_FALSE(GetJson(*client, "/api/traces/1/aggregate?slices=10&p=0.5")["parts"].empty());
  // Every trace read: a signal now stops the server gracefully.
  EXPECT_EQ(serve.Stop(), 0);
}

TEST_F(ServerLoading, SignalWhileReadingEndsAtOnce) {
  ServeProcess serve({kExample, "--read-after", Gate()}, /*wait_until_read=*/false);
  GetJson(*serve.Client(), "/api/traces");
  EXPECT_EQ(serve.StopWithin(SIGTERM, milliseconds(1000)), 128 + SIGTERM);
}

TEST_F(ServerLoading, UnreadableTraceEndsTheCommand) {
  const std::string bad = SourcePath("tests/paje/bad/time_backwards.trace");
  // The reader's own message, as any command prints it: "macroscope: FILE:LINE: problem".
  const auto info = macroscope::testing::Macroscope("info '" + bad + "'");
  ASSERT_EQ(info.exit_code, 1);
  ASSERT_NE(info.err.find(bad + ":35: "), std::string::npos) << info.err;
  // The example is read and served first; the bad trace then ends it all.
  ServeProcess serve({kExample, bad});
  EXPECT_NE(serve.output().find("macroscope: read " + kExample), std::string::npos) << serve.output();
  EXPECT_NE(serve.output().find(info.err), std::string::npos) << serve.output();
  EXPECT_LT(serve.output().find("macroscope: serving 2 trace(s)"), serve.output().find(info.err));
  EXPECT_EQ(serve.Stop(), 1);
}

}  // namespace
}  // namespace macroscope::server::testing
