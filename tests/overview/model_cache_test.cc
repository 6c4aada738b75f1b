// The model cache: exact and coarsened reuse, keys, damaged entries, and
// the CLI not re-reading the trace for another p or a dividing slice count.
#include "analysis/model_cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace macroscope::analysis {
namespace {

MicroModel SmallModel(int32_t slices) {
  Hierarchy h;
  NodeId a = h.AddPath("site/a");
  NodeId b = h.AddPath("site/b");
  h.AddPath("site/empty");
  MicroModel m(std::move(h), {"S:x", "S:y"}, slices);
  for (int32_t t = 0; t < slices; ++t) {
    m.Add(a, 0, t, 1 + t);
    m.Add(b, 1, t, 0.5 * t);
  }
  m.set_range({0, 10, {}});
  return m;
}

std::string FreshDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/model_cache_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(ModelCache, ExactAndCoarsenedReuse) {
  ModelCache cache(FreshDir("reuse"));
  MicroModel m = SmallModel(12);
  ASSERT_TRUE(cache.Store("k", m));
  auto exact = cache.Find("k", 12, false);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->hierarchy().size(), m.hierarchy().size());  // empty leaves survive
  EXPECT_EQ(exact->types(), m.types());
  auto a = *m.hierarchy().FindPath("site/a");
  EXPECT_EQ(exact->Value(a, 0, 11), 12);
  auto coarse = cache.Find("k", 4, true);
  ASSERT_TRUE(coarse);
  EXPECT_EQ(coarse->slices(), 4);
  EXPECT_EQ(coarse->Value(a, 0, 0), 1 + 2 + 3);
  EXPECT_FALSE(cache.Find("k", 4, false));  // non-additive metrics reuse exact counts only
  EXPECT_FALSE(cache.Find("k", 5, true));   // 5 does not divide 12
  EXPECT_FALSE(cache.Find("other key", 12, true));
}

TEST(ModelCache, DamagedEntryIsAMiss) {
  std::string dir = FreshDir("damaged");
  ModelCache cache(dir);
  ASSERT_TRUE(cache.Store("k", SmallModel(6)));
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    auto size = std::filesystem::file_size(e.path());
    std::filesystem::resize_file(e.path(), size - 5);
  }
  EXPECT_FALSE(cache.Find("k", 6, true));
  EXPECT_FALSE(ModelCache("").Find("k", 6, true));
}

TEST(ModelCache, SecondAggregationDoesNotReadTheTrace) {
  std::string dir = FreshDir("cli");
  std::string trace = dir + ".trace";
  std::string bin = MACROSCOPE_BINARY;
  ASSERT_EQ(std::system((bin + " generate --depth 2 --arity 3 --events 2000 -o '" + trace + "'").c_str()), 0);
  auto timings = [&](const std::string& args) {
    std::string err = dir + ".err";
    std::string command = bin + " aggregate '" + trace + "' --cache '" + dir + "' --timings " + args +
                          " > /dev/null 2> '" + err + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream in(err);
    return nlohmann::json::parse(in);
  };
  EXPECT_FALSE(timings("--slices 30 --p 0.2")["model_from_cache"].get<bool>());
  EXPECT_TRUE(timings("--slices 30 --p 0.7")["model_from_cache"].get<bool>());
  EXPECT_TRUE(timings("--slices 10 --plist --mode spatiotemporal")["model_from_cache"].get<bool>());
  EXPECT_FALSE(timings("--slices 30 --p 0.2 --metric variable-mean")["model_from_cache"].get<bool>());
}

}  // namespace
}  // namespace macroscope::analysis
