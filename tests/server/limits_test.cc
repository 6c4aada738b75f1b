// What keeps the server up: idle and half-sent connections do not hold
// other requests back and end at their timeouts; connections beyond the
// limits are answered 503; work whose client has gone, or that SIGTERM
// interrupts, stops at once. Raw sockets to 127.0.0.1 only; every wait is
// bounded.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "serve_process.h"
#include "test_support.h"

namespace macroscope::server::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A p list that computes for many seconds on the trace below (slices are
// the cost: the qualities take O(series x slices^2), each p O(slices^2)).
const std::string kHeavy = "/api/traces/0/plist?slices=4000";

std::string Get(const std::string& path) { return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n"; }

// CPU time (user + system) of process `pid`, in clock ticks (from
// /proc/PID/stat: fields 14 and 15, after the parenthesised name).
long CpuTicks(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stol(field);
    if (i == 15) stime = std::stol(field);
  }
  return utime + stime;
}

long TicksPerSecond() { return sysconf(_SC_CLK_TCK); }

// Waits (at most 30 s) until `pid` has used `ticks` more CPU than `from`.
bool WaitBusy(pid_t pid, long from, long ticks) {
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < deadline) {
    if (CpuTicks(pid) - from >= ticks) return true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return false;
}

// How long after now `pid` stops computing: the start of the first 200 ms
// over which its CPU time grows by at most one tick, sampled every 20 ms
// for at most 5 s (nullopt when it never does).
std::optional<milliseconds> TimeUntilIdle(pid_t pid) {
  constexpr int kWindow = 10;  // samples: 200 ms
  const auto begin = Clock::now();
  std::vector<std::pair<Clock::time_point, long>> samples;
  while (Clock::now() - begin < std::chrono::seconds(5)) {
    samples.emplace_back(Clock::now(), CpuTicks(pid));
    if (samples.size() > kWindow) {
      const auto& [start, ticks] = samples[samples.size() - 1 - kWindow];
      if (samples.back().second - ticks <= 1) return std::chrono::duration_cast<milliseconds>(start - begin);
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return std::nullopt;
}

// Whether the server closes `fd` (after at most 1 MiB of whatever it
// answers) within the socket's receive timeout.
bool ClosedByServer(int fd) {
  char buffer[4096];
  ssize_t n = -1;
  for (int reads = 0; reads < 256 && (n = recv(fd, buffer, sizeof buffer, 0)) > 0; ++reads) {
  }
  return n == 0;
}

class ServerLimits : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new macroscope::testing::TempDir();
    trace_ = dir_->path() + "/generated.trace";
    RunMacroscope("generate --depth 2 --arity 4 --values 6 --events 200000 -o '" + trace_ + "'");
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static macroscope::testing::TempDir* dir_;
  static std::string trace_;
};

macroscope::testing::TempDir* ServerLimits::dir_ = nullptr;
std::string ServerLimits::trace_;

// httplib's own pool (max(8, cores - 1) threads, one per kept-alive
// connection) left this request waiting 5 s for a thread.
TEST_F(ServerLimits, IdleAndHalfSentConnectionsDoNotHoldRequestsBack) {
  ServeProcess serve({trace_});
  const auto traces = GetJson(*serve.Client(), "/api/traces");
  const std::string window = "/api/traces/0/window?start=" + traces[0]["start"].dump() +
                             "&end=" + traces[0]["end"].dump() + "&width=200";
  std::vector<int> held;
  for (int i = 0; i < 64; ++i) held.push_back(ConnectLoopback(serve.port()));
  for (int i = 0; i < 16; ++i) {
    held.push_back(ConnectLoopback(serve.port()));
    EXPECT_TRUE(SendAll(held.back(), "GET /api/traces HTTP/1.1\r\nHost: x\r\nX-Half: sent"));
  }
  for (int fd : held) ASSERT_GE(fd, 0);
  // Every one of them accepted and waited on by the server.
  std::this_thread::sleep_for(milliseconds(200));

  auto client = serve.Client();
  const auto begin = Clock::now();
  auto answer = client->Get(window.c_str());
  const auto took = Clock::now() - begin;
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200) << answer->body;
  EXPECT_LT(took, std::chrono::seconds(1));
  for (int fd : held) close(fd);
}

TEST_F(ServerLimits, IdleAndHalfSentConnectionsEndAtTheirTimeouts) {
  ServeProcess serve({trace_, "--idle-timeout", "1", "--read-timeout", "1"});
  const int fresh = ConnectLoopback(serve.port(), 5000);
  const int kept = ConnectLoopback(serve.port(), 5000);
  const int half = ConnectLoopback(serve.port(), 5000);
  ASSERT_TRUE(fresh >= 0 && kept >= 0 && half >= 0);
  ASSERT_TRUE(SendAll(kept, Get("/api/traces")));
  EXPECT_EQ(RawStatus(ReadAnswer(kept)), 200);
  ASSERT_TRUE(SendAll(half, "GET /api/traces HTTP/1.1\r\nHost"));
  const auto begin = Clock::now();
  for (int fd : {fresh, kept, half}) {
    EXPECT_TRUE(ClosedByServer(fd));
    close(fd);
  }
  // 1 s each, waited for at the same time (the 5 s receive timeout would
  // have ended the loop otherwise).
  EXPECT_LT(Clock::now() - begin, std::chrono::seconds(4));
}

TEST_F(ServerLimits, ConnectionsBeyondTheClientBoundAreAnswered503) {
  ServeProcess serve({trace_, "--max-client-connections", "4"});
  std::vector<int> served;
  for (int i = 0; i < 4; ++i) {
    served.push_back(ConnectLoopback(serve.port()));
    ASSERT_TRUE(SendAll(served.back(), Get("/api/traces")));
    EXPECT_EQ(RawStatus(ReadAnswer(served.back())), 200);
  }
  // Kept alive, they still count: a fifth connection is refused, on each
  // request, and closed.
  const int fifth = ConnectLoopback(serve.port(), 3000);
  ASSERT_TRUE(SendAll(fifth, Get("/api/traces")));
  const std::string refused = ReadAnswer(fifth);
  EXPECT_EQ(RawStatus(refused), 503) << refused;
  EXPECT_EQ(RawHeader(refused, "Retry-After"), "1");
  EXPECT_EQ(RawHeader(refused, "Content-Type"), "application/json; charset=utf-8");
  const auto error = nlohmann::json::parse(RawBody(refused), nullptr, false);
  ASSERT_TRUE(error.is_object()) << refused;
  EXPECT_NE(error["error"].get<std::string>().find("--max-client-connections"), std::string::npos);
  EXPECT_TRUE(ClosedByServer(fifth));
  close(fifth);
  // The served ones go on; once one closes, a new one is served (the
  // server sees the close within milliseconds; retried for at most 2 s).
  ASSERT_TRUE(SendAll(served[0], Get("/api/traces")));
  EXPECT_EQ(RawStatus(ReadAnswer(served[0])), 200);
  close(served[0]);
  int status = -1;
  for (int attempt = 0; attempt < 100 && status != 200; ++attempt) {
    std::this_thread::sleep_for(milliseconds(20));
    status = RawStatus(RawRequest(serve.port(), Get("/api/traces")));
  }
  EXPECT_EQ(status, 200);
  for (size_t i = 1; i < served.size(); ++i) close(served[i]);
}

TEST_F(ServerLimits, ConnectionsBeyondTheTotalBoundAreAnswered503) {
  ServeProcess serve({trace_, "--max-connections", "8"});
  // Connections count from their accept, requests or not.
  std::vector<int> held;
  for (int i = 0; i < 8; ++i) held.push_back(ConnectLoopback(serve.port()));
  const std::string refused = RawRequest(serve.port(), Get("/api/traces"));
  EXPECT_EQ(RawStatus(refused), 503) << refused;
  EXPECT_EQ(RawHeader(refused, "Retry-After"), "1");
  const auto error = nlohmann::json::parse(RawBody(refused), nullptr, false);
  ASSERT_TRUE(error.is_object()) << refused;
  EXPECT_NE(error["error"].get<std::string>().find("--max-connections"), std::string::npos);
  for (int fd : held) close(fd);
  int status = -1;
  for (int attempt = 0; attempt < 100 && status != 200; ++attempt) {
    std::this_thread::sleep_for(milliseconds(20));
    status = RawStatus(RawRequest(serve.port(), Get("/api/traces")));
  }
  EXPECT_EQ(status, 200);
}

// The CPU time of the server is the witness: it grows while the p list
// computes (one thread: --threads 1) and stops growing once the client has
// closed its connection, although the computation had seconds to go.
TEST_F(ServerLimits, AbandonedComputationStops) {
  ServeProcess serve({trace_, "--threads", "1"});
  const long before = CpuTicks(serve.pid());
  const int fd = ConnectLoopback(serve.port());
  ASSERT_TRUE(SendAll(fd, Get(kHeavy)));
  ASSERT_TRUE(WaitBusy(serve.pid(), before, TicksPerSecond() / 2)) << "the p list did not start computing";
  close(fd);
  const auto idle = TimeUntilIdle(serve.pid());
  ASSERT_TRUE(idle) << "still computing 5 s after its client left";
  EXPECT_LT(*idle, milliseconds(1000));
  // And it serves: the same request, from a client that stays, starts
  // computing again (the abandoned build was not kept).
  GetJson(*serve.Client(), "/api/traces");
  EXPECT_EQ(serve.StopWithin(SIGTERM, milliseconds(1000)), 0);
}

// A client that waits gets a 503 at the time limit, and the computation
// stops there.
TEST_F(ServerLimits, ComputationsStopAtTheTimeLimit) {
  ServeProcess serve({trace_, "--threads", "1", "--max-compute-seconds", "1"});
  const int fd = ConnectLoopback(serve.port(), 10000);
  const auto begin = Clock::now();
  ASSERT_TRUE(SendAll(fd, Get(kHeavy)));
  const std::string answer = ReadAnswer(fd);
  const auto took = Clock::now() - begin;
  close(fd);
  EXPECT_EQ(RawStatus(answer), 503) << answer;
  EXPECT_NE(RawBody(answer).find("--max-compute-seconds"), std::string::npos) << answer;
  EXPECT_GE(took, milliseconds(1000));
  EXPECT_LT(took, milliseconds(3000));
  const auto idle = TimeUntilIdle(serve.pid());
  ASSERT_TRUE(idle);
  EXPECT_LT(*idle, milliseconds(500));
}

TEST_F(ServerLimits, SigtermDuringAComputationExitsWithinASecond) {
  ServeProcess serve({trace_, "--threads", "1"});
  // A half-sent request and an idle connection do not hold the stop back.
  const int half = ConnectLoopback(serve.port());
  ASSERT_TRUE(SendAll(half, "GET /api/traces HTTP/1.1\r\n"));
  const int idle = ConnectLoopback(serve.port());
  const long before = CpuTicks(serve.pid());
  const int fd = ConnectLoopback(serve.port(), 3000);
  ASSERT_TRUE(SendAll(fd, Get(kHeavy)));
  ASSERT_TRUE(WaitBusy(serve.pid(), before, TicksPerSecond() / 2)) << "the p list did not start computing";
  const auto begin = Clock::now();
  EXPECT_EQ(serve.StopWithin(SIGTERM, milliseconds(1000)), 0);
  EXPECT_LT(Clock::now() - begin, milliseconds(1000));
  // The computation was answered before the connections closed.
  const std::string answer = ReadAnswer(fd);
  EXPECT_EQ(RawStatus(answer), 503) << answer;
  for (int socket : {fd, half, idle}) close(socket);
}

TEST_F(ServerLimits, SigintStopsTheSameWay) {
  ServeProcess serve({trace_, "--threads", "1"});
  const long before = CpuTicks(serve.pid());
  const int fd = ConnectLoopback(serve.port(), 3000);
  ASSERT_TRUE(SendAll(fd, Get(kHeavy)));
  ASSERT_TRUE(WaitBusy(serve.pid(), before, TicksPerSecond() / 2)) << "the p list did not start computing";
  EXPECT_EQ(serve.StopWithin(SIGINT, milliseconds(1000)), 0);
  close(fd);
}

}  // namespace
}  // namespace macroscope::server::testing
