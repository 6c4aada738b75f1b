#include "analysis/micro_model.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "util/error.h"

namespace macroscope::analysis {
namespace {

MicroModel TwoSites() {
  Hierarchy tree;
  NodeId n1 = tree.AddPath("site/c1/n1");
  NodeId n2 = tree.AddPath("site/c1/n2");
  NodeId n3 = tree.AddPath("site/c2/n3");
  MicroModel model(std::move(tree), {"run", "wait"}, 4);
  model.Add(n1, 0, 0, 1);
  model.Add(n1, 0, 1, 2);
  model.Add(n1, 0, 1, 3);
  model.Add(n2, 1, 3, 4);
  model.Add(n3, 0, 2, 5);
  return model;
}

TEST(HierarchyTest, PathsAndOrder) {
  Hierarchy tree;
  NodeId n1 = tree.AddPath("site/c1/n1");
  NodeId n2 = tree.AddPath("site/c2/n2");
  EXPECT_EQ(tree.Path(n1), "site/c1/n1");
  EXPECT_EQ(tree.Path(Hierarchy::kRoot), "");
  EXPECT_EQ(tree.FindPath("site/c2/n2"), n2);
  EXPECT_FALSE(tree.FindPath("site/c3"));
  EXPECT_EQ(tree.Leaves(), (std::vector<NodeId>{n1, n2}));
  auto post = tree.PostOrder();
  EXPECT_EQ(post.back(), Hierarchy::kRoot);
  EXPECT_THROW(tree.AddPath("site//x"), std::invalid_argument);
  EXPECT_THROW(tree.AddChild(Hierarchy::kRoot, "site"), std::invalid_argument);
  NodeId c1 = *tree.FindPath("site/c1");
  NodeId self = tree.LeafFor(c1);
  EXPECT_EQ(tree.Path(self), "site/c1/(self)");
  EXPECT_EQ(tree.LeafFor(c1), self);
}

TEST(MicroModelTest, AddAccumulatesAndSkipsZeroSeries) {
  MicroModel model = TwoSites();
  NodeId n1 = *model.hierarchy().FindPath("site/c1/n1");
  EXPECT_EQ(model.Value(n1, 0, 1), 5);
  EXPECT_EQ(model.NonZeroSeriesCount(), 3);
  EXPECT_TRUE(model.Series(*model.LeafIndex(n1), 1).empty());
  EXPECT_THROW(model.Add(n1, 0, 0, -1), std::invalid_argument);
  EXPECT_THROW(model.Add(n1, 0, 4, 1), std::invalid_argument);
  EXPECT_THROW(model.Add(Hierarchy::kRoot, 0, 0, 1), std::invalid_argument);
}

TEST(MicroModelTest, CoarsenSumsConsecutiveSlices) {
  MicroModel model = TwoSites();
  model.set_range({0, 8, {}});
  MicroModel coarse = model.Coarsen(2);
  NodeId n1 = *coarse.hierarchy().FindPath("site/c1/n1");
  NodeId n2 = *coarse.hierarchy().FindPath("site/c1/n2");
  EXPECT_EQ(coarse.slices(), 2);
  EXPECT_EQ(coarse.Value(n1, 0, 0), 6);
  EXPECT_EQ(coarse.Value(n2, 1, 1), 4);
  EXPECT_EQ(coarse.range()->end, 8);
  EXPECT_THROW(model.Coarsen(3), std::invalid_argument);
}

TEST(MicroModelTest, SelectTypesAndContainers) {
  MicroModel model = TwoSites();
  MicroModel waits = model.SelectTypes({"wait"});
  EXPECT_EQ(waits.type_count(), 1);
  EXPECT_EQ(waits.NonZeroSeriesCount(), 1);
  EXPECT_THROW(model.SelectTypes({"sleep"}), UserError);

  MicroModel c1 = model.SelectContainers({"site/c1"});
  EXPECT_EQ(c1.leaf_count(), 2);
  EXPECT_FALSE(c1.hierarchy().FindPath("site/c2"));
  NodeId n1 = *c1.hierarchy().FindPath("site/c1/n1");
  EXPECT_EQ(c1.Value(n1, 0, 1), 5);
  EXPECT_THROW(model.SelectContainers({"site/c9"}), UserError);
}

}  // namespace
}  // namespace macroscope::analysis
