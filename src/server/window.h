// The space-time diagram of a time window with server-side level of detail
// (GET /api/traces/{t}/window, docs/serve.md).
//
// Design: with d = (end - start) / width the duration of a pixel, each row
// (container, entity type) gathers its entities that intersect the window
// into cells, one per (level, column). Columns are the time bins of the
// trace's span (model/time_bins.h) at the finest level whose bins are at
// least d wide (d to 2d): an entity's column is the bin of max(its start,
// window start). An entity at least a column long is an item (states,
// variables, links; at most kMaxItemsPerColumn per cell, the rest are
// merged). A smaller one
// is merged into its cell, which keeps the extent, the count, and the value
// with the most time (summed exactly) or the most entities (events), or
// the min and max (variables). An event alone in its column is an item.
// Every entity of the window is counted once, in `shown` or in `hidden`.
// Cells do not depend on the window's edges, nor on the order entities
// come in: a store's level-of-detail summaries can hold them, and a row
// with a summary deep enough is answered from it (AddFromSummary).
//
// Cost: a window over a quarter of the trace or more reads each store in
// order (a sequential pass beats the index's tree walk when most entities
// qualify); a narrower one asks the interval index, O(log n + k), of a
// store in memory, or reads the chunks of a store on disk whose time range
// meets the window (model/entity_source.h); a store on disk with a
// level-of-detail summary deep enough is read from its cells instead,
// O(columns) a row: the blocks of cells meeting the window's bins, whatever
// its width (model/lod_window.h). Entities are copied out of their chunks into the
// answer's items, so a chunk may go once read.
// Cells are reused from row to row and only touched ones are reset, so the
// answer costs O(k + primitives), and holds O(width x levels) primitives
// per row whatever k is. Rows over many entities are split into runs of
// whole containers gathered by one thread each; once the table of the
// values they use is known, each thread writes its rows, and the texts are
// appended in order.
//
// The answer is compact (a wide window holds hundreds of thousands of
// primitives): items and summaries are positional arrays, values indexes
// into the answer's table of value names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/cancellation.h"
#include "model/entity_source.h"
#include "model/trace.h"

namespace macroscope::server {

struct WindowRequest {
  double start = 0;
  double end = 0;
  int width = 0;                        // pixels, 1..kMaxWidth
  std::vector<ContainerId> containers;  // rows to answer (empty: all)
  std::vector<TypeId> types;            // entity types to keep (empty: all)
  std::vector<std::string> values;      // values to keep (empty: all; variables are kept)
};

inline constexpr int kMaxWidth = 8192;
inline constexpr int kMaxItemsPerColumn = 4;
// Items plus summaries of one answer; a window that would need more is
// refused (400), asking for fewer rows or fewer pixels.
inline constexpr size_t kMaxPrimitives = 1'000'000;

// The JSON answer. Throws ApiError: 400 for a bad window (start >= end,
// width out of range, too many primitives), 404 for an unknown container
// or type.
// Cancelled (analysis/cancellation.h) once `cancel` is set: it is polled
// between chunks.
std::string WindowJson(const EntitySource& source, const WindowRequest& request,
                       const analysis::Cancellation* cancel = nullptr);

}  // namespace macroscope::server
