// CTF as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::ctf {

formats::Format CtfFormat();

}  // namespace macroscope::ctf
