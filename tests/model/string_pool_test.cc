#include "model/string_pool.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace macroscope
