#include "cli/trace_loading.h"

#include <CLI/CLI.hpp>
#include <chrono>

namespace macroscope::cli {

void AddReadOptions(CLI::App& command, formats::ReadOptions& options) {
  command.add_flag("-n,--no-strict", options.paje.no_strict, "Pajé: accept old field names in event definitions");
  command.add_flag("-z,--ignore-incomplete-links", options.paje.simulator.ignore_incomplete_links,
                   "Drop links whose start or end never came (not recommended)");
  command.add_flag("-i,--no-imbrication", options.paje.simulator.no_imbrication,
                   "No nesting: a push interrupts the state below, a pop resumes it");
}

void LoadTrace(const std::vector<std::string>& files, const formats::ReadOptions& options, LoadedTrace& out) {
  auto begin = std::chrono::steady_clock::now();
  out.stats = formats::ReadTrace(files, options, out.trace);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace macroscope::cli
