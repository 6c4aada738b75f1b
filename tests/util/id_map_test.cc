#include "util/id_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace macroscope {
namespace {

TEST(IdMapTest, EmptyFindsNothing) {
  IdMap<uint32_t> map;
  EXPECT_EQ(map.Find(0), nullptr);
  EXPECT_EQ(map.size(), 0u);
}

// Against std::map, through many doublings, with ids in runs (as interned
// keys come) and scattered.
TEST(IdMapTest, AgreesWithStdMap) {
  IdMap<uint32_t> map;
  std::map<uint32_t, uint32_t> expected;
  std::mt19937 random(7);
  for (uint32_t i = 0; i < 20000; ++i) {
    const uint32_t id = i % 3 == 0 ? random() % 100000 : 500000 + i;
    if (uint32_t* v = map.Find(id)) {
      ASSERT_EQ(*v, expected.at(id));
      *v += 1;
      expected[id] += 1;
    } else {
      ASSERT_EQ(expected.count(id), 0u);
      map.Insert(id, i);
      expected[id] = i;
    }
    ASSERT_EQ(map.size(), expected.size());
  }
  for (auto [id, value] : expected) ASSERT_EQ(*map.Find(id), value) << id;
  EXPECT_EQ(map.Find(400000), nullptr);
  size_t seen = 0;
  map.ForEach([&](uint32_t id, uint32_t value) {
    EXPECT_EQ(expected.at(id), value);
    ++seen;
  });
  EXPECT_EQ(seen, expected.size());
}

}  // namespace
}  // namespace macroscope
