// The quality curves panel: gain and loss of the optimal partition against
// p, each divided by the full aggregate's (so both end at 1), drawn as
// steps from the exact p list (entry k holds from its p up to the next
// one's). The chosen p is a vertical line labelled with its part count.
// When the breakpoints crowd near 0 (the first non-zero one under 0.05),
// p is on a log scale.
#pragma once

#include <vector>

#include "analysis/p_list.h"
#include "render/canvas.h"

namespace macroscope::render {

void DrawQualityCurves(Canvas& canvas, const Rect& area,
                       const std::vector<analysis::PListEntry>& list,
                       const analysis::Quality& full_aggregate, double chosen_p,
                       int64_t chosen_parts);

}  // namespace macroscope::render
