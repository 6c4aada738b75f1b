// Workflow files (docs/workflows.md): JSON naming parameters, module
// instances with their parameters, and links; `${name}` in any string is
// replaced by a parameter's value. A module of kind "workflow" uses another
// file as a module, instantiated N times (a campaign's runs): its exported
// outputs come out collected (rows, with a `run` column) or merged
// (entities), its exported inputs receive what is linked to it.
//
//   {
//     "description": "Counts entities by name",
//     "parameters": {"input": {"description": "the trace"},
//                    "output": {"default": "counts.csv"}},
//     "modules": {"read":  {"module": "read", "input": "${input}"},
//                 "count": {"module": "count", "by": "value"},
//                 "write": {"module": "write-csv", "path": "${output}"}},
//     "links": [["read.out", "count.in"], ["count.rows", "write.in"]],
//     "outputs": {"rows": "count.rows"}
//   }
//
// Every problem is a UserError naming the file.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/workflow.h"

namespace macroscope::pipeline {

struct WorkflowParameter {
  std::string name;
  std::string description;
  std::optional<std::string> default_value;  // none: required
};

// Gives a workflow file's text from its path: the file on disk, or the
// text a recorded run kept (catalog rerun).
using TextLoader = std::function<std::string(const std::string& path)>;
TextLoader DiskLoader();

// What Build() made, for the picture of a workflow: each instance's kind.
using ModuleKinds = std::map<std::string, std::string>;

class WorkflowFile {
 public:
  // Reads and checks `path` and the files it uses as modules.
  static WorkflowFile Load(const std::string& path, const TextLoader& load);
  ~WorkflowFile();
  WorkflowFile(WorkflowFile&&) noexcept;
  WorkflowFile& operator=(WorkflowFile&&) noexcept;

  const std::string& path() const;
  const std::string& description() const;
  const std::vector<WorkflowParameter>& parameters() const;
  // Every file's text by path, the main file's included, as loaded.
  const std::map<std::string, std::string>& texts() const;

  // The value of every parameter: `values` (from --set) over the defaults.
  // Throws for a value of an undeclared parameter or a missing one.
  std::map<std::string, std::string> Resolve(const std::map<std::string, std::string>& values) const;
  // Adds the modules and links to `workflow`, with resolved `values`.
  ModuleKinds Build(const std::map<std::string, std::string>& values, Workflow& workflow) const;

  struct Node;  // one parsed file (workflow_file.cc)

 private:
  explicit WorkflowFile(std::shared_ptr<const Node> root);
  std::shared_ptr<const Node> root_;
};

}  // namespace macroscope::pipeline
