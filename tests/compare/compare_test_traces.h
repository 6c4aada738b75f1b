// What the compare tests share: a trace read whole from files, and a small
// trace of named containers built in the test.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/trace.h"

namespace macroscope::testing {

inline Trace ReadWhole(const std::vector<std::string>& files) {
  Trace trace;
  formats::ReadTrace(files, formats::ReadOptions{}, trace);
  return trace;
}

// Containers of one type under the root, named `names` in order.
inline Trace TraceOfContainers(std::initializer_list<const char*> names) {
  Trace trace;
  const TypeId type = trace.AddType(kRootType, TypeKind::kContainer, trace.strings().Intern("P"), kEmptyString);
  for (const char* name : names) trace.AddContainer(kRootContainer, type, trace.strings().Intern(name), kEmptyString, 0);
  return trace;
}

}  // namespace macroscope::testing
