#include "pipeline/params.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "pipeline/registry.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

// The key that names a module's kind in a workflow file, not a parameter.
constexpr std::string_view kKindKey = "module";

// True when all of `text` is a number of type T (no sign games, no spaces).
template <class T>
bool ParseAll(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

[[noreturn]] void Missing(const std::string& module, std::string_view name) {
  throw UserError("module '" + module + "': missing parameter '" + std::string(name) + "'");
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool Params::Has(std::string_view name) const { return Get(name) != nullptr; }

// A null value counts as absent, so the default applies.
const nlohmann::json* Params::Get(std::string_view name) const {
  if (!values_.is_object()) return nullptr;
  auto it = values_.find(name);
  if (it == values_.end() || it->is_null()) return nullptr;
  return &*it;
}

void Params::Bad(std::string_view name, std::string_view problem) const {
  throw UserError("module '" + module_ + "': parameter '" + std::string(name) + "': " + std::string(problem));
}

std::string Params::String(std::string_view name, std::optional<std::string> fallback) const {
  const nlohmann::json* v = Get(name);
  if (!v) {
    if (fallback) return *fallback;
    Missing(module_, name);
  }
  if (v->is_string()) return v->get<std::string>();
  // `"value": 42` means the text "42": a number or a boolean as JSON writes it.
  if (v->is_number() || v->is_boolean()) return v->dump();
  Bad(name, "expected a string, got " + v->dump());
}

int64_t Params::Integer(std::string_view name, std::optional<int64_t> fallback) const {
  const nlohmann::json* v = Get(name);
  if (!v) {
    if (fallback) return *fallback;
    Missing(module_, name);
  }
  int64_t value = 0;
  if (v->is_number_unsigned()) {
    if (v->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return static_cast<int64_t>(v->get<uint64_t>());
  } else if (v->is_number_integer()) {
    return v->get<int64_t>();
  } else if (v->is_number_float()) {
    // 3.0 is an integer; 3.5 and 1e30 are not.
    double d = v->get<double>();
    if (std::trunc(d) == d && std::abs(d) < 9.2e18) return static_cast<int64_t>(d);
  } else if (v->is_string() && ParseAll(v->get_ref<const std::string&>(), value)) {
    return value;
  }
  Bad(name, "expected an integer, got " + v->dump());
}

double Params::Number(std::string_view name, std::optional<double> fallback) const {
  const nlohmann::json* v = Get(name);
  if (!v) {
    if (fallback) return *fallback;
    Missing(module_, name);
  }
  double value = 0;
  if (v->is_number()) return v->get<double>();
  if (v->is_string() && ParseAll(v->get_ref<const std::string&>(), value) && std::isfinite(value)) return value;
  Bad(name, "expected a number, got " + v->dump());
}

bool Params::Bool(std::string_view name, std::optional<bool> fallback) const {
  const nlohmann::json* v = Get(name);
  if (!v) {
    if (fallback) return *fallback;
    Missing(module_, name);
  }
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    if (s == "true") return true;
    if (s == "false") return false;
  }
  Bad(name, "expected true or false, got " + v->dump());
}

// A string is a comma-separated list ("a, b"): `${name}` substitution can
// only give text. Blanks around items and empty items are dropped.
std::vector<std::string> Params::Strings(std::string_view name,
                                         std::optional<std::vector<std::string>> fallback) const {
  const nlohmann::json* v = Get(name);
  if (!v) {
    if (fallback) return *fallback;
    Missing(module_, name);
  }
  std::vector<std::string> items;
  if (v->is_string()) {
    std::string_view rest = v->get_ref<const std::string&>();
    while (true) {
      size_t comma = rest.find(',');
      std::string_view item = Trim(rest.substr(0, comma));
      if (!item.empty()) items.emplace_back(item);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    return items;
  }
  if (v->is_array()) {
    for (const nlohmann::json& item : *v) {
      if (!item.is_string()) Bad(name, "expected strings, got " + item.dump() + " in " + v->dump());
      items.push_back(item.get<std::string>());
    }
    return items;
  }
  Bad(name, "expected a string or an array of strings, got " + v->dump());
}

void Params::Check(const ModuleInfo& info) const {
  if (!values_.is_object())
    throw UserError("module '" + module_ + "': parameters must be an object, got " + values_.dump());
  for (const auto& [key, value] : values_.items()) {
    if (key == kKindKey) continue;
    bool declared = false;
    for (const ParamInfo& p : info.params) declared = declared || p.name == key;
    if (declared) continue;
    std::string known;
    for (const ParamInfo& p : info.params) known += (known.empty() ? "" : ", ") + std::string(p.name);
    throw UserError("module '" + module_ + "': unknown parameter '" + key + "' (" + std::string(info.kind) +
                    (known.empty() ? " takes no parameters)" : " takes: " + known + ")"));
  }
  for (const ParamInfo& p : info.params)
    if (p.required && !Has(p.name))
      Missing(module_, p.name);
}

}  // namespace macroscope::pipeline
