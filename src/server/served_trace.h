// A trace the server answers about. The server never owns nor changes a
// trace: the caller keeps it alive, indexed (Trace::BuildIndexes), for the
// life of the server; every query on it is const, hence thread-safe.
#pragma once

#include <string>

#include "model/trace.h"

namespace macroscope::server {

struct ServedTrace {
  std::string name;    // shown to the user: the file's base name
  std::string format;  // the reader's name ("paje", "otf2", "store", ...)
  const Trace* trace = nullptr;
};

}  // namespace macroscope::server
