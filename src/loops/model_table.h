// The model as a result table (analysis/table.h): one row per phase, what
// `macroscope loops --emit csv` prints and the query's loops() gives
// (docs/loops.md, docs/query.md). Columns:
//
//   phase       0, 1, … in the order the phases regenerate the series
//   first, last the indices of the series' values the phase covers
//   kind        loop, literal (values listed) or recurrence
//   points      values covered (last - first + 1)
//   period      values per interval of a loop, or a recurrence's period;
//               empty when a loop's intervals vary in size, and for listed
//               values
//   intervals   a loop's count (its outermost index runs 0 … intervals - 1)
//   depth       nested loop dimensions (0 unless a loop)
//   exceptions  values in the phase the nest does not predict (--tolerance)
//   size        integers to write the phase down (its share of the model size)
//   nest        the phase's lines of the report: loops and bodies in t1, t2, …
//   unit        a time series' tick (s, ms, us, ns); empty otherwise
#pragma once

#include <string_view>

#include "analysis/table.h"
#include "loops/model.h"

namespace macroscope::loops {

analysis::Table PhaseTable(const Model& model, std::string_view unit);

}  // namespace macroscope::loops
