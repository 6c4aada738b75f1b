#include "loops/verify.h"

#include <algorithm>
#include <vector>

namespace macroscope::loops {

std::optional<Difference> FirstDifference(std::span<const int64_t> trace, const Model& model) {
  const std::vector<uint64_t> regenerated = Generate(model);
  const size_t common = std::min(trace.size(), regenerated.size());
  for (size_t i = 0; i < common; ++i) {
    const int64_t got = static_cast<int64_t>(regenerated[i]);
    if (got != trace[i]) {
      Difference d;
      d.index = static_cast<int64_t>(i);
      d.expected = trace[i];
      d.got = got;
      return d;
    }
  }
  if (trace.size() != regenerated.size()) {
    Difference d;
    d.index = static_cast<int64_t>(common);
    d.length_mismatch = true;
    d.expected_length = static_cast<int64_t>(trace.size());
    d.got_length = static_cast<int64_t>(regenerated.size());
    return d;
  }
  return std::nullopt;
}

}  // namespace macroscope::loops
