// A trace opened to be queried, whatever its files: one chunked store is
// opened and read as queries reach its chunks (its caches keep `budget`),
// whatever its size; anything else is read whole into memory. What
// `macroscope query` and the Python module open.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/entity_source.h"
#include "model/trace.h"
#include "query/query_session.h"
#include "store/store_source.h"

namespace macroscope::query {

class OpenedTrace {
 public:
  // Whether a trace read whole gets its interval indexes (what narrow
  // windows ask: queries); an analysis that reads every chunk once skips
  // them.
  enum class Indexes { kBuild, kSkip };
  // Throws UserError naming the file for unreadable or invalid input.
  OpenedTrace(const std::vector<std::string>& files, const formats::ReadOptions& options, store::CacheBudget budget,
              Indexes indexes = Indexes::kBuild);
  OpenedTrace(const OpenedTrace&) = delete;
  OpenedTrace& operator=(const OpenedTrace&) = delete;

  const EntitySource& source() const;
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::vector<std::string> files_;
  Trace trace_;  // read whole (not a store)
  std::optional<store::StoreSource> store_;
  std::optional<TraceSource> memory_;
};

// A session's TraceOpener (query_session.h) that opens each file named
// once, as an OpenedTrace with these options, kept as long as the opener.
TraceOpener OpenOtherTraces(const formats::ReadOptions& options, store::CacheBudget budget);

}  // namespace macroscope::query
