// What the server refuses: requests without the token when it listens
// beyond loopback, paths out of the UI directory, oversize or bodied
// requests; and what it serves: the UI's files with their types, the
// index for client routes, a notice when the UI is not built; a clean stop.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "serve_process.h"

namespace macroscope::server::testing {
namespace {

const std::string kExample = SourcePath("examples/synthetic.trace");

// Whether /proc/net/tcp lists a socket listening on 127.0.0.1:port (and
// none on another address with that port).
bool ListensOnLoopbackOnly(int port) {
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);  // header
  bool loopback = false, other = false;
  char wanted[8];
  std::snprintf(wanted, sizeof wanted, "%04X", port);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    fields >> slot >> local >> remote >> state;
    if (state != "0A" || local.substr(local.find(':') + 1) != wanted) continue;
    (local.substr(0, 8) == "0100007F" ? loopback : other) = true;
  }
  return loopback && !other;
}

TEST(ServerSafety, DefaultBindIsLoopback) {
  ServeProcess serve({kExample});
  EXPECT_EQ(serve.host(), "127.0.0.1");
  EXPECT_TRUE(serve.token().empty());
  EXPECT_TRUE(ListensOnLoopbackOnly(serve.port()));
}

TEST(ServerSafety, OtherHostNeedsTheToken) {
  ServeProcess serve({kExample, "--host", "0.0.0.0"});
  EXPECT_EQ(serve.host(), "0.0.0.0");
  ASSERT_EQ(serve.token().size(), 32u) << "a random 128-bit token in hex";
  auto client = serve.Client();
  GetJson(*client, "/api/traces", 401);
  GetJson(*client, "/api/traces/0/window?start=0&end=1&width=10", 401);
  GetJson(*client, "/api/traces?token=wrong" + serve.token().substr(5), 401);
  GetJson(*client, "/api/traces?token=" + serve.token(), 200);
  httplib::Headers bearer = {{"Authorization", "Bearer " + serve.token()}};
  auto answer = client->Get("/api/traces", bearer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
  httplib::Headers wrong = {{"Authorization", "Bearer " + std::string(32, '0')}};
  answer = client->Get("/api/traces", wrong);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 401);
  // The page itself needs no token (the UI reads it from its own URL).
  answer = client->Get("/");
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
}

TEST(ServerSafety, GivenTokenIsRequiredEvenOnLoopback) {
  ServeProcess serve({kExample, "--token", "s3cret"});
  EXPECT_EQ(serve.token(), "s3cret");
  auto client = serve.Client();
  GetJson(*client, "/api/traces", 401);
  GetJson(*client, "/api/traces?token=s3cret", 200);
}

// make run opens the example at the p that isolates its disturbance: the
// printed URL carries the view the workbench reads (web/src/state/url.ts).
TEST(ServerSafety, PrintedUrlOpensTheAskedView) {
  ServeProcess plain({kExample, "--p", "0.06", "--slices", "50"});
  EXPECT_NE(plain.output().find("/?p=0.06&slices=50\n"), std::string::npos) << plain.output();
  ServeProcess with_token({kExample, "--token", "s3cret", "--p", "0.5"});
  EXPECT_NE(with_token.output().find("/?token=s3cret&p=0.5\n"), std::string::npos) << with_token.output();
  EXPECT_EQ(with_token.token(), "s3cret");
}

class WebDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "server_web_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/dist/assets");
    Write(root_ + "/dist/index.html", "<html>the UI</html>");
    Write(root_ + "/dist/assets/app.js", "console.log(1)");
    Write(root_ + "/dist/assets/app.css", "body{}");
    Write(root_ + "/dist/logo.svg", "<svg/>");
    Write(root_ + "/dist/logo.png", "PNG");
    Write(root_ + "/dist/data.json", "{}");
    Write(root_ + "/secret.txt", "SECRET-OUTSIDE");
    std::filesystem::create_symlink(root_ + "/secret.txt", root_ + "/dist/link.txt");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  static void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  std::string root_;
};

TEST_F(WebDirectory, ServesFilesWithTypesAndIndexForClientRoutes) {
  ServeProcess serve({kExample, "--web", root_ + "/dist"});
  auto client = serve.Client();
  const std::pair<std::string, std::string> files[] = {
      {"/", "text/html; charset=utf-8"},
      {"/index.html", "text/html; charset=utf-8"},
      {"/assets/app.js", "text/javascript; charset=utf-8"},
      {"/assets/app.css", "text/css; charset=utf-8"},
      {"/logo.svg", "image/svg+xml"},
      {"/logo.png", "image/png"},
      {"/data.json", "application/json"},
  };
  for (const auto& [path, type] : files) {
    auto answer = client->Get(path.c_str());
    ASSERT_TRUE(answer) << path;
    EXPECT_EQ(answer->status, 200) << path;
    EXPECT_EQ(answer->get_header_value("Content-Type"), type) << path;
  }
  EXPECT_EQ(client->Get("/assets/app.js")->body, "console.log(1)");
  // Client-side routes get the index.
  auto route = client->Get("/trace/0/overview");
  ASSERT_TRUE(route);
  EXPECT_EQ(route->status, 200);
  EXPECT_EQ(route->body, "<html>the UI</html>");
}

TEST_F(WebDirectory, NoPathLeavesTheDirectory) {
  ServeProcess serve({kExample, "--web", root_ + "/dist"});
  const std::string attempts[] = {
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/%2e%2e/etc/passwd",
      "/..%2fsecret.txt",
      "/..%5csecret.txt",
      "/link.txt",
      "//etc/passwd",
      "/api/../../secret.txt",
      "/" + root_ + "/secret.txt",
      "/assets/%00/../../secret.txt",
  };
  for (const auto& path : attempts) {
    const std::string answer = RawRequest(serve.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_NE(RawStatus(answer), -1) << path;
    EXPECT_EQ(answer.find("SECRET-OUTSIDE"), std::string::npos) << path;
    EXPECT_EQ(answer.find("root:"), std::string::npos) << path;
  }
  // The server still answers.
  GetJson(*serve.Client(), "/api/traces");
}

TEST(ServerSafety, UnbuiltUiNotice) {
  const std::string empty = ::testing::TempDir() + "server_web_empty";
  std::filesystem::create_directories(empty);
  ServeProcess serve({kExample, "--web", empty});
  EXPECT_NE(serve.output().find("not built"), std::string::npos);
  auto answer = serve.Client()->Get("/");
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
  EXPECT_NE(answer->body.find("make web"), std::string::npos);
  EXPECT_EQ(answer->get_header_value("Content-Type"), "text/html; charset=utf-8");
}

TEST(ServerSafety, OversizeAndBodiedRequestsAreRefused) {
  ServeProcess serve({kExample});
  const std::string long_url = "/api/traces?x=" + std::string(9000, 'a');
  EXPECT_EQ(RawStatus(RawRequest(serve.port(), "GET " + long_url + " HTTP/1.1\r\nHost: x\r\n\r\n")), 414);
  std::string headers;
  for (int i = 0; i < 4; ++i) headers += "X-Filler-" + std::to_string(i) + ": " + std::string(3000, 'b') + "\r\n";
  EXPECT_EQ(RawStatus(RawRequest(serve.port(), "GET /api/traces HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n")), 431);
  EXPECT_EQ(RawStatus(RawRequest(serve.port(),
                                 "GET /api/traces HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")),
            413);
  EXPECT_EQ(RawStatus(RawRequest(serve.port(),
                                 "POST /api/traces HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")),
            405);
  EXPECT_EQ(RawStatus(RawRequest(serve.port(), "garbage\r\n\r\n")), 400);
  GetJson(*serve.Client(), "/api/traces");
}

TEST(ServerSafety, StopsCleanlyOnSigterm) {
  ServeProcess serve({kExample});
  GetJson(*serve.Client(), "/api/traces");
  EXPECT_EQ(serve.Stop(), 0);
}

TEST(ServerSafety, BadCommandLines) {
  const std::string binary = MACROSCOPE_BINARY;
  auto exit_code = [&](const std::string& args) {
    int status = std::system(("'" + binary + "' serve " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(exit_code("/no/such/trace"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --port 70000"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --host 256.1.1.1 --port 0"), 1);
  EXPECT_EQ(exit_code(""), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --p 1.5"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --slices 0"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --max-connections 0"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --max-client-connections 0"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --idle-timeout 0"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --read-timeout -1"), 1);
  EXPECT_EQ(exit_code("'" + kExample + "' --max-compute-seconds 0"), 1);
}

}  // namespace
}  // namespace macroscope::server::testing
