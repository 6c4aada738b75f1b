// The modules a workflow file can name, as data (modules/module_list.cc):
// each with its description, parameters and ports for `macroscope run
// --help`, and the factory that makes an instance from its parameters.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/module.h"
#include "pipeline/params.h"

namespace macroscope::pipeline {

struct ParamInfo {
  std::string_view name;
  std::string_view description;  // says the default when there is one
  bool required = false;
};

struct PortInfo {
  std::string_view name;  // "out#": numbered ports out1..outN (split, merge)
  std::string_view type;  // StreamType<T>::kName
  std::string_view description;
};

struct ModuleInfo {
  std::string_view kind;  // what a workflow file names: "read", "filter", ...
  std::string_view description;
  std::vector<ParamInfo> params;
  std::vector<PortInfo> inputs, outputs;
  // Makes an instance named `name`; throws UserError for bad parameters.
  std::function<std::unique_ptr<Module>(const std::string& name, const Params& params)> make;
};

std::span<const ModuleInfo> AllModules();
// nullptr when no module has that kind.
const ModuleInfo* FindModule(std::string_view kind);

}  // namespace macroscope::pipeline
