#include "render/palette.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace macroscope::render {
namespace {

auto Key(const Color& c) { return std::make_tuple(c.r, c.g, c.b); }

TEST(PaletteTest, TypeColourDependsOnTheNameOnly) {
  EXPECT_EQ(Key(TypeColor("State:running")), Key(TypeColor("State:running")));
  // The same type keeps its colour whatever else the picture holds, unless
  // another type of the picture took its slot.
  auto alone = TypeColors({"State:running"});
  EXPECT_EQ(Key(alone[0]), Key(TypeColor("State:running")));
}

TEST(PaletteTest, TypesOfOnePictureGetDistinctColoursWhileThereAreEnough) {
  std::vector<std::string> names;
  for (int i = 0; i < TypePaletteSize(); ++i) names.push_back("type" + std::to_string(i));
  auto colors = TypeColors(names);
  std::set<std::tuple<double, double, double>> distinct;
  for (const auto& c : colors) distinct.insert(Key(c));
  EXPECT_EQ(distinct.size(), names.size());
  // Order of the names does not change anyone's colour.
  std::vector<std::string> reversed(names.rbegin(), names.rend());
  auto again = TypeColors(reversed);
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(Key(colors[i]), Key(again[names.size() - 1 - i]));
  }
}

TEST(PaletteTest, NoTypeOrPartColourIsTheReservedBlack) {
  for (int i = 0; i < TypePaletteSize(); ++i) {
    auto c = TypeColors({"t" + std::to_string(i)})[0];
    EXPECT_GT(c.r + c.g + c.b, 0.2);
  }
  for (int i = 0; i < PartPaletteSize(); ++i) EXPECT_GT(PartColor(i).r + PartColor(i).g, 0.5);
}

TEST(PaletteTest, PartColoursFollowPositionAndNeighboursDiffer) {
  for (int i = 0; i + 1 < 3 * PartPaletteSize(); ++i) {
    EXPECT_NE(Key(PartColor(i)), Key(PartColor(i + 1)));
    EXPECT_EQ(Key(PartColor(i)), Key(PartColor(i + PartPaletteSize())));
  }
}

}  // namespace
}  // namespace macroscope::render
