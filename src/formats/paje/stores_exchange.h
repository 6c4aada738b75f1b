// Entity stores built apart (sharded_simulation.h's BuiltStores) as bytes
// between the parts of a reading (formats/part_exchange.h): the import of
// a file read in parts puts every part's stores back together on part 0.
// Type and container ids travel as they are (every part numbers them
// alike); strings travel as text and are interned again on arrival.
#pragma once

#include <string>
#include <string_view>

#include "formats/paje/sharded_simulation.h"
#include "model/string_pool.h"

namespace macroscope::paje {

// `built`, and the strings of `strings` (the pool its ids are in), as bytes.
std::string StoresToBytes(const BuiltStores& built, const StringPool& strings);

// What StoresToBytes wrote, its strings interned in `strings`.
BuiltStores StoresFromBytes(std::string_view bytes, StringPool& strings);

}  // namespace macroscope::paje
