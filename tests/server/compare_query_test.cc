// Two served traces compared through the query endpoint: `other` of
// profile_diff() and differential_overview() names another served trace by
// its index or its name as listed (the rows those of `macroscope diff` and
// of `macroscope query` on the files), never a file (a path is refused with
// a 400 saying what `other` may be); a trace still being read is said to be.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "formats/format.h"
#include "model/entity_source.h"
#include "serve_process.h"
#include "server/query_endpoint.h"
#include "server/served_trace.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::server::testing {
namespace {

class CompareQuery : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new macroscope::testing::TempDir();
    // Two runs of one shape (the same containers and values), drawn with other seeds.
    for (const char* seed : {"1", "2"}) {
      files_.push_back(dir_->path() + "/run" + seed + ".paje");
      RunMacroscope(std::string("generate --depth 2 --arity 3 --values 5 --events 4000 --nested --seed ") + seed +
                    " -o '" + files_.back() + "'");
    }
    serve_ = new ServeProcess(files_);
  }
  static void TearDownTestSuite() {
    delete serve_;
    delete dir_;
    serve_ = nullptr;
    dir_ = nullptr;
    files_.clear();
  }
  void SetUp() override { client_ = serve_->Client(); }

  nlohmann::json Query(const std::string& sql, int status = 200) {
    return GetJson(*client_, "/api/traces/0/query?limit=100000&sql=" + UrlEncoded(sql), status);
  }

  static macroscope::testing::TempDir* dir_;
  static std::vector<std::string> files_;
  static ServeProcess* serve_;
  std::unique_ptr<httplib::Client> client_;
};

macroscope::testing::TempDir* CompareQuery::dir_ = nullptr;
std::vector<std::string> CompareQuery::files_;
ServeProcess* CompareQuery::serve_ = nullptr;

// The command's JSON rows (objects): their keys, and their values as arrays.
std::pair<std::vector<std::string>, nlohmann::json> CommandRows(const std::string& args) {
  const nlohmann::ordered_json objects = nlohmann::ordered_json::parse(RunMacroscope(args));
  std::vector<std::string> columns;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& object : objects) {
    nlohmann::json row = nlohmann::json::array();
    columns.clear();
    for (const auto& [key, value] : object.items()) {
      columns.push_back(key);
      row.push_back(nlohmann::json::parse(value.dump()));
    }
    rows.push_back(row);
  }
  return {columns, rows};
}

std::string Joined(const std::vector<std::string>& columns) {
  std::string out;
  for (const std::string& c : columns) out += (out.empty() ? "" : ", ") + c;
  return out;
}

TEST_F(CompareQuery, ProfileDiffIsTheDiffCommands) {
  for (const char* by : {"function", "container", "unmatched"}) {
    const auto [columns, rows] = CommandRows("diff --format json --by " + std::string(by) + " '" + files_[0] + "' '" +
                                             files_[1] + "' 2>/dev/null");
    if (std::string(by) != "unmatched") {
      ASSERT_GT(rows.size(), 1u) << by;
    }
    const std::string select = columns.empty() ? "run, container" : Joined(columns);
    // By index and by name as listed: the same rows.
    for (const std::string& other : {std::string("1"), std::string("'1'"), std::string("'run2.paje'")}) {
      const nlohmann::json answer =
          Query("SELECT " + select + " FROM profile_diff(" + other + ", '" + by + "')");
      EXPECT_EQ(answer["rows"], rows) << by << " " << other;
    }
  }
}

TEST_F(CompareQuery, DifferentialOverviewIsTheQueryCommands) {
  for (const std::string& align : {std::string("start"), std::string("end")}) {
    const std::string call = "differential_overview(%s, NULL, 20, 'temporal', '" + align + "')";
    std::string on_files = call, served = call;
    on_files.replace(on_files.find("%s"), 2, "'" + files_[1] + "'");
    served.replace(served.find("%s"), 2, "1");
    const auto [columns, rows] =
        CommandRows("query --format json '" + files_[0] + "' " +
                    macroscope::testing::Quote("SELECT * FROM " + on_files));
    ASSERT_GT(rows.size(), 0u) << align;
    const nlohmann::json answer = Query("SELECT * FROM " + served);
    EXPECT_EQ(answer["rows"], rows) << align;
  }
}

// A file is never opened, not even a served trace's own: the 400 says what
// `other` may be.
TEST_F(CompareQuery, OtherIsAServedTraceNeverAFile) {
  for (const std::string& other : {files_[1], std::string("/etc/passwd"), std::string("2"), std::string("run3.paje")}) {
    for (const char* function : {"profile_diff", "differential_overview"}) {
      const std::string error =
          Query(std::string("SELECT * FROM ") + function + "('" + other + "')", 400)["error"].get<std::string>();
      EXPECT_NE(error.find("'" + other + "' is not a served trace"), std::string::npos) << error;
      EXPECT_NE(error.find("other is a served trace's index or its name as listed (0 run1.paje, 1 run2.paje), never "
                           "a file"),
                std::string::npos)
          << error;
    }
  }
  const std::string parts = Query("SELECT * FROM profile_diff(1, 'parts')", 400)["error"];
  EXPECT_NE(parts.find("differential_overview"), std::string::npos) << parts;
  const std::string align = Query("SELECT * FROM profile_diff(1, 'function', 'middle')", 400)["error"];
  EXPECT_NE(align.find("'middle' is not an alignment"), std::string::npos) << align;
}

// Over HTTP: while the server still reads trace 1 (a large one, read after
// the small trace 0), comparing with it answers 503 with Retry-After; once
// read, 200. The reading is not held back (--read-after would hold trace 0
// too), so the test asks while the list says trace 1 is being read and
// still says so after the answer.
TEST(CompareQueryLoading, ATraceStillReadIsA503) {
  macroscope::testing::TempDir dir;
  const std::string big = dir.path() + "/big.paje";
  RunMacroscope("generate --events 3000000 -o '" + big + "'");
  ServeProcess serve({SourcePath("examples/synthetic.trace"), big}, /*wait_until_read=*/false);
  auto client = serve.Client();
  const auto state = [&](int t) { return GetJson(*client, "/api/traces")[t]["state"].get<std::string>(); };
  const std::string path = "/api/traces/0/query?sql=" + UrlEncoded("SELECT count(*) FROM profile_diff(1)");
  bool seen = false;
  while (!seen && state(1) == "loading") {
    if (state(0) != "ready") continue;
    auto answer = client->Get(path.c_str());
    ASSERT_TRUE(answer);
    if (state(1) != "loading") break;  // read meanwhile: either answer may have come
    seen = true;
    EXPECT_EQ(answer->status, 503) << answer->body;
    EXPECT_EQ(answer->get_header_value("Retry-After"), "1");
    EXPECT_NE(answer->body.find("other: big.paje (trace 1) is still being read"), std::string::npos) << answer->body;
  }
  while (state(1) == "loading") std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(GetJson(*client, path)["rows"].size(), 1u);
  if (!seen) GTEST_SKIP() << "the server read big.paje before it could be asked while reading it";
}

// A trace still being read (ServedTrace before Publish) is named as such,
// and the endpoint told to answer 503.
TEST(CompareQueryOpener, ATraceStillReadIsSaidToBe) {
  Trace read;
  formats::ReadTrace({SourcePath("examples/synthetic.trace")}, {}, read);
  const TraceSource source(read);
  auto ready = std::make_shared<ServedTrace>("synthetic.trace", "paje");
  ready->Publish(source);
  auto loading = std::make_shared<ServedTrace>("later.paje", "paje");
  const std::vector<std::shared_ptr<const ServedTrace>> traces{ready, loading};
  bool other_loading = false;
  bool cut = false;
  const query::TraceOpener opener = ServedTraceOpener(traces, other_loading);
  try {
    QueryRows(source, "synthetic.trace", "SELECT * FROM profile_diff('later.paje')", 10, nullptr, cut, opener);
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("later.paje (trace 1) is still being read"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(other_loading);
  // Once ready, it answers: the trace against itself differs nowhere.
  other_loading = false;
  const analysis::Table same =
      QueryRows(source, "synthetic.trace", "SELECT count(*), sum(abs(inclusive_diff_ns)) FROM profile_diff(0)", 10,
                nullptr, cut, opener);
  EXPECT_GT(std::get<int64_t>(same.at(0, 0)), 0);
  EXPECT_EQ(std::get<int64_t>(same.at(0, 1)), 0);
  EXPECT_FALSE(other_loading);
}

}  // namespace
}  // namespace macroscope::server::testing
