// `macroscope kernel processes|subsystems|memory|latency TRACE`: the analyses of
// kernel and embedded traces (docs/kernel.md). Each subcommand lives in its
// own kernel_*_command.cc; this file only makes the group.
#include "cli/commands.h"

namespace macroscope::cli {

void RegisterKernelCommand(CLI::App& app) {
  CLI::App* group = app.add_subcommand("kernel", "Kernel and embedded analyses: processes, subsystems, memory, latency");
  group->require_subcommand(1);
  RegisterKernelProcesses(*group);
  RegisterKernelSubsystems(*group);
  RegisterKernelMemory(*group);
  RegisterKernelLatency(*group);
}

}  // namespace macroscope::cli
