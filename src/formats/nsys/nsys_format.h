// Nsight Systems SQLite exports as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::nsys {

formats::Format NsysFormat();

}  // namespace macroscope::nsys
