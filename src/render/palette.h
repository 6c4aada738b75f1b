// Colours of the overview pictures.
//
// - Part colours come from a fixed palette indexed by the part's position
//   (first part 0, next 1, ...), so colours stay put when p changes and
//   neighbouring parts always differ.
// - Type colours are stable per type name: a hash of the name (FNV-1a)
//   picks a colour of a 20-colour qualitative palette, so a type has the
//   same colour in every picture. Within one picture, TypeColors() moves a
//   type whose colour is already taken to the next free one (in name
//   order), so two types never share a colour while there are free ones.
// - Black is reserved for merged small types (visual aggregation); text is
//   dark grey, never black.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::render {

struct Color {
  double r = 0, g = 0, b = 0, a = 1;
  Color WithAlpha(double alpha) const { return {r, g, b, alpha}; }
};

inline constexpr Color kWhite{1, 1, 1, 1};
inline constexpr Color kMergedColor{0, 0, 0, 1};  // reserved: merged small types
inline constexpr Color kTextColor{0.13, 0.13, 0.13, 1};
inline constexpr Color kMutedTextColor{0.40, 0.40, 0.40, 1};
inline constexpr Color kAxisColor{0.45, 0.45, 0.45, 1};
inline constexpr Color kGridColor{0.88, 0.88, 0.88, 1};
inline constexpr Color kGainColor{0.12, 0.42, 0.75, 1};
inline constexpr Color kLossColor{0.82, 0.22, 0.16, 1};

// Number of colours of the part palette.
int PartPaletteSize();
// Colour of the part at `position` (0-based, in partition order).
Color PartColor(int64_t position);

// Number of colours of the type palette.
int TypePaletteSize();
// The stable colour of a type name (no collision handling).
Color TypeColor(std::string_view name);
// Colours of the types of one picture, in the order of `names`: each the
// stable colour of its name unless another type of the picture took it.
std::vector<Color> TypeColors(const std::vector<std::string>& names);

}  // namespace macroscope::render
