// Pajé as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::paje {

formats::Format PajeFormat();

}  // namespace macroscope::paje
