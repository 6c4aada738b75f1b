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

std::optional<Difference> FirstDifference(TraceReader& trace, const Model& model) {
  std::optional<Difference> found;
  std::vector<int64_t> expected;
  int64_t checked = 0;  // values compared so far
  GenerateInChunks(model, [&](std::span<const uint64_t> values, int64_t first) {
    if (found) return;
    expected.clear();
    const size_t got = trace.Read(expected, values.size());
    for (size_t i = 0; i < got; ++i) {
      if (static_cast<int64_t>(values[i]) != expected[i]) {
        found = Difference{};
        found->index = first + static_cast<int64_t>(i);
        found->expected = expected[i];
        found->got = static_cast<int64_t>(values[i]);
        return;
      }
    }
    checked = first + static_cast<int64_t>(got);
    if (got < values.size()) {
      found = Difference{};
      found->length_mismatch = true;
      found->index = checked;
      found->expected_length = checked;
      found->got_length = model.length;
    }
  });
  if (found) return found;
  // The model ended: the trace must end too.
  int64_t extra = 0;
  expected.clear();
  for (size_t got; (got = trace.Read(expected, size_t{1} << 20)) > 0; expected.clear()) {
    extra += static_cast<int64_t>(got);
  }
  if (extra == 0) return std::nullopt;
  Difference d;
  d.length_mismatch = true;
  d.index = checked;
  d.got_length = checked;
  d.expected_length = checked + extra;
  return d;
}

}  // namespace macroscope::loops
