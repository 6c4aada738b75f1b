#include "render/palette.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace macroscope::render {

namespace {

constexpr Color Rgb(int r, int g, int b) { return {r / 255.0, g / 255.0, b / 255.0, 1}; }

// Light, clearly distinct tones: the partition band must read as a
// sequence of blocks, not compete with the type colours.
constexpr std::array<Color, 6> kPartPalette = {
    Rgb(166, 206, 227), Rgb(253, 191, 111), Rgb(178, 223, 138),
    Rgb(202, 178, 214), Rgb(251, 154, 153), Rgb(255, 237, 160),
};

// A 20-colour qualitative palette (saturated then light tones), without
// black or near-greys that would read as the merged band or as text.
constexpr std::array<Color, 20> kTypePalette = {
    Rgb(31, 119, 180),  Rgb(255, 127, 14),  Rgb(44, 160, 44),   Rgb(214, 39, 40),
    Rgb(148, 103, 189), Rgb(140, 86, 75),   Rgb(227, 119, 194), Rgb(188, 189, 34),
    Rgb(23, 190, 207),  Rgb(255, 187, 120), Rgb(152, 223, 138), Rgb(255, 152, 150),
    Rgb(197, 176, 213), Rgb(196, 156, 148), Rgb(247, 182, 210), Rgb(219, 219, 141),
    Rgb(158, 218, 229), Rgb(174, 199, 232), Rgb(0, 90, 70),     Rgb(120, 40, 90),
};

uint32_t Fnv1a(std::string_view text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

int TypeSlot(std::string_view name) { return static_cast<int>(Fnv1a(name) % kTypePalette.size()); }

}  // namespace

int PartPaletteSize() { return static_cast<int>(kPartPalette.size()); }

Color PartColor(int64_t position) {
  const int64_t n = static_cast<int64_t>(kPartPalette.size());
  return kPartPalette[static_cast<size_t>(((position % n) + n) % n)];
}

int TypePaletteSize() { return static_cast<int>(kTypePalette.size()); }

Color TypeColor(std::string_view name) { return kTypePalette[TypeSlot(name)]; }

std::vector<Color> TypeColors(const std::vector<std::string>& names) {
  // Assign in name order so that the result does not depend on the order
  // of `names`, only on the set of names.
  std::vector<size_t> order(names.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return names[a] < names[b]; });
  std::vector<int> taken(kTypePalette.size(), 0);
  std::vector<Color> colors(names.size());
  const int n = static_cast<int>(kTypePalette.size());
  for (size_t index : order) {
    int slot = TypeSlot(names[index]);
    // More types than colours: share, starting over from the stable slot.
    const int round = *std::min_element(taken.begin(), taken.end());
    for (int step = 0; step < n; ++step) {
      if (taken[(slot + step) % n] <= round) {
        slot = (slot + step) % n;
        break;
      }
    }
    ++taken[slot];
    colors[index] = kTypePalette[slot];
  }
  return colors;
}

}  // namespace macroscope::render
