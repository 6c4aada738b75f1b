// The registry's data: every module a workflow file can name.
#include <vector>

#include "pipeline/modules/modules.h"
#include "pipeline/registry.h"

namespace macroscope::pipeline {

std::span<const ModuleInfo> AllModules() {
  static const std::vector<ModuleInfo> modules = {
      ReadModule(),       SplitModule(),     MergeModule(),     LimitModule(),      CollectModule(),
      FilterModule(),     CountModule(),     StatisticsModule(), MeasureModule(),   WriteCsvModule(),
      WriteJsonModule(),  WritePajeModule(), WriteStoreModule(), BoxPlotModule(),   CurveModule(),
      HistogramModule(),  KernelProcessesModule(), KernelSubsystemsModule(), KernelMemoryModule(),
      AnomaliesModule(),  CorrelateModule(),
  };
  return modules;
}

const ModuleInfo* FindModule(std::string_view kind) {
  for (const ModuleInfo& m : AllModules())
    if (m.kind == kind) return &m;
  return nullptr;
}

}  // namespace macroscope::pipeline
