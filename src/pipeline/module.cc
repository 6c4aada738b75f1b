#include "pipeline/module.h"

namespace macroscope::pipeline {

std::string Port::FullName() const { return module_.name() + "." + name_; }

namespace {

Port* FindPort(const std::vector<std::unique_ptr<Port>>& ports, std::string_view name) {
  for (const auto& p : ports)
    if (p->name() == name) return p.get();
  return nullptr;
}

}  // namespace

Port* Module::FindInput(std::string_view port) const { return FindPort(inputs_, port); }
Port* Module::FindOutput(std::string_view port) const { return FindPort(outputs_, port); }

}  // namespace macroscope::pipeline
