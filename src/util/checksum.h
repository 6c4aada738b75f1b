// A fast 64-bit checksum of bytes that come in pieces (XXH3, seeded with
// the previous pieces' checksum): what tells a whole cache file from a
// damaged one. Not cryptographic.
#pragma once

#include <cstdint>
#include <string_view>

namespace macroscope {

uint64_t ChainChecksum(std::string_view bytes, uint64_t previous = 0);

}  // namespace macroscope
