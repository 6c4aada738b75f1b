// The store as an entry of the format registry, so every command reads it.
#pragma once

#include "formats/format.h"

namespace macroscope::store {

formats::Format StoreFormat();

}  // namespace macroscope::store
