// Paraver as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::paraver {

formats::Format ParaverFormat();

}  // namespace macroscope::paraver
