// GStreamer debug logs as an entry of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::gstreamer {

formats::Format GstreamerFormat();

}  // namespace macroscope::gstreamer
