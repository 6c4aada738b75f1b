#include "store/store_format.h"

#include "store/store.h"
#include "util/error.h"

namespace macroscope::store {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeStore(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  if (files.size() != 1) throw UserError(files[1] + ": a store is read alone, not with other files");
  StoreStats s = ReadStore(files.front(), trace, options.sink, options.description_only);
  return {.events = s.events, .bytes = s.bytes, .store_sizes = std::move(s.store_sizes)};
}

}  // namespace

formats::Format StoreFormat() {
  return {"store", "macroscope stores (`macroscope import`): a simulated trace, columnar, zstd-compressed", Sniff,
          Read};
}

}  // namespace macroscope::store
