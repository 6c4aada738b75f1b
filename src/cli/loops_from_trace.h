// `macroscope loops --from TRACE`: the integer series of one entity type
// in one container of a trace (starts, ends, durations, values or
// interarrival times), for the loop-nest modeller. The choices (order,
// time unit, value codes) are documented in docs/loops.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/trace.h"

namespace macroscope::cli {

struct SeriesRequest {
  std::string container;         // name, alias or slash path of names
  std::string type;              // entity type name or alias
  std::string series = "start";  // start, end, duration, value, interarrival
  std::string unit;              // s, ms, us, ns; empty: the coarsest exact one
  double scale = 1;              // variable values are multiplied by it
  bool scale_given = false;
};

struct TraceSeries {
  std::vector<int64_t> values;
  std::string name;                 // names the series in messages
  std::vector<std::string> header;  // what the series is, its unit, the value codes
  nlohmann::ordered_json description;      // the same as a JSON object
};

bool IsSeriesName(std::string_view series);
bool IsTimeSeries(std::string_view series);

// Throws UserError for an unknown or ambiguous container or type (listing
// the valid names), a series that does not apply to the type's kind, no
// entities, a time that does not fit 64-bit ticks or a variable value
// that is not an integer after scaling.
TraceSeries ExtractSeries(const Trace& trace, const std::string& file, const SeriesRequest& request);

}  // namespace macroscope::cli
