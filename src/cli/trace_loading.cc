#include "cli/trace_loading.h"

#include <CLI/CLI.hpp>
#include <chrono>

namespace macroscope::cli {

void AddReadOptions(CLI::App& command, paje::ReadOptions& options) {
  command.add_flag("-n,--no-strict", options.no_strict, "Accept old field names in event definitions");
  command.add_flag("-z,--ignore-incomplete-links", options.simulator.ignore_incomplete_links,
                   "Drop links whose start or end never came (not recommended)");
  command.add_flag("-i,--no-imbrication", options.simulator.no_imbrication,
                   "No nesting: a push interrupts the state below, a pop resumes it");
}

void LoadTrace(const std::vector<std::string>& files, const paje::ReadOptions& options, LoadedTrace& out) {
  auto begin = std::chrono::steady_clock::now();
  out.stats = paje::ReadPaje(files, options, out.trace);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace macroscope::cli
