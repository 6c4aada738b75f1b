#include "formats/gstreamer/gstreamer_format.h"

#include <cstdio>

#include "formats/gstreamer/gstreamer_reader.h"

namespace macroscope::gstreamer {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeGstreamer(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  paje::SimulatorOptions simulation;
  simulation.sink = options.sink;
  simulation.drain_interval = options.paje.simulator.drain_interval;
  ReadReport report = ReadGstreamer(files, trace, simulation);
  // Counted problems, one line each, on stderr: never a silent drop.
  for (const std::string& w : report.Warnings())
    std::fprintf(stderr, "macroscope: warning: %s: %s\n", files.front().c_str(), w.c_str());
  return {report.messages, report.bytes};
}

}  // namespace

formats::Format GstreamerFormat() {
  return {"gstreamer", "GStreamer debug logs (GST_DEBUG=... output, with or without ANSI colours)", Sniff, Read};
}

}  // namespace macroscope::gstreamer
