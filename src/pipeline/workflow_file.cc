#include "pipeline/workflow_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "pipeline/registry.h"
#include "util/error.h"

namespace macroscope::pipeline {

using Json = nlohmann::ordered_json;

// One parsed file. Sub-workflows are parsed once per file they name.
struct WorkflowFile::Node {
  std::string path;
  std::string description;
  std::vector<WorkflowParameter> parameters;
  std::vector<std::pair<std::string, Json>> modules;  // in file order
  std::vector<std::pair<std::string, std::string>> links;
  std::map<std::string, std::string> inputs, outputs;  // exported port -> "module.port"
  std::map<std::string, std::shared_ptr<const Node>> children;  // "file" value -> node
  std::map<std::string, std::string> texts;                     // this file's and its children's
};

namespace {

using Node = WorkflowFile::Node;

[[noreturn]] void Fail(const std::string& path, const std::string& message) { throw UserError(path + ": " + message); }

// "module.port" split at its last dot.
std::pair<std::string, std::string> SplitEnd(const std::string& path, const std::string& end) {
  size_t dot = end.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == end.size())
    Fail(path, "link end '" + end + "' is not of the form module.port");
  return {end.substr(0, dot), end.substr(dot + 1)};
}

std::string ParameterText(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {  // a list parameter: comma-separated, as --set gives it
    std::string joined;
    for (const Json& item : value) joined += (joined.empty() ? "" : ",") + ParameterText(item);
    return joined;
  }
  return value.dump();
}

// `${name}` in every string of `value`, replaced by its value.
Json Substitute(const Json& value, const std::map<std::string, std::string>& values, const std::string& path,
                const std::string& where) {
  if (value.is_array() || value.is_object()) {
    Json out = value;
    for (auto& item : out) item = Substitute(item, values, path, where);
    return out;
  }
  if (!value.is_string()) return value;
  const std::string& text = value.get_ref<const std::string&>();
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t start = text.find("${", i);
    if (start == std::string::npos) {
      out.append(text, i, std::string::npos);
      break;
    }
    size_t end = text.find('}', start);
    if (end == std::string::npos) Fail(path, where + ": unterminated ${ in \"" + text + "\"");
    std::string name = text.substr(start + 2, end - start - 2);
    auto it = values.find(name);
    if (it == values.end()) Fail(path, where + ": ${" + name + "} is not a parameter of the workflow");
    out.append(text, i, start - i).append(it->second);
    i = end + 1;
  }
  return out;
}

const Json& Member(const std::string& path, const Json& object, const char* name, Json::value_t type,
                   const char* expected) {
  static const Json kNull;
  auto it = object.find(name);
  if (it == object.end()) return kNull;
  if (it->type() != type) Fail(path, std::string("\"") + name + "\" must be " + expected);
  return *it;
}

std::shared_ptr<const Node> Parse(const std::string& path, const TextLoader& load, std::vector<std::string>& stack) {
  for (const std::string& open : stack)
    if (open == path) Fail(path, "the workflow uses itself as a module");
  stack.push_back(path);
  auto node = std::make_shared<Node>();
  node->path = path;
  const std::string text = load(path);
  node->texts[path] = text;
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::exception& e) {
    Fail(path, std::string("not valid JSON: ") + e.what());
  }
  if (!json.is_object()) Fail(path, "a workflow file is a JSON object");
  for (auto& [key, value] : json.items())
    if (key != "description" && key != "parameters" && key != "modules" && key != "links" && key != "inputs" &&
        key != "outputs")
      Fail(path, "unknown key \"" + key + "\" (expected description, parameters, modules, links, inputs, outputs)");
  if (const Json& d = Member(path, json, "description", Json::value_t::string, "a string"); d.is_string())
    node->description = d.get<std::string>();
  for (auto& [name, spec] : Member(path, json, "parameters", Json::value_t::object, "an object").items()) {
    WorkflowParameter p{name, "", std::nullopt};
    if (!spec.is_object()) Fail(path, "parameter '" + name + "' must be an object (description, default)");
    for (auto& [key, value] : spec.items()) {
      if (key == "description" && value.is_string()) p.description = value.get<std::string>();
      else if (key == "default") p.default_value = ParameterText(value);
      else Fail(path, "parameter '" + name + "': unknown key \"" + key + "\" (expected description, default)");
    }
    node->parameters.push_back(std::move(p));
  }
  const Json& modules = Member(path, json, "modules", Json::value_t::object, "an object");
  if (!modules.is_object() || modules.empty()) Fail(path, "no modules (\"modules\": {\"name\": {\"module\": ...}})");
  for (auto& [name, spec] : modules.items()) {
    if (name.empty() || name.find_first_of(".[]/") != std::string::npos)
      Fail(path, "module name '" + name + "' may not be empty nor hold . [ ] /");
    if (!spec.is_object() || !spec.contains("module") || !spec["module"].is_string())
      Fail(path, "module '" + name + "' needs \"module\": the kind of module (see macroscope run --help)");
    const std::string kind = spec["module"].get<std::string>();
    if (kind == "workflow") {
      const Json& file = Member(path, spec, "file", Json::value_t::string, "a string");
      if (!file.is_string()) Fail(path, "module '" + name + "' (workflow) needs \"file\"");
      const std::string relative = file.get<std::string>();
      if (!node->children.count(relative)) {
        std::filesystem::path sub = std::filesystem::path(path).parent_path() / relative;
        auto child = Parse(sub.lexically_normal().string(), load, stack);
        node->texts.insert(child->texts.begin(), child->texts.end());
        node->children[relative] = std::move(child);
      }
      for (auto& [key, value] : spec.items())
        if (key != "module" && key != "file" && key != "instances" && key != "parameters" && key != "each")
          Fail(path, "module '" + name + "' (workflow): unknown key \"" + key +
                         "\" (expected file, instances, parameters, each)");
    } else if (!FindModule(kind)) {
      Fail(path, "module '" + name + "': unknown module kind '" + kind + "' (macroscope run --help lists them)");
    }
    node->modules.emplace_back(name, spec);
  }
  for (const Json& link : Member(path, json, "links", Json::value_t::array, "an array")) {
    if (!link.is_array() || link.size() != 2 || !link[0].is_string() || !link[1].is_string())
      Fail(path, "a link is [\"module.port\", \"module.port\"], got " + link.dump());
    node->links.emplace_back(link[0].get<std::string>(), link[1].get<std::string>());
  }
  for (const char* key : {"inputs", "outputs"})
    for (auto& [port, end] : Member(path, json, key, Json::value_t::object, "an object").items()) {
      if (!end.is_string()) Fail(path, std::string(key) + " '" + port + "' must name \"module.port\"");
      SplitEnd(path, end.get<std::string>());
      (std::string(key) == "inputs" ? node->inputs : node->outputs)[port] = end.get<std::string>();
    }
  stack.pop_back();
  return node;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

// `values` over the defaults; unknown or missing parameters refused.
std::map<std::string, std::string> ResolveValues(const Node& node, const std::map<std::string, std::string>& values) {
  std::map<std::string, std::string> resolved;
  for (const auto& [name, value] : values) {
    bool declared = false;
    for (const WorkflowParameter& p : node.parameters) declared |= p.name == name;
    if (!declared) {
      std::string known;
      for (const WorkflowParameter& p : node.parameters) known += (known.empty() ? "" : ", ") + p.name;
      Fail(node.path, "no parameter '" + name + "' (its parameters: " + (known.empty() ? "none" : known) + ")");
    }
    resolved[name] = value;
  }
  for (const WorkflowParameter& p : node.parameters) {
    if (resolved.count(p.name)) continue;
    if (!p.default_value) Fail(node.path, "parameter '" + p.name + "' needs a value (--set " + p.name + "=...)");
    resolved[p.name] = *p.default_value;
  }
  return resolved;
}

// Builds one instance of a file's modules under `prefix` ("" or "runs[2].").
class Builder {
 public:
  Builder(Workflow& workflow, ModuleKinds& kinds) : workflow_(workflow), kinds_(kinds) {}

  struct Ends {
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> inputs;  // exported -> inner ends
    std::map<std::string, std::pair<std::string, std::string>> outputs;              // exported -> inner end
  };

  Ends Build(const Node& node, const std::map<std::string, std::string>& values, const std::string& prefix) {
    // module name -> what links into it / out of it resolve to (sub-workflows).
    std::map<std::string, Ends> composite;
    for (const auto& [name, spec] : node.modules) {
      const std::string kind = spec["module"].get<std::string>();
      const std::string where = "module '" + name + "'";
      if (kind == "workflow") {
        composite[name] = BuildComposite(node, name, Substitute(spec, values, node.path, where), prefix);
        continue;
      }
      Json params = Substitute(spec, values, node.path, where);
      params.erase("module");
      const ModuleInfo& info = *FindModule(kind);
      Params p(prefix + name, nlohmann::json::parse(params.dump()));
      std::unique_ptr<Module> module;
      try {
        p.Check(info);
        module = info.make(prefix + name, p);
      } catch (const UserError& e) {
        Fail(node.path, e.what());
      }
      workflow_.Add(std::move(module));
      kinds_[prefix + name] = kind;
    }
    auto source = [&](const std::string& end) {
      auto [module, port] = SplitEnd(node.path, end);
      if (auto it = composite.find(module); it != composite.end()) {
        auto out = it->second.outputs.find(port);
        if (out == it->second.outputs.end())
          Fail(node.path, "sub-workflow '" + module + "' exports no output '" + port + "'");
        return out->second;
      }
      return std::pair{prefix + module, port};
    };
    auto targets = [&](const std::string& end) {
      auto [module, port] = SplitEnd(node.path, end);
      if (auto it = composite.find(module); it != composite.end()) {
        auto in = it->second.inputs.find(port);
        if (in == it->second.inputs.end())
          Fail(node.path, "sub-workflow '" + module + "' exports no input '" + port + "'");
        return in->second;
      }
      return std::vector{std::pair{prefix + module, port}};
    };
    for (const auto& [from, to] : node.links) {
      auto [from_module, from_port] = source(from);
      for (const auto& [to_module, to_port] : targets(to)) {
        try {
          workflow_.Link(from_module, from_port, to_module, to_port);
        } catch (const UserError& e) {
          Fail(node.path, e.what());
        }
      }
    }
    Ends ends;
    for (const auto& [port, end] : node.inputs) ends.inputs[port] = targets(end);
    for (const auto& [port, end] : node.outputs) ends.outputs[port] = source(end);
    return ends;
  }

 private:
  Ends BuildComposite(const Node& node, const std::string& name, const Json& spec, const std::string& prefix) {
    const Node& child = *node.children.at(spec["file"].get<std::string>());
    // "each": one value per instance (a list, or a comma-separated text).
    std::map<std::string, std::vector<std::string>> each;
    if (spec.contains("each")) {
      if (!spec["each"].is_object()) Fail(node.path, "module '" + name + "': \"each\" must be an object");
      for (auto& [key, value] : spec["each"].items()) each[key] = SplitList(ParameterText(value));
    }
    std::optional<size_t> instances;
    if (spec.contains("instances")) {
      const std::string text = ParameterText(spec["instances"]);
      char* end = nullptr;
      long n = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || n < 1 || n > 100000)
        Fail(node.path, "module '" + name + "': \"instances\" must be a whole number from 1, got \"" + text + "\"");
      instances = static_cast<size_t>(n);
    }
    for (auto& [key, list] : each) {
      if (!instances) instances = list.size();
      if (list.size() != *instances)
        Fail(node.path, "module '" + name + "': \"each\" gives " + std::to_string(list.size()) + " values of '" +
                            key + "' for " + std::to_string(*instances) + " instances");
    }
    if (!instances) instances = 1;
    std::map<std::string, std::string> shared;
    if (spec.contains("parameters")) {
      if (!spec["parameters"].is_object())
        Fail(node.path, "module '" + name + "': \"parameters\" must be an object");
      for (auto& [key, value] : spec["parameters"].items()) shared[key] = ParameterText(value);
    }
    std::vector<Ends> instance_ends;
    for (size_t i = 0; i < *instances; ++i) {
      std::map<std::string, std::string> given = shared;
      for (auto& [key, list] : each) given[key] = list[i];
      std::map<std::string, std::string> resolved;
      try {
        resolved = ResolveValues(child, given);
      } catch (const UserError& e) {
        Fail(node.path, "module '" + name + "': " + e.what());
      }
      resolved["instance"] = std::to_string(i);
      instance_ends.push_back(Build(child, resolved, prefix + name + "[" + std::to_string(i) + "]."));
    }
    // Exported inputs receive the same stream in every instance.
    Ends ends;
    for (auto& e : instance_ends)
      for (auto& [port, inner] : e.inputs) ends.inputs[port].insert(ends.inputs[port].end(), inner.begin(), inner.end());
    // Exported outputs of all instances come out of one module.
    for (const auto& [port, unused] : child.outputs) {
      (void)unused;
      auto [first_module, first_port] = instance_ends[0].outputs.at(port);
      const Port* inner = workflow_.Find(first_module)->FindOutput(first_port);
      if (!inner) Fail(child.path, "exported output '" + port + "': module '" + first_module + "' has no output '" + first_port + "'");
      const bool rows = inner->type() == StreamType<RowBatch>::kName;
      const std::string combiner = prefix + name + "/" + port;
      const ModuleInfo& info = *FindModule(rows ? "collect" : "merge");
      Params p(combiner, nlohmann::json{{"inputs", instance_ends.size()}});
      workflow_.Add(info.make(combiner, p));
      kinds_[combiner] = info.kind;
      for (size_t i = 0; i < instance_ends.size(); ++i) {
        auto [module, out] = instance_ends[i].outputs.at(port);
        workflow_.Link(module, out, combiner, "in" + std::to_string(i + 1));
      }
      ends.outputs[port] = {combiner, rows ? "rows" : "out"};
    }
    return ends;
  }

  Workflow& workflow_;
  ModuleKinds& kinds_;
};

}  // namespace

TextLoader DiskLoader() {
  return [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError(path + ": cannot read the workflow file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
}

WorkflowFile::WorkflowFile(std::shared_ptr<const Node> root) : root_(std::move(root)) {}
WorkflowFile::~WorkflowFile() = default;
WorkflowFile::WorkflowFile(WorkflowFile&&) noexcept = default;
WorkflowFile& WorkflowFile::operator=(WorkflowFile&&) noexcept = default;

WorkflowFile WorkflowFile::Load(const std::string& path, const TextLoader& load) {
  std::vector<std::string> stack;
  return WorkflowFile(Parse(path, load, stack));
}

const std::string& WorkflowFile::path() const { return root_->path; }
const std::string& WorkflowFile::description() const { return root_->description; }
const std::vector<WorkflowParameter>& WorkflowFile::parameters() const { return root_->parameters; }
const std::map<std::string, std::string>& WorkflowFile::texts() const { return root_->texts; }

std::map<std::string, std::string> WorkflowFile::Resolve(const std::map<std::string, std::string>& values) const {
  return ResolveValues(*root_, values);
}

ModuleKinds WorkflowFile::Build(const std::map<std::string, std::string>& values, Workflow& workflow) const {
  ModuleKinds kinds;
  std::map<std::string, std::string> with_instance = values;
  with_instance.emplace("instance", "0");
  Builder(workflow, kinds).Build(*root_, with_instance, "");
  try {
    workflow.CheckComplete();
  } catch (const UserError& e) {
    Fail(root_->path, e.what());
  }
  return kinds;
}

}  // namespace macroscope::pipeline
