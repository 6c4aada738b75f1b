#include "query/opened_trace.h"

#include "store/store.h"

namespace macroscope::query {

OpenedTrace::OpenedTrace(const std::vector<std::string>& files, const formats::ReadOptions& options,
                         store::CacheBudget budget, Indexes indexes)
    : files_(files) {
  if (files.size() == 1 && store::IsChunkedStore(files.front())) {
    store_.emplace(files.front(), budget);
    return;
  }
  formats::ReadTrace(files, options, trace_);
  if (indexes == Indexes::kBuild) trace_.BuildIndexes();
  memory_.emplace(trace_);
}

const EntitySource& OpenedTrace::source() const {
  if (store_) return *store_;
  return *memory_;
}

}  // namespace macroscope::query
