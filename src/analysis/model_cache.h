// An on-disk cache of microscopic models, so that another p, another mode
// or a slice count that divides a cached one does not re-read the trace.
//
// Entries are keyed by a text key (the caller's: trace identity, metric,
// range, reader options) and the slice count. Find() returns the model with
// exactly the asked slices, or, when `coarsen` is allowed (additive
// metrics), sums the slices of a cached model whose count is a multiple.
// Models are stored unfiltered; filters apply after. Files are written
// whole or not at all, and a file that does not read back cleanly (other
// version, truncated, bad checksum) is treated as absent.
#pragma once

#include <optional>
#include <string>

#include "analysis/micro_model.h"

namespace macroscope::analysis {

class ModelCache {
 public:
  explicit ModelCache(std::string directory) : directory_(std::move(directory)) {}

  std::optional<MicroModel> Find(const std::string& key, int32_t slices, bool coarsen) const;
  // Best effort: a cache that cannot be written is skipped (returns false).
  bool Store(const std::string& key, const MicroModel& model) const;

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
};

// The default cache directory: $XDG_CACHE_HOME/macroscope, else
// $HOME/.cache/macroscope; empty when neither is set.
std::string DefaultCacheDirectory();

}  // namespace macroscope::analysis
