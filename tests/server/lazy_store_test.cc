// `serve` of a chunked store, opened without reading its entities and
// answering from the chunks its queries reach (through a cache far smaller
// than the store, so chunks come and go), against `serve` of the trace the
// store was imported from, held in memory — both in one server: every
// answer (details, windows at every zoom, filtered windows, overviews,
// statistics, entities, search) is the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "serve_process.h"
#include "test_support.h"

namespace macroscope::server::testing {
namespace {

// The answer's body; fails the test unless it is 200.
std::string Body(httplib::Client& client, const std::string& path) {
  auto answer = client.Get(path);
  if (!answer) {
    ADD_FAILURE() << path << ": no answer";
    return "";
  }
  EXPECT_EQ(answer->status, 200) << path << ": " << answer->body;
  return answer->body;
}

// Asks `query` of trace 0 (in memory) and of the stores (1: imported as
// is, 2: imported with a writer that set its entities aside and merged
// them at the end); the bodies must be equal. Returns the first's.
std::string Same(httplib::Client& client, const std::string& query) {
  const std::string memory = Body(client, "/api/traces/0/" + query);
  for (const char* store : {"1", "2"}) EXPECT_EQ(memory, Body(client, "/api/traces/" + std::string(store) + "/" + query)) << store << ": " << query;
  return memory;
}

std::string Number(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

class LazyStoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new macroscope::testing::TempDir();
    const std::string trace = dir_->path() + "/generated.trace";
    const std::string store = dir_->path() + "/generated.mstore";
    // Few containers and many entities: stores of several chunks (65536
    // entities each), nested states streamed out of order (chunks with a
    // places column), links, variables, events.
    RunMacroscope("generate --depth 1 --arity 2 --events 1000000 --seed 11 --nested --nesting 3 --punctual --links "
                  "--variables --inner -o '" + trace + "'");
    RunMacroscope("import -q '" + trace + "' -o '" + store + "'");
    const std::string spilled = dir_->path() + "/spilled.mstore";
    RunMacroscope("import -q --max-pending 3000 '" + trace + "' -o '" + spilled + "'");
    serve_ = new ServeProcess({trace, store, spilled, "--memory", "1MB"});
  }
  static void TearDownTestSuite() {
    delete serve_;
    delete dir_;
  }
  static macroscope::testing::TempDir* dir_;
  static ServeProcess* serve_;
};

macroscope::testing::TempDir* LazyStoreTest::dir_ = nullptr;
ServeProcess* LazyStoreTest::serve_ = nullptr;

TEST_F(LazyStoreTest, DescribesTheSameTrace) {
  auto client = serve_->Client();
  nlohmann::json memory = GetJson(*client, "/api/traces/0");
  for (const char* differs : {"id", "name", "format"}) memory.erase(differs);
  for (const char* id : {"1", "2"}) {
    nlohmann::json store = GetJson(*client, "/api/traces/" + std::string(id));
    for (const char* differs : {"id", "name", "format"}) store.erase(differs);
    EXPECT_EQ(memory, store) << id;
  }
}

TEST_F(LazyStoreTest, WindowsAtEveryZoomAreTheSame) {
  auto client = serve_->Client();
  const nlohmann::json details = GetJson(*client, "/api/traces/0");
  const double start = details["start"], end = details["end"];
  std::mt19937_64 random(5);
  std::set<std::string> ids;
  for (double zoom : {1.0, 0.3, 0.05, 0.002, 0.00005}) {
    for (int k = 0; k < 6; ++k) {
      const double length = (end - start) * zoom;
      const double from = start + std::uniform_real_distribution<double>(0, end - start - length)(random);
      const std::string query = "window?start=" + Number(from) + "&end=" + Number(from + length) + "&width=" +
                                std::to_string(200 + 300 * k);
      const nlohmann::json answer = nlohmann::json::parse(Same(*client, query));
      uint64_t largest_row = 0;
      for (const auto& row : answer["rows"]) {
        uint64_t entities = row["items"].size();
        for (const auto& item : row["items"]) ids.insert(item[0].get<std::string>());
        for (const auto& summary : row["summaries"]) entities += summary.back().get<uint64_t>();
        largest_row = std::max(largest_row, entities);
      }
      // The whole span: some store must span several chunks (65536 entities each).
      if (zoom == 1.0) {
        EXPECT_GT(largest_row, 2 * 65536u);
      }
    }
  }
  // Filtered: one container's rows, one type, some values.
  Same(*client, "window?start=" + Number(start) + "&end=" + Number(end) + "&width=700&containers=1");
  Same(*client, "window?start=" + Number(start) + "&end=" + Number(start + (end - start) / 100) +
                    "&width=700&types=2");
  Same(*client, "window?start=" + Number(start) + "&end=" + Number(end) + "&width=500&values=value%201,value%203");
  // Every entity a window showed, in full.
  ASSERT_GT(ids.size(), 100u);
  size_t asked = 0;
  for (const std::string& id : ids) {
    if (asked++ % 7 == 0) Same(*client, "entity/" + id);
  }
}

TEST_F(LazyStoreTest, OverviewsAndStatisticsAreTheSame) {
  auto client = serve_->Client();
  const nlohmann::json details = GetJson(*client, "/api/traces/0");
  const double start = details["start"], end = details["end"];
  Same(*client, "aggregate?slices=40");
  Same(*client, "aggregate?slices=30&start=" + Number(start + (end - start) * 0.4) +
                    "&end=" + Number(start + (end - start) * 0.41));
  Same(*client, "aggregate?slices=20&metric=event-count&mode=spatiotemporal");
  Same(*client, "aggregate?slices=20&metric=variable-mean");
  Same(*client, "aggregate?slices=20&metric=link-count");
  // Over bins, as the workbench asks: from the summaries where they serve.
  Same(*client, "aggregate?slices=100&bins=1");
  Same(*client, "aggregate?slices=64&bins=1&metric=state-count&mode=spatiotemporal");
  Same(*client, "aggregate?slices=30&bins=1&metric=link-count&start=" + Number(start + (end - start) * 0.1) +
                    "&end=" + Number(start + (end - start) * 0.7));
  Same(*client, "plist?slices=50&bins=1&metric=variable-max");
  Same(*client, "stats");
  Same(*client, "stats?start=" + Number(start + (end - start) * 0.2) + "&end=" + Number(start + (end - start) * 0.21));
  Same(*client, "stats?containers=2");
}

TEST_F(LazyStoreTest, SearchAndUnknownEntitiesAreTheSame) {
  auto client = serve_->Client();
  Same(*client, "search?q=value%202&limit=50");
  Same(*client, "search?q=no-such-value");
  for (const std::string id : {"0:999999999", "999:0", "1:18446744073709551615"}) {
    for (const char* trace : {"0", "1", "2"}) {
      auto answer = client->Get("/api/traces/" + std::string(trace) + "/entity/" + id);
      ASSERT_TRUE(answer);
      EXPECT_EQ(answer->status, 404) << trace << " " << id;
      EXPECT_EQ(answer->body, "{\"error\":\"unknown entity " + id + "\"}");
    }
  }
}

}  // namespace
}  // namespace macroscope::server::testing
