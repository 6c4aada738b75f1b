// Index of the intervals [i, j], 0 <= i <= j < n, stored row by row
// (row i holds j = i..n-1 contiguously).
#pragma once

#include <cstddef>
#include <cstdint>

namespace macroscope::analysis {

inline size_t TriangleSize(int32_t n) { return static_cast<size_t>(n) * (n + 1) / 2; }

inline size_t TriangleRow(int32_t n, int32_t i) {
  return static_cast<size_t>(i) * (2 * static_cast<size_t>(n) - i + 1) / 2;
}

inline size_t TriangleIndex(int32_t n, int32_t i, int32_t j) { return TriangleRow(n, i) + (j - i); }

}  // namespace macroscope::analysis
