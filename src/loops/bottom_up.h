// Bottom-up recogniser of loop nests (adjacent intervals; bounds fixed or
// affine in the outer indices).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// Longest block of items repeated as one loop body in a single pass.
inline constexpr int64_t kMaxBlockItems = 16;

// Models the trace data[0..n) (width 1) as a list of phases, in time
// O(n * kMaxBlockItems * passes) where the number of passes is about the
// nesting depth found. Exact. Loop bounds may be affine in the outer
// indices when options.mode is kAuto; fixed (af) otherwise. Uses
// options.max_depth too.
std::vector<Node> BottomUpPhases(const uint64_t* data, int64_t n, const Options& options);

// The same, fed in pieces (a streamed trace): memory holds the items of
// the first pass (about one per innermost run) and one chunk of values,
// not the trace. Finish() gives what BottomUpPhases gives on the whole.
class BottomUpBuilder {
 public:
  // `chunk_values`: values scanned at a time by the first pass (the
  // result does not depend on it).
  explicit BottomUpBuilder(const Options& options, int64_t chunk_values = int64_t{1} << 20);
  ~BottomUpBuilder();
  BottomUpBuilder(const BottomUpBuilder&) = delete;
  BottomUpBuilder& operator=(const BottomUpBuilder&) = delete;

  void Add(std::span<const uint64_t> values);
  std::vector<Node> Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace macroscope::loops
