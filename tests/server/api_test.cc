// The JSON API against the CLI on the bundled example: the same traces,
// aggregations, p lists and statistics; entities with user fields; search.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "serve_process.h"

namespace macroscope::server::testing {
namespace {

class ApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    serve_ = new ServeProcess({SourcePath("examples/synthetic.trace"), SourcePath("tests/paje/traces/user_fields.trace")});
  }
  static void TearDownTestSuite() {
    delete serve_;
    serve_ = nullptr;
  }
  void SetUp() override { client_ = serve_->Client(); }

  static ServeProcess* serve_;
  std::unique_ptr<httplib::Client> client_;
};

ServeProcess* ApiTest::serve_ = nullptr;

const std::string kExample = SourcePath("examples/synthetic.trace");

TEST_F(ApiTest, StartUpLinesAndDefaultHost) {
  EXPECT_EQ(serve_->host(), "127.0.0.1");
  EXPECT_TRUE(serve_->token().empty());
  EXPECT_NE(serve_->output().find("synthetic.trace"), std::string::npos);
}

TEST_F(ApiTest, TraceListMatchesInfo) {
  auto list = GetJson(*client_, "/api/traces");
  ASSERT_EQ(list.size(), 2u);
  auto info = nlohmann::json::parse(RunMacroscope("info --json '" + kExample + "'"));
  EXPECT_EQ(list[0]["id"], 0);
  EXPECT_EQ(list[0]["name"], "synthetic.trace");
  EXPECT_EQ(list[0]["format"], "paje");
  EXPECT_EQ(list[0]["start"], info["start"]);
  EXPECT_EQ(list[0]["end"], info["end"]);
  EXPECT_EQ(list[0]["totals"], info["totals"]);
  EXPECT_EQ(list[1]["name"], "user_fields.trace");
}

TEST_F(ApiTest, TraceDetailsTrees) {
  auto trace = GetJson(*client_, "/api/traces/0");
  auto info = nlohmann::json::parse(RunMacroscope("info --json '" + kExample + "'"));
  ASSERT_EQ(trace["types"].size(), info["types"].size());
  ASSERT_EQ(trace["containers"].size(), info["totals"]["container"].get<size_t>());
  size_t declared = 0;
  for (size_t i = 0; i < trace["types"].size(); ++i) {
    const auto& t = trace["types"][i];
    EXPECT_EQ(t["id"], i + 1);
    EXPECT_EQ(t["name"], info["types"][i]["name"]);
    EXPECT_EQ(t["kind"], info["types"][i]["kind"]);
    EXPECT_LT(t["parent"].get<int>(), t["id"].get<int>());
    declared += t["values"].size();
  }
  EXPECT_EQ(declared, info["values"].size());
  // Pajé colours ("r g b" in [0, 1]) as #rrggbb: "value 0" is "0.0 0.5 0.5",
  // the variable type Load "0 0 1".
  for (const auto& t : trace["types"]) {
    if (t["name"] == "State") {
      EXPECT_EQ(t["values"][0], nlohmann::json({{"name", "value 0"}, {"color", "#008080"}}));
    }
    if (t["name"] == "Load") {
      EXPECT_EQ(t["color"], "#0000ff");
    }
  }
  for (const auto& c : trace["containers"]) {
    EXPECT_LT(c["parent"].get<int>(), c["id"].get<int>()) << "parents come first";
    std::string path = c["path"];
    EXPECT_TRUE(path == c["name"] || path.ends_with("/" + c["name"].get<std::string>())) << path;
  }
  GetJson(*client_, "/api/traces/2", 404);
  GetJson(*client_, "/api/traces/-1", 404);
  GetJson(*client_, "/api/traces/99999999999999999999", 404);
}

// The server's aggregate without its additions (types, nodes, per-part
// node_id and values) is the CLI's answer.
nlohmann::json WithoutServerFields(nlohmann::json answer) {
  answer.erase("types");
  answer.erase("nodes");
  for (auto& part : answer["parts"]) {
    part.erase("node_id");
    part.erase("values");
  }
  return answer;
}

TEST_F(ApiTest, AggregateEqualsCli) {
  struct Case {
    std::string query, cli;
  };
  const Case cases[] = {
      {"slices=30&p=0.3", "--slices 30 --p 0.3"},
      {"slices=20&p=0.7&mode=spatiotemporal", "--slices 20 --p 0.7 --mode spatiotemporal"},
      {"slices=25&p=0.5&mode=spatiotemporal&normalize=1&start=500&end=2500",
       "--slices 25 --p 0.5 --mode spatiotemporal --normalize --start 500 --end 2500"},
      {"metric=event-count&slices=10&p=0.2", "--metric event-count --slices 10 --p 0.2"},
      {"slices=100&bins=1&p=0.3&start=500&end=2500", "--slices 100 --bins --p 0.3 --start 500 --end 2500"},
  };
  for (const auto& c : cases) {
    auto server = GetJson(*client_, "/api/traces/0/aggregate?" + c.query);
    auto cli = nlohmann::json::parse(RunMacroscope("aggregate --no-cache '" + kExample + "' " + c.cli));
    EXPECT_EQ(WithoutServerFields(server), cli) << c.query;
    // Per-part values: one per model type, and the parts' cells cover the
    // model once, so their sums add up to the whole model's.
    const size_t types = server["types"].size();
    ASSERT_GT(types, 0u);
    for (const auto& part : server["parts"]) {
      ASSERT_EQ(part["values"].size(), types);
      const auto& node = server["nodes"][part["node_id"].get<size_t>()];
      EXPECT_EQ(node["path"], part["node"]) << c.query;
    }
  }
}

TEST_F(ApiTest, AggregateValuesAddUpToStateTime) {
  // state-time over the whole trace: the model holds every state's time, so
  // the parts' values add up to the total state time of `stats`.
  auto server = GetJson(*client_, "/api/traces/0/aggregate?slices=40&p=0.4&mode=spatiotemporal");
  double model_total = 0;
  for (const auto& part : server["parts"])
    for (double v : part["values"]) model_total += v;
  auto stats = GetJson(*client_, "/api/traces/0/stats");
  double state_time = 0;
  for (const auto& row : stats["rows"])
    if (row["kind"] == "state") state_time += row["total_time"].get<double>();
  EXPECT_NEAR(model_total, state_time, 1e-6 * state_time);
}

TEST_F(ApiTest, AnotherPReusesTheModel) {
  // The second request runs only the cut step; its answer is still the CLI's.
  GetJson(*client_, "/api/traces/0/aggregate?slices=50&p=0.1");
  auto again = GetJson(*client_, "/api/traces/0/aggregate?slices=50&p=0.9");
  auto cli = nlohmann::json::parse(RunMacroscope("aggregate --no-cache '" + kExample + "' --slices 50 --p 0.9"));
  EXPECT_EQ(WithoutServerFields(again), cli);
}

TEST_F(ApiTest, ConcurrentRequestsAgree) {
  // Several clients at once ask for one model not built yet (they share its
  // build) and for windows: every answer is the one a lone request gets.
  const std::string aggregate = "/api/traces/0/aggregate?slices=77&mode=spatiotemporal&p=0.25";
  const std::string window = "/api/traces/0/window?start=100&end=3000&width=300";
  std::vector<std::string> answers(8);
  std::vector<std::thread> clients;
  for (size_t k = 0; k < answers.size(); ++k) {
    clients.emplace_back([&, k] {
      httplib::Client client("127.0.0.1", serve_->port());
      client.set_read_timeout(60, 0);
      auto result = client.Get((k % 2 ? window : aggregate).c_str());
      answers[k] = result && result->status == 200 ? result->body : "failed";
    });
  }
  for (auto& c : clients) c.join();
  for (size_t k = 2; k < answers.size(); ++k) EXPECT_EQ(answers[k], answers[k % 2]) << k;
  EXPECT_EQ(nlohmann::json::parse(answers[0]), GetJson(*client_, aggregate));
  EXPECT_EQ(nlohmann::json::parse(answers[1]), GetJson(*client_, window));
}

TEST_F(ApiTest, PListEqualsCli) {
  auto server = GetJson(*client_, "/api/traces/0/plist?slices=30&mode=spatiotemporal");
  auto cli = nlohmann::json::parse(
      RunMacroscope("aggregate --no-cache '" + kExample + "' --slices 30 --mode spatiotemporal --plist"));
  EXPECT_EQ(server, cli);
  ASSERT_GT(server.size(), 1u);
}

TEST_F(ApiTest, StatsEqualCli) {
  EXPECT_EQ(GetJson(*client_, "/api/traces/0/stats"),
            nlohmann::json::parse(RunMacroscope("stats --format json '" + kExample + "'")));
  // A window and one container subtree: the CLI names it, the API gives its id.
  auto trace = GetJson(*client_, "/api/traces/0");
  std::map<std::string, int> seen;
  for (const auto& c : trace["containers"]) seen[c["name"]]++;
  const nlohmann::json* chosen = nullptr;
  for (const auto& c : trace["containers"]) {
    if (seen[c["name"]] == 1 && c["parent"] != 0) {
      chosen = &c;
      break;
    }
  }
  ASSERT_NE(chosen, nullptr);
  auto server = GetJson(*client_, "/api/traces/0/stats?start=100&end=2000&containers=" +
                                      std::to_string((*chosen)["id"].get<int>()));
  auto cli = nlohmann::json::parse(RunMacroscope("stats --format json --start 100 --end 2000 --containers '" +
                                                 (*chosen)["name"].get<std::string>() + "' '" + kExample + "'"));
  EXPECT_EQ(server, cli);
  EXPECT_FALSE(server["rows"].empty());
}

TEST_F(ApiTest, EntityWithUserFields) {
  auto found = GetJson(*client_, "/api/traces/1/search?q=COMPUTE");
  ASSERT_EQ(found["entities"].size(), 1u);
  const std::string id = found["entities"][0]["id"];
  auto entity = GetJson(*client_, "/api/traces/1/entity/" + id);
  EXPECT_EQ(entity["id"], id);
  EXPECT_EQ(entity["kind"], "state");
  EXPECT_EQ(entity["value"], "compute");
  EXPECT_EQ(entity["type"]["name"], "State");
  EXPECT_EQ(entity["container"]["path"], "r/p0");
  EXPECT_EQ(entity["start"], 1.0);
  EXPECT_EQ(entity["level"], 0);
  EXPECT_TRUE(entity["number"].is_null());
  const nlohmann::json fields = {{{"name", "Bytes"}, {"value", "100"}},
                                 {{"name", "Tag"}, {"value", "0xff"}},
                                 {{"name", "Note"}, {"value", "second pop"}}};
  EXPECT_EQ(entity["fields"], fields);

  auto link = GetJson(*client_, "/api/traces/1/search?q=msg")["entities"];
  ASSERT_EQ(link.size(), 1u);
  auto details = GetJson(*client_, "/api/traces/1/entity/" + link[0]["id"].get<std::string>());
  EXPECT_EQ(details["kind"], "link");
  EXPECT_EQ(details["key"], "k1");
  EXPECT_EQ(details["from"]["path"], "r/p0");
  EXPECT_EQ(details["to"]["path"], "r/p1");
  const nlohmann::json link_fields = {{{"name", "Size"}, {"value", "4096"}}, {{"name", "Status"}, {"value", "ok"}}};
  EXPECT_EQ(details["fields"], link_fields);
}

TEST_F(ApiTest, BadEntityIds) {
  for (const char* id : {"0:999999", "999:0", "x", "1:", ":1", "1:2:3", "-1:0", "1%3A2x"}) {
    GetJson(*client_, std::string("/api/traces/1/entity/") + id, 404);
  }
}

TEST_F(ApiTest, Search) {
  auto all = GetJson(*client_, "/api/traces/0/search?q=VALUE%201&limit=1000");
  auto stats = GetJson(*client_, "/api/traces/0/stats");
  size_t expected = 0;  // "value 1" and "value 1x" values of every kind
  for (const auto& row : stats["rows"])
    if (row["value"].get<std::string>().find("value 1") == 0) expected += row["count"].get<size_t>();
  EXPECT_EQ(all["entities"].size(), expected);
  EXPECT_FALSE(all["truncated"]);
  for (const auto& e : all["entities"]) EXPECT_EQ(e["value"].get<std::string>().find("value 1"), 0u);
  auto few = GetJson(*client_, "/api/traces/0/search?q=value&limit=3");
  EXPECT_EQ(few["entities"].size(), 3u);
  EXPECT_TRUE(few["truncated"]);
  auto containers = GetJson(*client_, "/api/traces/1/search?q=P1");
  EXPECT_EQ(containers["containers"], nlohmann::json::array({3}));
  GetJson(*client_, "/api/traces/0/search", 400);
  GetJson(*client_, "/api/traces/0/search?q=", 400);
  GetJson(*client_, "/api/traces/0/search?q=" + std::string(201, 'a'), 400);
  GetJson(*client_, "/api/traces/0/search?q=a&limit=1001", 400);
  GetJson(*client_, "/api/traces/0/search?q=a&limit=0", 400);
}

TEST_F(ApiTest, BadParametersAreJsonErrors) {
  const std::pair<std::string, int> cases[] = {
      {"/api/traces/0/aggregate?p=2", 400},
      {"/api/traces/0/aggregate?p=-0.1", 400},
      {"/api/traces/0/aggregate?p=nan", 400},
      {"/api/traces/0/aggregate?p=abc", 400},
      {"/api/traces/0/aggregate?slices=0", 400},
      {"/api/traces/0/aggregate?slices=10001", 400},
      {"/api/traces/0/aggregate?start=10&end=5", 400},
      {"/api/traces/0/aggregate?mode=sideways", 400},
      {"/api/traces/0/aggregate?metric=nope", 400},
      {"/api/traces/0/aggregate?normalize=yes", 400},
      {"/api/traces/0/aggregate?types=NoSuchType", 404},
      {"/api/traces/0/aggregate?containers=no/such/path", 404},
      {"/api/traces/0/plist?slices=0", 400},
      {"/api/traces/7/aggregate", 404},
      {"/api/traces/7/window?start=0&end=1&width=10", 404},
      {"/api/traces/0/window?start=10&end=5&width=10", 400},
      {"/api/traces/0/window?start=5&end=5&width=10", 400},
      {"/api/traces/0/window?start=0&end=10&width=0", 400},
      {"/api/traces/0/window?start=0&end=10&width=8193", 400},
      {"/api/traces/0/window?start=0&end=10", 400},
      {"/api/traces/0/window?end=10&width=5", 400},
      {"/api/traces/0/window?start=/etc/passwd&end=10&width=5", 400},
      {"/api/traces/0/window?start=0&end=10&width=5&containers=9999", 404},
      {"/api/traces/0/window?start=0&end=10&width=5&containers=a", 400},
      {"/api/traces/0/window?start=0&end=10&width=5&types=9999", 404},
      {"/api/traces/0/stats?start=10&end=5", 400},
      {"/api/traces/0/stats?containers=9999", 404},
      {"/api/traces/0/stats?containers=..%2F..%2Fetc", 400},
      {"/api/traces/0/nothing", 404},
      {"/api/other", 404},
  };
  for (const auto& [path, status] : cases) GetJson(*client_, path, status);
  // The server still answers.
  EXPECT_EQ(GetJson(*client_, "/api/traces").size(), 2u);
}

}  // namespace
}  // namespace macroscope::server::testing
