#include "server/query_params.h"

#include <charconv>
#include <cmath>

#include "server/api_error.h"

namespace macroscope::server {

namespace {

template <class T>
bool ParseWhole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

std::optional<std::string> Text(const httplib::Request& request, const char* name) {
  if (!request.has_param(name)) return std::nullopt;
  return request.get_param_value(name);
}

std::optional<double> Number(const httplib::Request& request, const char* name) {
  auto text = Text(request, name);
  if (!text) return std::nullopt;
  double value = 0;
  if (!ParseWhole(*text, value) || !std::isfinite(value)) {
    BadRequest(std::string("parameter ") + name + " must be a finite number");
  }
  return value;
}

double RequiredNumber(const httplib::Request& request, const char* name) {
  auto value = Number(request, name);
  if (!value) BadRequest(std::string("parameter ") + name + " is required");
  return *value;
}

std::optional<int64_t> Integer(const httplib::Request& request, const char* name, int64_t min, int64_t max) {
  auto text = Text(request, name);
  if (!text) return std::nullopt;
  int64_t value = 0;
  if (!ParseWhole(*text, value) || value < min || value > max) {
    BadRequest(std::string("parameter ") + name + " must be an integer in [" + std::to_string(min) + ", " +
               std::to_string(max) + "]");
  }
  return value;
}

std::vector<std::string> List(const httplib::Request& request, const char* name) {
  std::vector<std::string> items;
  auto text = Text(request, name);
  if (!text) return items;
  size_t begin = 0;
  while (begin <= text->size()) {
    size_t comma = text->find(',', begin);
    if (comma == std::string::npos) comma = text->size();
    if (comma > begin) items.push_back(text->substr(begin, comma - begin));
    begin = comma + 1;
  }
  return items;
}

std::vector<uint32_t> IdList(const httplib::Request& request, const char* name, uint32_t max) {
  std::vector<uint32_t> ids;
  for (const auto& item : List(request, name)) {
    uint32_t id = 0;
    if (!ParseWhole(item, id)) BadRequest(std::string("parameter ") + name + " must list integer ids");
    if (id > max) NotFound(std::string("unknown id ") + item + " in " + name);
    ids.push_back(id);
  }
  return ids;
}

bool Flag(const httplib::Request& request, const char* name) {
  auto text = Text(request, name);
  if (!text) return false;
  if (*text != "0" && *text != "1") BadRequest(std::string("parameter ") + name + " must be 0 or 1");
  return *text == "1";
}

uint32_t PathIndex(const std::string& text, size_t count, const char* what) {
  uint32_t index = 0;
  if (!ParseWhole(text, index) || index >= count) NotFound(std::string("unknown ") + what + " " + text);
  return index;
}

}  // namespace macroscope::server
