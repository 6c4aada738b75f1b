// The type and container filters of a built model, as `aggregate` and the
// server take them: types name model types ("State:running") or entity
// types ("State", meaning all its values); containers are slash paths of
// subtrees.
#pragma once

#include <string>
#include <vector>

#include "analysis/micro_model.h"

namespace macroscope::analysis {

// The model restricted to `types` then `containers` (empty: no filter).
// Throws UserError naming an unknown type or container.
MicroModel FilterModel(MicroModel model, const std::vector<std::string>& types,
                       const std::vector<std::string>& containers);

}  // namespace macroscope::analysis
