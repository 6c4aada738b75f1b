// Matching names a user gave as text against StringIds of a source trace.
// A module may not look text up in the trace's string pool (only the
// reading thread may, while it interns), but may read any id's text: so
// each id's answer is worked out once, from its text, and cached.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace macroscope::pipeline {

class NameMatcher {
 public:
  explicit NameMatcher(std::vector<std::string> names) : names_(std::move(names)) {}
  bool empty() const { return names_.empty(); }
  // Forgets the answers: ids of another trace follow.
  void Reset() { cache_.clear(); }
  bool Matches(StringId id, const Trace& trace) {
    if (id >= cache_.size()) cache_.resize(std::max<size_t>(id + 1, cache_.size() * 2), kUnknown);
    uint8_t& answer = cache_[id];
    if (answer == kUnknown)
      answer = std::find(names_.begin(), names_.end(), trace.Str(id)) != names_.end() ? kYes : kNo;
    return answer == kYes;
  }

 private:
  static constexpr uint8_t kUnknown = 0, kYes = 1, kNo = 2;
  std::vector<std::string> names_;
  std::vector<uint8_t> cache_;  // by StringId
};

}  // namespace macroscope::pipeline
