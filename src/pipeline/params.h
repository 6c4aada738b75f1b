// The parameters of one module instance, as a workflow file gives them
// (a JSON object, `${name}` already substituted). Getters check the type
// and throw UserError naming the module and the parameter; Check() refuses
// a parameter the module does not declare (a typo must not be ignored).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace macroscope::pipeline {

struct ModuleInfo;

class Params {
 public:
  Params() : values_(nlohmann::json::object()) {}
  Params(std::string module, nlohmann::json values) : module_(std::move(module)), values_(std::move(values)) {}

  const std::string& module() const { return module_; }
  const nlohmann::json& json() const { return values_; }
  bool Has(std::string_view name) const;

  // Required when no default is given.
  std::string String(std::string_view name, std::optional<std::string> fallback = std::nullopt) const;
  int64_t Integer(std::string_view name, std::optional<int64_t> fallback = std::nullopt) const;
  double Number(std::string_view name, std::optional<double> fallback = std::nullopt) const;
  bool Bool(std::string_view name, std::optional<bool> fallback = std::nullopt) const;
  // A string or an array of strings.
  std::vector<std::string> Strings(std::string_view name, std::optional<std::vector<std::string>> fallback = std::nullopt) const;

  // Throws UserError for a parameter `info` does not declare.
  void Check(const ModuleInfo& info) const;

 private:
  [[noreturn]] void Bad(std::string_view name, std::string_view problem) const;
  const nlohmann::json* Get(std::string_view name) const;

  std::string module_;
  nlohmann::json values_;
};

}  // namespace macroscope::pipeline
