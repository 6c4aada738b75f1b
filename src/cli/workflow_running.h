// Running a workflow file and recording the run in the catalog: what
// `macroscope run` and `macroscope catalog rerun` share.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "pipeline/workflow_file.h"

namespace macroscope::cli {

struct RunRequest {
  std::map<std::string, std::string> values;  // resolved parameters
  std::optional<std::string> catalog;          // the catalog file to record in; none: not recorded
  bool quiet = false;                          // no summary on stderr
  std::optional<int64_t> rerun_of;             // the recorded run it repeats
};

// Builds and runs `file`; returns the run's id in the catalog (0 when not
// recorded). Throws UserError when the workflow cannot be built or a module
// fails (the failure is recorded first).
int64_t RunWorkflowFile(const pipeline::WorkflowFile& file, const RunRequest& request);

}  // namespace macroscope::cli
