// A series of a trace for the loop-nest modeller: the integer series of
// one entity type in one container (starts, ends, durations, values or
// interarrival times), what `macroscope loops --from TRACE` models and
// the query's loops() (docs/query.md). The choices (order, time unit,
// value codes) are documented in docs/loops.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/entity_source.h"

namespace macroscope::loops {

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
  std::string unit;                 // a time series' tick ("ms"); empty for values
};

bool IsSeriesName(std::string_view series);
bool IsTimeSeries(std::string_view series);

// What can be said of a request before the trace is read: throws
// UserError for an unknown series or unit, a unit for values, a scale for
// anything but values or one that is not finite or 0.
void CheckSeriesRequest(const SeriesRequest& request);

// The series `request` names among `source`'s entities (read store by
// store, one store only); `file` names the trace in the header and the
// description. Throws UserError for what CheckSeriesRequest refuses, an
// unknown or ambiguous container or type (listing the valid names), a
// series that does not apply to the type's kind, no entities, a time that
// does not fit 64-bit ticks or a variable value that is not an integer
// after scaling.
TraceSeries ExtractSeries(const EntitySource& source, const std::string& file, const SeriesRequest& request);

}  // namespace macroscope::loops
