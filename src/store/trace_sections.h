// The sections every store version shares (docs/store.md): meta, the
// string pool, types, values and containers, written and read here for
// both the chunked format (3) and the older one (1, 2). Internal to
// src/store.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "store/store.h"
#include "store/store_file.h"

namespace macroscope::store {

// The first sections of every version, in file order.
enum SharedSection : uint32_t { kMeta, kStringBytes, kStringLengths, kTypes, kValues, kContainers, kStores };

// The counts the meta section declares.
struct StoreMeta {
  StoreStats stats;
  uint64_t strings = 0, string_bytes = 0, types = 0, values = 0, containers = 0, stores = 0;
};

// Sections kMeta … kContainers of `trace`, raw (before compression).
std::vector<std::vector<uint8_t>> EncodeTraceSections(const Trace& trace, const StoreStats& stats);

// Reads meta, types, values and containers into `trace` (a fresh Trace);
// the counts are checked against the sections' sizes.
StoreMeta ReadTraceSections(const StoreFile& file, Trace& trace);

// Reads the string pool into `trace` (which holds "0" already).
void ReadStrings(const StoreFile& file, const StoreMeta& meta, Trace& trace);

}  // namespace macroscope::store
