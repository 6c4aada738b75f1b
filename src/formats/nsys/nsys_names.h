// Names of the numbers an Nsight Systems export stores for its enums, as
// Nsight's documentation of the SQLite schema lists them ("SQLite Schema
// Event Values"). Known here rather than read from the file's ENUM_* tables,
// which older exports lack: every schema version reads the same.
#pragma once

#include <cstdint>
#include <string>

namespace macroscope::nsys {

// NVTX_EVENTS.eventType.
enum NvtxEventType : int64_t {
  kNvtxCategory = 33,       // nvtxNameCategory: names a category
  kNvtxMark = 34,           // an instant
  kNvtxThread = 39,         // nvtxNameOsThread: names a thread
  kNvtxPushPopRange = 59,   // a range nested on its thread
  kNvtxStartEndRange = 60,  // a range that may overlap others, and end on another thread
  kNvtxDomainCreate = 75,   // names a domain
  kNvtxDomainDestroy = 76,
};

// CUPTI_ACTIVITY_KIND_RUNTIME.eventClass.
enum CudaEventClass : int64_t {
  kCudaRuntime = 0,
  kCudaDriver = 1,
  kCudaBacktrace = 67,  // the span of a call whose backtrace was taken (callchainId)
};

// "runtime", "driver", "backtrace", or the number.
std::string CudaEventClassName(int64_t event_class);

// CUPTI_ACTIVITY_KIND_MEMCPY.copyKind: "Host to device", ..., or "copy kind N".
std::string MemcpyKindName(int64_t kind);

// srcKind / dstKind / memKind (CUDA_MEMOPR_MEMORY_KIND): "pageable", ..., or "memory kind N".
std::string MemoryKindName(int64_t kind);

}  // namespace macroscope::nsys
