#include "formats/nsys/nsys_names.h"

#include <iterator>
#include <string_view>

namespace macroscope::nsys {

namespace {

// CUDA_MEMCPY_KIND_*, by value.
constexpr std::string_view kMemcpyKinds[] = {
    "Unknown",
    "Host to device",
    "Device to host",
    "Host to array",
    "Array to host",
    "Array to array",
    "Array to device",
    "Device to array",
    "Device to device",
    "Host to host",
    "Peer to peer",
    "Unified host to device",
    "Unified device to host",
    "Unified device to device",
};

// CUDA_MEMOPR_MEMORY_KIND_*, by value.
constexpr std::string_view kMemoryKinds[] = {
    "pageable", "pinned", "device", "array", "managed", "device static", "managed static", "unknown",
};

template <size_t N>
std::string Lookup(const std::string_view (&names)[N], int64_t value, const char* otherwise) {
  if (value >= 0 && static_cast<uint64_t>(value) < N) return std::string(names[value]);
  return otherwise + std::to_string(value);
}

}  // namespace

std::string CudaEventClassName(int64_t event_class) {
  switch (event_class) {
    case kCudaRuntime:
      return "runtime";
    case kCudaDriver:
      return "driver";
    case kCudaBacktrace:
      return "backtrace";
    default:
      return std::to_string(event_class);
  }
}

std::string MemcpyKindName(int64_t kind) { return Lookup(kMemcpyKinds, kind, "copy kind "); }

std::string MemoryKindName(int64_t kind) { return Lookup(kMemoryKinds, kind, "memory kind "); }

}  // namespace macroscope::nsys
