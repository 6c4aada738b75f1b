// What identifies the bytes of a trace or an output for the record of a
// run: XXH3 128-bit of a file, or of a directory (a CTF trace) as its files'
// relative paths and contents in path order. Not cryptographic: it tells
// whether a rerun reads the same data, not whether anyone tampered with it.
#pragma once

#include <cstdint>
#include <string>

namespace macroscope {

struct FileChecksum {
  std::string hex;     // "xxh3-128:" and 32 hex digits
  uint64_t bytes = 0;  // bytes hashed (file contents)
};

// Throws UserError naming the path when it cannot be read.
FileChecksum ChecksumPath(const std::string& path);

}  // namespace macroscope
