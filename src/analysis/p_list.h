// Significant p values: the p in [0, 1] at which the optimal partition
// changes, each with the quality of the partition that is optimal from that
// p up to the next one. The first entry is always p = 0.
//
// Two methods, both driven only by Aggregation::Evaluate (the best-cut step):
//
// - Exact (default). Design: the optimum as a function of p is
//   f(p) = max over partitions P of (-loss(P) + p (gain(P) + loss(P))), the
//   upper envelope of lines, hence convex piecewise linear. Given the optima
//   A at pa and B at pb (A != B), their lines cross at p*. Evaluating at p*
//   either finds nothing above both lines there, so p* is a breakpoint where
//   A gives way to B, or a partition C above them, which splits the problem
//   into (A, C) and (C, B). Each evaluation finds a new partition or a
//   breakpoint, so k distinct optimal partitions cost at most 2k - 1
//   evaluations and no threshold is involved: the breakpoints are exact up
//   to rounding.
// - Dichotomy (the seed's baseline): evaluate the ends of [p1, p2]; if the
//   qualities differ, split at the middle until p2 - p1 < threshold. A
//   partition optimal on a range narrower than the threshold can be missed,
//   and each reported p is the right end of the final bracket.
//
// Qualities are compared with the tolerance of the tie rule, scaled to the
// full aggregate.
#pragma once

#include <vector>

#include "analysis/aggregation.h"

namespace macroscope::analysis {

struct PListEntry {
  double p = 0;
  Quality quality;
};

// `cancel` is polled before each evaluation (and inside it): once set, the
// call throws Cancelled.
std::vector<PListEntry> SignificantPsExact(const Aggregation& aggregation, const Cancellation* cancel = nullptr);

// Throws std::invalid_argument unless threshold > 0.
std::vector<PListEntry> SignificantPsDichotomy(const Aggregation& aggregation, double threshold);

// The overview's p when none is given: among the significant partitions
// of `list` (SignificantPsExact's), the one whose normalised gain exceeds
// its normalised loss the most (the knee of the quality curves: both are 0
// for the finest partition and 1 for `full`, the full aggregate), taken at
// the middle of the p range over which it is optimal, away from the ties
// at the breakpoints. Ties go to fewer parts; 0.5 for an empty list.
double KneeP(const std::vector<PListEntry>& list, const Quality& full);

}  // namespace macroscope::analysis
