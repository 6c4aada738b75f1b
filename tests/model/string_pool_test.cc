#include "model/string_pool.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>

namespace macroscope {
namespace {

TEST(StringPool, InternsOnceAndKeepsViewsStable) {
  StringPool pool;
  EXPECT_EQ(pool.Intern(""), kEmptyString);
  StringId a = pool.Intern("alpha");
  std::string_view first = pool.View(a);
  for (int i = 0; i < 100000; ++i) pool.Intern(std::string("s").append(std::to_string(i)));  // forces growth
  EXPECT_EQ(pool.Intern("alpha"), a);
  EXPECT_EQ(pool.View(a).data(), first.data());
  EXPECT_EQ(pool.Find("s99999"), pool.Intern("s99999"));
  EXPECT_EQ(pool.Find("absent"), StringPool::kNoId);
  EXPECT_EQ(pool.size(), 100002u);
}

// Short strings are cached by their bytes packed in a word: strings of one
// alphabet that differ in one byte anywhere, or only in length, each keep
// their own id however often and in whatever order they come.
TEST(StringPool, ShortStringsKeepTheirIds) {
  StringPool pool;
  std::unordered_map<std::string, StringId> ids;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 400000; ++i) {
    std::string s(1 + rng() % 10, 'a');
    for (char& c : s) c = "ab\0"[rng() % 3];
    const StringId id = pool.Intern(s);
    auto [it, added] = ids.emplace(s, id);
    ASSERT_EQ(it->second, id) << s;
    ASSERT_EQ(pool.View(id), s);
  }
  EXPECT_EQ(pool.size(), ids.size() + 1);
}

}  // namespace
}  // namespace macroscope
