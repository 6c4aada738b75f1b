#include "analysis/entity_selection.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace macroscope::analysis {

EntitySelection::EntitySelection(std::string_view text, std::string_view option) : text_(text) {
  const size_t equals = text.find('=');
  type_ = std::string(text.substr(0, equals));
  if (type_.empty())
    throw UserError(std::string(option) + ": '" + text_ + "': expected TYPE or TYPE=VALUE (an entity type's name)");
  any_type_ = type_ == "*";
  if (equals != std::string_view::npos) {
    has_value_ = true;
    value_ = std::string(text.substr(equals + 1));
    value_prefix_ = !value_.empty() && value_.back() == '*';
    if (value_prefix_) value_.pop_back();
  }
}

bool EntitySelection::Cached(std::vector<uint8_t>& cache, StringId id, const Trace& trace, const std::string& pattern,
                             bool any, bool prefix) {
  if (any) return true;
  if (id >= cache.size()) cache.resize(std::max<size_t>(id + 1, cache.size() * 2), 0);
  uint8_t& answer = cache[id];
  if (answer == 0) {
    const std::string_view text = trace.Str(id);
    const bool yes = prefix ? text.substr(0, pattern.size()) == pattern : text == pattern;
    answer = yes ? 1 : 2;
  }
  return answer == 1;
}

int64_t Nanoseconds(const TimeBase& base, double ticks) {
  // One tick = num/den s; for nanosecond clocks (1/10^9) ticks are the answer.
  if (base.num == 1 && base.den == 1000000000) return static_cast<int64_t>(std::llround(ticks));
  const long double ns = static_cast<long double>(ticks) * static_cast<long double>(base.num) * 1e9L /
                         static_cast<long double>(base.den);
  return static_cast<int64_t>(std::llroundl(ns));
}

}  // namespace macroscope::analysis
