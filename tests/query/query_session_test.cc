// What a query reads (query/entity_tables.h): a window, a container, an
// id read only the chunks of a store that may hold their rows, and give
// the rows a whole scan gives.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "analysis/table_writer.h"
#include "formats/format.h"
#include "query/query_session.h"
#include "store/store_source.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

// A store's source that counts the chunks it hands out.
class CountingSource : public EntitySource {
 public:
  explicit CountingSource(const EntitySource& inner) : inner_(inner) {}
  const Trace& trace() const override { return inner_.trace(); }
  uint64_t size(uint32_t k) const override { return inner_.size(k); }
  const EntityStore* in_memory(uint32_t k) const override { return inner_.in_memory(k); }
  size_t pieces(uint32_t k) const override { return inner_.pieces(k); }
  void VisitPiece(uint32_t k, size_t piece, double t1, double t2, const Visit& visit) const override {
    inner_.VisitPiece(k, piece, t1, t2, [&](const EntityChunk& c) {
      ++chunks;
      visit(c);
    });
  }
  bool Find(uint32_t k, uint64_t index, const std::function<void(const EntityChunk&, size_t)>& found) const override {
    return inner_.Find(k, index, [&](const EntityChunk& c, size_t i) {
      ++chunks;
      found(c, i);
    });
  }

  mutable std::atomic<uint64_t> chunks = 0;

 private:
  const EntitySource& inner_;
};

class QueryReadingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    store_ = dir_->path() + "/g.mstore";
    // 4 containers of 150,000 states: chunks of 4096 entities, about 37 a
    // store, each over a short time.
    CommandResult r = RunCommand(Quote(MACROSCOPE_BINARY) +
                                 " generate --depth 1 --arity 4 --events 600000 | " + Quote(MACROSCOPE_BINARY) +
                                 " import -q - -o " + Quote(store_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // The rows of `sql` as CSV, and how many chunks they took.
  static std::string Run(const std::string& sql, uint64_t& chunks) {
    store::StoreSource store(store_, store::CacheBudget::Scanning());
    CountingSource counting(store);
    query::QuerySession session(counting, {store_});
    const std::string csv = analysis::FormatTable(session.Query(sql), analysis::TableFormat::kCsv);
    chunks = counting.chunks;
    return csv;
  }

  static TempDir* dir_;
  static std::string store_;
};

TempDir* QueryReadingTest::dir_ = nullptr;
std::string QueryReadingTest::store_;

TEST_F(QueryReadingTest, AWindowReadsTheChunksThatMeetIt) {
  uint64_t all = 0, window = 0, scan = 0;
  const std::string whole = Run("SELECT count(*) FROM states", all);
  EXPECT_GT(all, 100u);
  // 1 % of the span, from the middle.
  const std::string bounds =
      "(SELECT start + (\"end\" - start) / 2 FROM trace_info) AND ts < (SELECT start + (\"end\" - start) * 51 / 100 "
      "FROM trace_info)";
  const std::string in_window = Run("SELECT value, count(*), sum(dur) FROM states WHERE \"end\" > " + bounds +
                                        " GROUP BY 1 ORDER BY 1",
                                    window);
  // The same rows when nothing is pushed down (a function of ts hides it).
  const std::string hidden =
      "(SELECT start + (\"end\" - start) / 2 FROM trace_info) AND ts + 0 < (SELECT start + (\"end\" - start) * 51 / "
      "100 FROM trace_info)";
  const std::string scanned = Run("SELECT value, count(*), sum(dur) FROM states WHERE \"end\" + 0 > " + hidden +
                                      " GROUP BY 1 ORDER BY 1",
                                  scan);
  EXPECT_EQ(in_window, scanned);
  EXPECT_EQ(scan, all);
  EXPECT_GT(window, 0u);
  EXPECT_LT(window * 10, all) << "a window of 1 % read " << window << " of " << all << " chunks";
}

// A trace in memory: a window reads the entities its stores' interval
// indexes find, no whole store, and gives the rows of a scan.
TEST_F(QueryReadingTest, AWindowInMemoryAsksTheIndex) {
  Trace trace;
  formats::ReadTrace({store_}, formats::ReadOptions(), trace);
  trace.BuildIndexes();
  TraceSource memory(trace);
  CountingSource counting(memory);
  query::QuerySession session(counting, {store_});
  auto csv = [&](const std::string& sql) {
    return analysis::FormatTable(session.Query(sql), analysis::TableFormat::kCsv);
  };
  const std::string window = csv(
      "SELECT value, count(*), sum(dur), min(id), max(id) FROM states WHERE \"end\" > (SELECT start + (\"end\" - "
      "start) / 2 FROM trace_info) AND ts < (SELECT start + (\"end\" - start) * 51 / 100 FROM trace_info) GROUP BY 1 "
      "ORDER BY 1");
  EXPECT_EQ(counting.chunks, 0u);  // no whole store visited
  const std::string scan = csv(
      "SELECT value, count(*), sum(dur), min(id), max(id) FROM states WHERE \"end\" + 0 > (SELECT start + (\"end\" "
      "- start) / 2 FROM trace_info) AND ts + 0 < (SELECT start + (\"end\" - start) * 51 / 100 FROM trace_info) "
      "GROUP BY 1 ORDER BY 1");
  EXPECT_GT(counting.chunks, 0u);
  EXPECT_EQ(window, scan);
  // And the same rows as the store gives.
  uint64_t read = 0;
  EXPECT_EQ(window, Run("SELECT value, count(*), sum(dur), min(id), max(id) FROM states WHERE \"end\" > (SELECT start "
                        "+ (\"end\" - start) / 2 FROM trace_info) AND ts < (SELECT start + (\"end\" - start) * 51 / "
                        "100 FROM trace_info) GROUP BY 1 ORDER BY 1",
                        read));
}

TEST_F(QueryReadingTest, AContainerAndAnIdReadTheirOwnChunks) {
  uint64_t all = 0, one = 0, by_id = 0;
  Run("SELECT count(*) FROM states", all);
  const std::string rows = Run("SELECT count(*) FROM states WHERE container = 2", one);
  EXPECT_NE(rows, "count(*)\n0\n");
  EXPECT_LT(one * 2, all);
  // The second state of container 2, by its id.
  const std::string middle = Run("SELECT min(id) + 1 FROM states WHERE container = 2", one);
  const std::string id = middle.substr(middle.find('\n') + 1, middle.size() - middle.find('\n') - 2);
  const std::string entity = Run("SELECT id, container FROM states WHERE id = " + id, by_id);
  EXPECT_EQ(by_id, 1u);
  EXPECT_EQ(entity, "id,container\n" + id + ",2\n");
  uint64_t none = 0;
  EXPECT_EQ(Run("SELECT count(*) FROM states WHERE value = 'no such value'", none), "count(*)\n0\n");
  EXPECT_EQ(none, 0u);
}

}  // namespace
}  // namespace macroscope::testing
