// trace-cmd's .dat files (ftrace) as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::ftrace {

formats::Format FtraceFormat();

}  // namespace macroscope::ftrace
