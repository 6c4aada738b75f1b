#include "formats/chrome/chrome_format.h"

#include <cstdio>

#include "formats/chrome/chrome_reader.h"

namespace macroscope::chrome {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeChrome(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  paje::SimulatorOptions simulation;
  simulation.sink = options.sink;
  simulation.drain_interval = options.paje.simulator.drain_interval;
  ReadReport report = ReadChrome(files, trace, simulation);
  // Counted problems, one line each, on stderr: never a silent drop.
  for (const std::string& w : report.Warnings())
    std::fprintf(stderr, "macroscope: warning: %s: %s\n", files.front().c_str(), w.c_str());
  return {report.events, report.bytes};
}

}  // namespace

formats::Format ChromeFormat() {
  return {"chrome", "Chrome Trace Event JSON (chrome://tracing, catapult, Perfetto's JSON importer)", Sniff, Read};
}

}  // namespace macroscope::chrome
