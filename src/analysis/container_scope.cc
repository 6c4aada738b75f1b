#include "analysis/container_scope.h"

#include "util/error.h"

namespace macroscope::analysis {

std::vector<bool> ContainersInScope(const Trace& trace, const std::vector<std::string>& names,
                                    std::string_view option, const std::vector<ContainerId>& ids) {
  const std::string prefix = option.empty() ? "" : std::string(option) + ": ";
  std::vector<bool> in_scope(trace.containers().size(), names.empty() && ids.empty());
  auto add_subtree = [&](ContainerId c) {
    std::vector<ContainerId> todo{c};
    while (!todo.empty()) {
      ContainerId x = todo.back();
      todo.pop_back();
      in_scope[x] = true;
      for (ContainerId child : trace.container(x).children) todo.push_back(child);
    }
  };
  for (const auto& name : names) {
    bool found = false;
    for (ContainerId c = 0; c < trace.containers().size(); ++c) {
      const Container& k = trace.container(c);
      if (trace.Str(k.name) != name && trace.Str(k.alias) != name &&
          (name.find('/') == std::string::npos || trace.ContainerPath(c) != name))
        continue;
      found = true;
      add_subtree(c);
    }
    if (!found) throw UserError(prefix + "unknown container '" + name + "'");
  }
  for (ContainerId c : ids) {
    if (c >= trace.containers().size()) throw UserError(prefix + "unknown container " + std::to_string(c));
    add_subtree(c);
  }
  return in_scope;
}

}  // namespace macroscope::analysis
