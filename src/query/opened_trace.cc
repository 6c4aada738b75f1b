#include "query/opened_trace.h"

#include <map>
#include <memory>

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

TraceOpener OpenOtherTraces(const formats::ReadOptions& options, store::CacheBudget budget) {
  auto opened = std::make_shared<std::map<std::string, std::unique_ptr<OpenedTrace>>>();
  return [opened, options, budget](const std::string& name) -> const EntitySource& {
    std::unique_ptr<OpenedTrace>& trace = (*opened)[name];
    if (!trace) trace = std::make_unique<OpenedTrace>(std::vector<std::string>{name}, options, budget);
    return trace->source();
  };
}

}  // namespace macroscope::query
