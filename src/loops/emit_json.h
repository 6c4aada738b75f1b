// The model as JSON, for programs (shape documented in docs/loops.md).
#pragma once

#include <string>

#include "loops/model.h"

namespace macroscope::loops {

std::string EmitJson(const Model& model);

}  // namespace macroscope::loops
