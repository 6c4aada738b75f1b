// The server's cache of built aggregations keeps at most its bytes of
// those built (their models and qualities), the least recently used going
// first, and always the newest whatever its size.
#include "server/aggregation_cache.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "../analysis/test_models.h"
#include "analysis/make_aggregation.h"

namespace macroscope::server {
namespace {

// Spatiotemporal aggregations of one random model: each holds its
// qualities over nodes x intervals.
class Builds {
 public:
  AggregationCache::Entry operator()(const std::string& key) {
    ++built_[key];
    analysis::MicroModel model = analysis::testing::RandomModel(1, 64, 3, true, 0.2);
    auto aggregation = analysis::MakeAggregation(model, true, false, 1, nullptr);
    return std::make_shared<const BuiltAggregation>(std::move(model), std::move(aggregation));
  }
  int built(const std::string& key) { return built_[key]; }

 private:
  std::map<std::string, int> built_;
};

TEST(AggregationCacheTest, KeepsItsBytes) {
  Builds builds;
  const size_t one = builds("probe")->bytes();
  ASSERT_GT(one, 64u * 64u);  // qualities of 64 slices, per node
  // Room for two of them: a third drops the least recently used.
  AggregationCache cache(8, 2 * one + one / 2);
  auto get = [&](const std::string& key) { return cache.Get(key, [&] { return builds(key); }); };
  get("a");
  get("b");
  get("a");  // a is now the most recent
  EXPECT_EQ(builds.built("a"), 1);
  get("c");  // drops b
  get("a");
  EXPECT_EQ(builds.built("a"), 1);
  get("b");  // built again; drops c
  EXPECT_EQ(builds.built("b"), 2);
  get("c");
  EXPECT_EQ(builds.built("c"), 2);
  // A budget below one entry still keeps the newest.
  AggregationCache small(8, 1);
  auto kept = small.Get("x", [&] { return builds("x"); });
  small.Get("x", [&] { return builds("x"); });
  EXPECT_EQ(builds.built("x"), 1);
  EXPECT_GE(kept->bytes(), one);
}

}  // namespace
}  // namespace macroscope::server
