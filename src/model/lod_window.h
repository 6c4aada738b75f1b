// The entities of a store that meet a time window or a run of bins, read
// from its level-of-detail summary (model/lod_summary.h) instead of its
// chunks: the one way the window (server/window.h), the statistics of a
// window (analysis/state_statistics.h) and the overview's model
// (analysis/trace_model.h) use a summary.
#pragma once

#include <cstdint>
#include <functional>

#include "model/entity_source.h"
#include "model/lod_summary.h"
#include "model/time_bins.h"

namespace macroscope {

struct LodWindow {
  double start = 0, end = 0;  // the window, closed
  int level = 0;              // the bins read: at most the summary's finest
  // A cell holding an entity at least this long is read entity by entity
  // (the window's items).
  double whole_cells_below = 0;
};

// Every entity of store `k` that meets the window, once: as `entity(e)`
// (the crossers of levels up to the window's, and the entities of the
// bins read from the chunks: those of the window's first and last bins
// when some reach out of the window, and those holding an entity
// whole_cells_below long), or inside `cell(bin, c)` (the bins' other cells,
// whose entities all meet the window). `source` reads the chunks; `bins`
// are the trace's.
void ForEachInWindow(const LodSummary& summary, const EntitySource& source, uint32_t k, const TimeBins& bins,
                     const LodWindow& window, const std::function<void(const EntityCopy&)>& entity,
                     const std::function<void(const LodCell&)>& cell);

// Every entity of a store lying in bins [first_bin, last_bin] of `level`
// (at most the summary's finest), once: as `entity(e)` for the crossers of
// levels up to `level` that reach into those bins (an entity in several
// of them, once), or inside `cell(c)` for the cells of those bins. Bins
// decide by positions alone: no chunk is read (the overview's model,
// analysis/trace_model.h, whose slices are bins).
void ForEachInBins(const LodSummary& summary, const TimeBins& bins, int level, uint64_t first_bin, uint64_t last_bin,
                   const std::function<void(const EntityCopy&)>& entity,
                   const std::function<void(const LodCell&)>& cell);

}  // namespace macroscope
