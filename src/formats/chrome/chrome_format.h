// Chrome Trace Event JSON as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::chrome {

formats::Format ChromeFormat();

}  // namespace macroscope::chrome
