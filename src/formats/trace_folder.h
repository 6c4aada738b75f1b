// What a path names as runs of one experiment (`campaign`): itself when it
// is a trace (a file, or a folder a format reads whole: an OTF2 archive, a
// store), else the traces in the folder, by name (hidden files left out).
#pragma once

#include <string>
#include <vector>

namespace macroscope::formats {

// Throws UserError for a folder that cannot be listed or holds no trace;
// a path that is no trace and no folder is returned as is (reading it then
// says why).
std::vector<std::string> TracesAt(const std::string& path);

}  // namespace macroscope::formats
