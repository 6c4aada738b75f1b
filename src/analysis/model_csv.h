// Reading a microscopic model from CSV.
//
// One row per cell: resource,slice,type,value
//   resource  slash path from the root to the leaf ("site/cluster/node3");
//             a leading '/' is allowed. A resource that is also the parent
//             of another resource keeps its own values on a "(self)" child.
//   slice     0-based integer
//   type      any name
//   value     finite number >= 0
// An optional first line names the columns, in any order, with exactly the
// four names above. Fields may be double-quoted ("a,b" or "say ""x"""),
// blanks around fields are ignored, empty lines and lines starting with '#'
// are skipped. Repeated cells add up. Resources and types keep the order of
// their first appearance.
//
// Errors (UserError "file:line: message"): bad number, negative or
// non-finite value, unknown or missing column in the header, a row without
// exactly four columns, a slice >= `slices` when given or >= kMaxSlices,
// an empty path component, no data rows at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/micro_model.h"

namespace macroscope::analysis {

// Aggregation tables grow as |T|^2: more slices than this is a user error.
inline constexpr int32_t kMaxSlices = 100000;

// `slices`: the model's |T|; by default the largest slice + 1.
MicroModel ParseModelCsv(std::string_view text, std::string_view file_name,
                         std::optional<int32_t> slices);

// Reads `path` ("-" for standard input). Throws UserError when it cannot.
MicroModel ReadModelCsv(const std::string& path, std::optional<int32_t> slices);

}  // namespace macroscope::analysis
