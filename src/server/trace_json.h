// The trace list and one trace's type and container trees, as served by
// GET /api/traces and /api/traces/{t} (docs/serve.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "server/served_trace.h"

namespace macroscope::server {

// The trace's entry in the list: {"id","name","format","state"}, then
// "start","end","time","totals" once it is ready, "progress" while it is
// being read.
nlohmann::ordered_json TraceSummary(const ServedTrace& served, size_t id);

// A ready trace's summary plus "types" and "containers".
nlohmann::ordered_json TraceDetails(const ServedTrace& served, size_t id);

// A trace colour ("r g b" in [0, 1], as Pajé writes them, or "#rrggbb") as
// "#rrggbb"; nullopt when there is none or it does not parse.
std::optional<std::string> HexColor(std::string_view color);

}  // namespace macroscope::server
