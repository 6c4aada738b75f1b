// Every module of the library, one function per module (in the file named
// after it); module_list.cc lists them for the registry.
#pragma once

#include "pipeline/registry.h"

namespace macroscope::pipeline {

// Sources
ModuleInfo ReadModule();  // read.cc: a trace, streamed
// Flow
ModuleInfo SplitModule();    // split.cc: round-robin over out1..outN
ModuleInfo MergeModule();    // merge.cc: in1..inN into one stream
ModuleInfo LimitModule();    // limit.cc: skip k, keep n
ModuleInfo CollectModule();  // collect.cc: rows of N runs, a `run` column first
// Analyses
ModuleInfo FilterModule();      // filter.cc: matched / unmatched
ModuleInfo CountModule();       // count.cc: rows key,count
ModuleInfo StatisticsModule();  // statistics.cc: count, mean, std dev, min, max, sum per key
ModuleInfo MeasureModule();     // measure.cc: one row per entity (duration, latency, value)
// Kernel and embedded analyses (docs/kernel.md)
ModuleInfo KernelProcessesModule();   // kernel_processes.cc: one row per thread
ModuleInfo KernelSubsystemsModule();  // kernel_subsystems.cc: events and time per subsystem
ModuleInfo KernelMemoryModule();      // kernel_memory.cc: libc allocations per process
ModuleInfo AnomaliesModule();         // anomalies.cc: outside mean ± 3σ/√n
ModuleInfo CorrelateModule();         // correlate.cc: Pearson r of two series
// Writers and charts
ModuleInfo WriteCsvModule();    // write_csv.cc
ModuleInfo WriteJsonModule();   // write_json.cc
ModuleInfo WritePajeModule();   // write_paje.cc
ModuleInfo WriteStoreModule();  // write_store.cc
ModuleInfo BoxPlotModule();     // box_plot.cc
ModuleInfo CurveModule();       // curve.cc
ModuleInfo HistogramModule();   // histogram.cc

}  // namespace macroscope::pipeline
