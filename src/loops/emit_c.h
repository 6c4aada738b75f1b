// The model as a complete C program: compiled with any C99 compiler and
// run, it prints the trace, one integer per line, on standard output.
#pragma once

#include <string>

#include "loops/model.h"

namespace macroscope::loops {

// Loop indices and arithmetic are uint64_t (wrapping like the model); the
// values are printed as int64_t. Exceptions are patched in as the values
// are printed; gap content (distant modes) is generated into arrays first.
std::string EmitC(const Model& model);

}  // namespace macroscope::loops
