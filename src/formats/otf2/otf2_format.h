// OTF2 (Score-P and other tracers' Open Trace Format 2) as an entry of the
// format registry. Mapping and limits: docs/otf2.md.
#pragma once

#include "formats/format.h"

namespace macroscope::otf2 {

formats::Format Otf2Format();

}  // namespace macroscope::otf2
