#include "util/file_checksum.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "util/error.h"

namespace macroscope {

namespace {

namespace fs = std::filesystem;

void HashFile(const fs::path& path, XXH3_state_t* state, uint64_t& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path.string() + ": cannot read");
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    auto n = static_cast<size_t>(in.gcount());
    XXH3_128bits_update(state, buffer.data(), n);
    bytes += n;
  }
  if (in.bad()) throw UserError(path.string() + ": read error");
}

}  // namespace

FileChecksum ChecksumPath(const std::string& path) {
  std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(), XXH3_freeState);
  XXH3_128bits_reset(state.get());
  FileChecksum out;
  std::error_code error;
  if (fs::is_directory(path, error)) {
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error))
      if (it->is_regular_file()) files.push_back(it->path());
    if (error) throw UserError(path + ": cannot list: " + error.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      const std::string relative = fs::relative(file, path).generic_string();
      XXH3_128bits_update(state.get(), relative.c_str(), relative.size() + 1);  // with its NUL: a separator
      HashFile(file, state.get(), out.bytes);
    }
  } else {
    HashFile(path, state.get(), out.bytes);
  }
  XXH128_hash_t h = XXH3_128bits_digest(state.get());
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  out.hex = std::string("xxh3-128:") + hex;
  return out;
}

}  // namespace macroscope
