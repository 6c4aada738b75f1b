// The containers an analysis's `--containers` names: each named container
// (by name, alias or path) and its descendants; all of them when none is
// named.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace macroscope::analysis {

// By container id: in scope or not, of the containers `names` (names,
// aliases, or paths with '/') and `ids` name. Throws UserError "unknown
// container 'X'" (after "OPTION: " when `option` is given) for a name no
// container has, or an id beyond the trace's.
std::vector<bool> ContainersInScope(const Trace& trace, const std::vector<std::string>& names,
                                    std::string_view option = {}, const std::vector<ContainerId>& ids = {});

}  // namespace macroscope::analysis
