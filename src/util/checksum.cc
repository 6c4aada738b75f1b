#include "util/checksum.h"

#include <xxhash.h>

namespace macroscope {

uint64_t ChainChecksum(std::string_view bytes, uint64_t previous) {
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), previous);
}

}  // namespace macroscope
