// The trace list and one trace's type and container trees, as served by
// GET /api/traces and /api/traces/{t} (docs/serve.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "server/served_trace.h"

namespace macroscope::server {

// {"id","name","format","start","end","totals"}.
nlohmann::ordered_json TraceSummary(const ServedTrace& served, size_t id);

// The summary plus "types" and "containers".
nlohmann::ordered_json TraceDetails(const ServedTrace& served, size_t id);

// A trace colour ("r g b" in [0, 1], as Pajé writes them, or "#rrggbb") as
// "#rrggbb"; nullopt when there is none or it does not parse.
std::optional<std::string> HexColor(std::string_view color);

}  // namespace macroscope::server
