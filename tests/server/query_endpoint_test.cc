// The query endpoint: the command's rows as JSON (compared with `macroscope
// query --format json` on the same statements), rows capped, SQL errors
// with their place, exact integers, the model time of a query's ticks, and
// its guard: nothing but reading, and work that stops when the client
// waits too long.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "serve_process.h"
#include "test_support.h"

namespace macroscope::server::testing {
namespace {

const std::string kPaje = SourcePath("examples/synthetic.trace");
const std::string kStore = SourcePath("examples/gstreamer-stressed.store");

class QueryEndpoint : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { serve_ = new ServeProcess({kPaje, kStore}); }
  static void TearDownTestSuite() {
    delete serve_;
    serve_ = nullptr;
  }
  void SetUp() override { client_ = serve_->Client(); }

  nlohmann::json Query(int trace, const std::string& sql, int status = 200, const std::string& more = "") {
    return GetJson(*client_, "/api/traces/" + std::to_string(trace) + "/query?sql=" + UrlEncoded(sql) + more,
                   status);
  }

  static ServeProcess* serve_;
  std::unique_ptr<httplib::Client> client_;
};

ServeProcess* QueryEndpoint::serve_ = nullptr;

// The command's JSON rows (objects) as the endpoint's arrays.
nlohmann::json CommandRows(const std::string& trace, const std::string& sql) {
  const nlohmann::ordered_json objects =
      nlohmann::ordered_json::parse(RunMacroscope("query --format json '" + trace + "' " + macroscope::testing::Quote(sql)));
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& object : objects) {
    nlohmann::json row = nlohmann::json::array();
    for (const auto& [key, value] : object.items()) row.push_back(nlohmann::json::parse(value.dump()));
    rows.push_back(row);
  }
  return rows;
}

TEST_F(QueryEndpoint, RowsAreTheCommands) {
  const std::vector<std::pair<int, std::string>> cases = {
      {0, "SELECT id, container, type, value, ts, end, depth FROM states ORDER BY id"},
      {0, "SELECT value, count(*) AS n, sum(dur) AS total FROM states GROUP BY value ORDER BY value"},
      {1, "SELECT c.name, s.value, count(*) AS n FROM states s JOIN containers c ON c.id = s.container "
          "GROUP BY 1, 2 ORDER BY n DESC, 1, 2 LIMIT 20"},
      {1, "SELECT * FROM stats() ORDER BY 1, 2, 3"}};
  for (const auto& [trace, sql] : cases) {
    const nlohmann::json answer = Query(trace, sql, 200, "&limit=100000");
    EXPECT_FALSE(answer["truncated"].get<bool>()) << sql;
    EXPECT_EQ(answer["rows"], CommandRows(trace == 0 ? kPaje : kStore, sql)) << sql;
    EXPECT_GT(answer["rows"].size(), 1u) << sql;
  }
  const nlohmann::json columns = Query(0, "SELECT value AS v, count(*) AS n FROM states GROUP BY 1")["columns"];
  EXPECT_EQ(columns, nlohmann::json::parse(R"(["v", "n"])"));
}

// query.csv: the command's CSV, byte for byte (the one table writer).
TEST_F(QueryEndpoint, CsvIsTheCommands) {
  const std::string sql = "SELECT c.name AS thread, s.value, count(*) AS n, sum(s.dur_ns) AS ns FROM states s "
                          "JOIN containers c ON c.id = s.container GROUP BY 1, 2 ORDER BY 1, 2";
  auto answer = client_->Get("/api/traces/1/query.csv?sql=" + UrlEncoded(sql));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
  EXPECT_EQ(answer->get_header_value("Content-Type"), "text/csv; charset=utf-8");
  EXPECT_EQ(answer->body, RunMacroscope("query --format csv '" + kStore + "' " + macroscope::testing::Quote(sql)));
  EXPECT_EQ(GetJson(*client_, "/api/traces/1/query.csv?sql=SELEC", 400)["error"], "SQL:1:1: near \"SELEC\": syntax error");
}

TEST_F(QueryEndpoint, RowsAreCappedAtTheLimit) {
  const std::string sql = "SELECT id FROM states ORDER BY id";
  nlohmann::json answer = Query(0, sql, 200, "&limit=5");
  EXPECT_EQ(answer["rows"], nlohmann::json::parse("[[0],[1],[2],[3],[4]]"));
  EXPECT_TRUE(answer["truncated"].get<bool>());
  answer = Query(0, sql + " LIMIT 5", 200, "&limit=5");
  EXPECT_FALSE(answer["truncated"].get<bool>());
  // The default cap, and limits out of range.
  EXPECT_EQ(Query(1, "SELECT id FROM states")["rows"].size(), 10000u);
  for (const char* limit : {"0", "100001", "x"}) {
    const nlohmann::json error = Query(0, sql, 400, std::string("&limit=") + limit);
    EXPECT_NE(error["error"].get<std::string>().find("limit"), std::string::npos) << error;
  }
  EXPECT_NE(GetJson(*client_, "/api/traces/0/query", 400)["error"].get<std::string>().find("sql"), std::string::npos);
}

TEST_F(QueryEndpoint, BadSqlSaysWhere) {
  EXPECT_EQ(Query(0, "SELECT count(*) FROM states WHERE\n  valeu = 1", 400)["error"], "SQL:2:3: no such column: valeu");
  EXPECT_EQ(Query(0, "SELEC 1", 400)["error"], "SQL:1:1: near \"SELEC\": syntax error");
}

// Integers JavaScript would round come as strings; ts less time_origin is
// the model time the trace list speaks.
TEST_F(QueryEndpoint, IntegersStayExact) {
  const nlohmann::json big = Query(0, "SELECT 9007199254740993 AS big, -9007199254740992 AS low, 9007199254740991 AS "
                                      "fits, 1.5 AS real, NULL AS none, 'é' AS text");
  EXPECT_EQ(big["rows"][0], nlohmann::json::parse(R"(["9007199254740993", "-9007199254740992", 9007199254740991,
                                                      1.5, null, "é"])"));
  const nlohmann::json traces = GetJson(*client_, "/api/traces");
  const nlohmann::json store = Query(1, "SELECT start, end FROM trace_info");
  const int64_t origin = std::stoll(store["time_origin"].get<std::string>());
  EXPECT_EQ(store["rows"][0][0].get<int64_t>() - origin, traces[1]["start"].get<double>());
  EXPECT_EQ(store["rows"][0][1].get<int64_t>() - origin, traces[1]["end"].get<double>());
  EXPECT_EQ(Query(0, "SELECT 1")["time_origin"], "0");  // Pajé's decimal times are model times
}

// A query's entity id names the entity for /entity too: the same entity
// (its container, value and times; a whole clock's ts less time_origin is
// its start), whichever table and trace.
TEST_F(QueryEndpoint, QueryIdsNameTheirEntities) {
  for (int trace : {0, 1}) {
    for (const char* table : {"states", "events", "links", "variables"}) {
      const nlohmann::json rows =
          Query(trace, std::string("SELECT id, container, ts FROM ") + table + " WHERE id % 97 = 0 ORDER BY id");
      const int64_t origin = std::stoll(rows["time_origin"].get<std::string>());
      for (const auto& row : rows["rows"]) {
        const nlohmann::json entity =
            GetJson(*client_, "/api/traces/" + std::to_string(trace) + "/entity/" + row[0].dump());
        EXPECT_EQ(entity["container"]["id"], row[1]) << table << " " << row;
        EXPECT_EQ(entity["start"].get<double>(), row[2].get<double>() - static_cast<double>(origin)) << row;
        EXPECT_EQ(entity["kind"], std::string(table).substr(0, std::string(table).size() - 1)) << row;
      }
    }
  }
  const int64_t count = Query(0, "SELECT entities FROM trace_info")["rows"][0][0];
  GetJson(*client_, "/api/traces/0/entity/" + std::to_string(count), 404);
  GetJson(*client_, "/api/traces/0/entity/-1", 404);
}

// Only reading: no file is attached, written or made, no setting changed.
TEST_F(QueryEndpoint, StatementsOnlyRead) {
  macroscope::testing::TempDir dir;
  const std::string file = dir.path() + "/made.sqlite";
  for (const std::string& sql :
       {"ATTACH DATABASE '" + file + "' AS other", "VACUUM INTO '" + file + "'", std::string("CREATE TABLE t(x)"),
        std::string("PRAGMA journal_mode = OFF"), std::string("CREATE TEMP VIEW v AS SELECT 1"),
        "SELECT 1; ATTACH DATABASE '" + file + "' AS other"}) {
    const nlohmann::json error = Query(0, sql, 400);
    EXPECT_NE(error["error"].get<std::string>().find("authoriz"), std::string::npos) << sql << ": " << error;
  }
  EXPECT_FALSE(std::filesystem::exists(file));
  // The tables refuse writes of themselves.
  for (const char* sql : {"DELETE FROM states", "UPDATE sqlite_master SET sql = ''"})
    EXPECT_NE(Query(0, sql, 400)["error"].get<std::string>().find("may not be modified"), std::string::npos) << sql;
  const std::string error = Query(0, "SELECT length(zeroblob(100000000))", 400)["error"];
  EXPECT_NE(error.find("too big"), std::string::npos) << error;
}

// A statement that would run forever stops at the time limit, with a 503
// that says what to ask instead, and the server serves on.
TEST(QueryEndpointLimits, AStatementStopsAtTheTimeLimit) {
  ServeProcess serve({kPaje, "--max-compute-seconds", "1"});
  auto client = serve.Client();
  const auto begin = std::chrono::steady_clock::now();
  const nlohmann::json error = GetJson(
      *client,
      "/api/traces/0/query?sql=" +
          UrlEncoded("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                      "SELECT count(*) FROM c"),
      503);
  const auto took = std::chrono::steady_clock::now() - begin;
  EXPECT_NE(error["error"].get<std::string>().find("a statement that reads less"), std::string::npos) << error;
  EXPECT_GE(took, std::chrono::milliseconds(1000));
  EXPECT_LT(took, std::chrono::milliseconds(3000));
  EXPECT_EQ(GetJson(*client, "/api/traces/0/query?sql=SELECT%201")["rows"], nlohmann::json::parse("[[1]]"));
}

// So does an analysis that computes inside a table function (a p list of
// many slices: seconds of work), however few rows SQLite steps through.
TEST(QueryEndpointLimits, AnAnalysisStopsAtTheTimeLimit) {
  macroscope::testing::TempDir dir;
  const std::string trace = dir.path() + "/generated.trace";
  RunMacroscope("generate --depth 2 --arity 4 --values 6 --events 200000 -o '" + trace + "'");
  ServeProcess serve({trace, "--threads", "1", "--max-compute-seconds", "1"});
  auto client = serve.Client();
  const auto begin = std::chrono::steady_clock::now();
  GetJson(*client, "/api/traces/0/query?sql=" + UrlEncoded("SELECT count(*) FROM plist(4000)"), 503);
  const auto took = std::chrono::steady_clock::now() - begin;
  EXPECT_GE(took, std::chrono::milliseconds(1000));
  EXPECT_LT(took, std::chrono::milliseconds(3000));
}

}  // namespace
}  // namespace macroscope::server::testing
