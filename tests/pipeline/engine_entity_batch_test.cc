// EntityBatch: chunks appended whole or an entity at a time, joining the
// last chunk when their (container, type) match, names and user fields
// kept, and Clear() reusing the batch for other entities.
#include <gtest/gtest.h>

#include "entity_testing.h"

namespace macroscope::pipeline {
namespace {

using testing::Lines;
using testing::TestEntity;

// A trace with a state type and an event type in two containers.
struct Fixture {
  std::shared_ptr<Trace> trace = std::make_shared<Trace>();
  TypeId state, event;
  ContainerId a, b;
  StringId Id(std::string_view text) { return trace->strings().Intern(text); }

  Fixture() {
    const TypeId node = trace->AddType(kRootType, TypeKind::kContainer, Id("Node"), kEmptyString);
    state = trace->AddType(node, TypeKind::kState, Id("S"), kEmptyString);
    event = trace->AddType(node, TypeKind::kEvent, Id("E"), kEmptyString);
    a = trace->AddContainer(kRootContainer, node, Id("a"), kEmptyString, 0);
    b = trace->AddContainer(kRootContainer, node, Id("b"), kEmptyString, 0);
  }
  // A store of states [i, i + 1] with values v<i>, the second with a user field.
  EntityStore States(ContainerId c, int n) {
    EntityStore s;
    s.container = c;
    s.type = state;
    s.kind = TypeKind::kState;
    for (int i = 0; i < n; ++i) {
      s.start.push_back(i);
      s.end.push_back(i + 1);
      s.value.push_back(Id("v" + std::to_string(i)));
      s.level.push_back(0);
    }
    const ExtraField field{Id("f"), Id("x")};
    s.extras.SetStart(1, s.extras.AddList(std::span(&field, 1)));
    return s;
  }
};

TEST(EntityBatch, AppendsWholeChunksWithTheirNamesAndFields) {
  Fixture f;
  const EntityStore sa = f.States(f.a, 3), sb = f.States(f.b, 2);
  EntityBatch batch;
  batch.trace = f.trace;
  batch.Append(EntityChunk::Of(*f.trace, sa));
  batch.Append(EntityChunk::Of(*f.trace, sb));
  batch.Append(EntityChunk::Of(*f.trace, sb, 0, 0));  // an empty chunk adds nothing
  ASSERT_EQ(batch.chunks(), 2u);
  EXPECT_EQ(batch.entities(), 5u);
  const EntityChunk c = batch.chunk(1);
  EXPECT_EQ(c.kind, TypeKind::kState);
  EXPECT_EQ(c.container, f.b);
  EXPECT_EQ(c.type, f.state);
  EXPECT_EQ(batch.Str(c.type_name), "S");
  EXPECT_EQ(batch.Str(c.container_name), "b");
  EXPECT_EQ(Lines(batch), (std::vector<std::string>{"state|S|a|0|1|v=v0|l=0", "state|S|a|1|2|v=v1|l=0|f=x",
                                                    "state|S|a|2|3|v=v2|l=0", "state|S|b|0|1|v=v0|l=0",
                                                    "state|S|b|1|2|v=v1|l=0|f=x"}));
}

TEST(EntityBatch, SingleEntitiesAndPartsJoinTheLastChunkOfTheirStore) {
  Fixture f;
  const EntityStore sa = f.States(f.a, 3), sb = f.States(f.b, 2);
  const EntityChunk ca = EntityChunk::Of(*f.trace, sa), cb = EntityChunk::Of(*f.trace, sb);
  EntityBatch batch;
  batch.trace = f.trace;
  batch.Append(ca, 2);
  batch.Append(ca, 1);           // joins
  batch.Append(cb.Sub(1, 1));    // another container: a new chunk
  batch.Append(ca.Sub(0, 2));    // back to a: a new chunk, only the last one joins
  batch.Append(ca, 1);           // joins
  ASSERT_EQ(batch.chunks(), 3u);
  EXPECT_EQ(batch.entities(), 6u);
  EXPECT_EQ(batch.chunk(0).size(), 2u);
  EXPECT_EQ(batch.chunk(1).size(), 1u);
  EXPECT_EQ(batch.chunk(2).size(), 3u);
  EXPECT_EQ(Lines(batch), (std::vector<std::string>{"state|S|a|2|3|v=v2|l=0", "state|S|a|1|2|v=v1|l=0|f=x",
                                                    "state|S|b|1|2|v=v1|l=0|f=x", "state|S|a|0|1|v=v0|l=0",
                                                    "state|S|a|1|2|v=v1|l=0|f=x", "state|S|a|1|2|v=v1|l=0|f=x"}));
}

TEST(EntityBatch, ClearKeepsNothingOfTheEntitiesBefore) {
  Fixture f;
  const EntityStore sa = f.States(f.a, 3);
  EntityBatch batch;
  batch.trace = f.trace;
  batch.Append(EntityChunk::Of(*f.trace, sa));
  batch.Append(EntityChunk::Of(*f.trace, f.States(f.b, 2)));
  batch.Clear();
  EXPECT_TRUE(batch.empty());
  EXPECT_EQ(batch.chunks(), 0u);
  EXPECT_EQ(batch.entities(), 0u);
  // Events, without fields, in the memory the states used: no state
  // column, no field left over.
  const std::vector<TestEntity> events = {{.container = f.a, .type = f.event, .start = 7, .value = f.Id("e")},
                                          {.container = f.a, .type = f.event, .start = 8, .value = f.Id("e")}};
  testing::AppendEntities(batch, events);
  ASSERT_EQ(batch.chunks(), 1u);
  EXPECT_TRUE(batch.chunk(0).end.empty());
  EXPECT_TRUE(batch.chunk(0).level.empty());
  EXPECT_EQ(Lines(batch), (std::vector<std::string>{"event|E|a|7|7|v=e", "event|E|a|8|8|v=e"}));
  // And states again, fields included.
  batch.Clear();
  batch.Append(EntityChunk::Of(*f.trace, sa), 1);
  EXPECT_EQ(Lines(batch), std::vector<std::string>{"state|S|a|1|2|v=v1|l=0|f=x"});
}

}  // namespace
}  // namespace macroscope::pipeline
