// Reading request parameters: each function throws ApiError (400) naming
// the parameter when it is malformed or out of range, so handlers validate
// everything before they touch a trace.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace macroscope::server {

// The parameter's text, if present.
std::optional<std::string> Text(const httplib::Request& request, const char* name);

// A finite number.
std::optional<double> Number(const httplib::Request& request, const char* name);
double RequiredNumber(const httplib::Request& request, const char* name);

// An integer in [min, max].
std::optional<int64_t> Integer(const httplib::Request& request, const char* name, int64_t min, int64_t max);

// Comma-separated items, empty ones skipped (absent: empty list).
std::vector<std::string> List(const httplib::Request& request, const char* name);
// Comma-separated integers in [0, max].
std::vector<uint32_t> IdList(const httplib::Request& request, const char* name, uint32_t max);

// `0` or `1` (absent: false).
bool Flag(const httplib::Request& request, const char* name);

// A decimal index as found in a path: an unknown one is a 404, not a 400,
// so any text that is not a small number is "not found".
uint32_t PathIndex(const std::string& text, size_t count, const char* what);

}  // namespace macroscope::server
