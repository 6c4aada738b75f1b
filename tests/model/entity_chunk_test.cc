// EntityChunk: the view of a run of a store's entities (columns, names,
// user fields), its parts, and copies appended to another store.
#include "model/entity_chunk.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace macroscope {
namespace {

// A trace with one container holding a state store of five states, the
// second and fourth with user fields (the fourth at its start and end).
class EntityChunkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StringPool& s = trace_.strings();
    const TypeId ct = trace_.AddType(kRootType, TypeKind::kContainer, s.Intern("Thread"), s.Intern("T"));
    type_ = trace_.AddType(ct, TypeKind::kState, s.Intern("Region"), s.Intern("R"));
    container_ = trace_.AddContainer(kRootContainer, ct, s.Intern("t0"), s.Intern("t0"), 0);
    EntityStore& store = trace_.Store(container_, type_);
    store.kind = TypeKind::kState;
    for (int i = 0; i < 5; ++i) {
      store.start.push_back(i * 10);
      store.end.push_back(i * 10 + 5);
      store.value.push_back(s.Intern("v" + std::to_string(i)));
      store.level.push_back(static_cast<uint16_t>(i % 2));
    }
    const ExtraField a{s.Intern("a"), s.Intern("1")}, b{s.Intern("b"), s.Intern("2")}, c{s.Intern("c"), s.Intern("3")};
    store.extras.SetStart(1, store.extras.AddList(std::vector<ExtraField>{a}));
    store.extras.SetStart(3, store.extras.AddList(std::vector<ExtraField>{b}));
    store.extras.SetEnd(3, store.extras.AddList(std::vector<ExtraField>{c}));
  }

  std::string Fields(const EntityChunk& chunk, size_t i) const {
    std::string out;
    chunk.ForEachField(i, [&](const ExtraField& f) {
      out += std::string(trace_.Str(f.name)) + "=" + std::string(trace_.Str(f.value)) + ";";
    });
    return out;
  }
  const EntityStore& store() const { return *trace_.FindStore(container_, type_); }

  Trace trace_;
  TypeId type_ = kNone;
  ContainerId container_ = kNone;
};

TEST_F(EntityChunkTest, ViewsARunOfTheStore) {
  const EntityChunk c = EntityChunk::Of(trace_, store(), 1, 4);
  EXPECT_EQ(c.kind, TypeKind::kState);
  EXPECT_EQ(c.container, container_);
  EXPECT_EQ(c.type, type_);
  EXPECT_EQ(c.store, 0u);
  EXPECT_EQ(trace_.Str(c.type_name), "Region");
  EXPECT_EQ(trace_.Str(c.container_name), "t0");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c.start[0], 10);
  EXPECT_EQ(c.End(2), 35);
  EXPECT_EQ(c.Duration(1), 5);
  EXPECT_EQ(trace_.Str(c.Value(2)), "v3");
  EXPECT_EQ(c.Level(0), 1);
  EXPECT_TRUE(c.number.empty());
  EXPECT_EQ(c.Number(0), 0);
  EXPECT_EQ(c.PeerStart(0), kNone);
  EXPECT_EQ(Fields(c, 0), "a=1;");
  EXPECT_EQ(Fields(c, 1), "");
  EXPECT_EQ(Fields(c, 2), "b=2;c=3;");  // the start list, then the end list
}

TEST_F(EntityChunkTest, PartsKeepTheirEntitiesFields) {
  const EntityChunk all = EntityChunk::Of(trace_, store());
  const EntityChunk part = all.Sub(3, 2);
  ASSERT_EQ(part.size(), 2u);
  EXPECT_EQ(part.start[0], 30);
  EXPECT_EQ(trace_.Str(part.Value(1)), "v4");
  EXPECT_EQ(Fields(part, 0), "b=2;c=3;");
  EXPECT_EQ(Fields(part, 1), "");
  EXPECT_EQ(part.type_name, all.type_name);
}

TEST_F(EntityChunkTest, CopiesAppendColumnsAndFields) {
  EntityStore copy;
  copy.kind = TypeKind::kState;
  const EntityChunk all = EntityChunk::Of(trace_, store());
  AppendChunk(copy, all.Sub(0, 2));
  AppendEntity(copy, all, 3);
  ASSERT_EQ(copy.size(), 3u);
  EXPECT_EQ(copy.start, (std::vector<double>{0, 10, 30}));
  EXPECT_EQ(copy.end, (std::vector<double>{5, 15, 35}));
  EXPECT_EQ(copy.level, (std::vector<uint16_t>{0, 1, 1}));
  const EntityChunk again = EntityChunk::Of(copy, 0, copy.size());
  EXPECT_EQ(again.store, kNone);
  EXPECT_EQ(Fields(again, 0), "");
  EXPECT_EQ(Fields(again, 1), "a=1;");
  EXPECT_EQ(Fields(again, 2), "b=2;c=3;");
}

TEST(EntityChunk, EventsHaveNoEndColumn) {
  EntityStore events;
  events.kind = TypeKind::kEvent;
  events.start = {1, 2};
  events.value = {kEmptyString, kEmptyString};
  const EntityChunk c = EntityChunk::Of(events, 0, 2);
  EXPECT_TRUE(c.end.empty());
  EXPECT_EQ(c.End(1), 2);
  EXPECT_EQ(c.Duration(0), 0);
  EXPECT_FALSE(c.HasFields());
}

}  // namespace
}  // namespace macroscope
