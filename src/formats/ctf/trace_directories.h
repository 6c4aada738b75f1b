// Where the CTF traces are: a CTF trace is a directory holding a `metadata`
// file (text metadata starting with "/* CTF", or packetized metadata whose
// packets start with the magic 0x75D11D57 in either byte order) and its
// stream files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace macroscope::ctf {

// True when `head` (the first bytes of a file) starts CTF metadata.
bool LooksLikeCtfMetadata(std::string_view head);

// True when `path` is a CTF metadata file, a trace directory, or a
// directory with trace directories below it (at most a few levels down).
bool LooksLikeCtf(const std::string& path);

// The trace directories at or below `path` (a `metadata` file stands for
// its directory), sorted; the search does not go below a trace directory.
// Empty when there is none.
std::vector<std::string> FindTraceDirectories(const std::string& path);

}  // namespace macroscope::ctf
