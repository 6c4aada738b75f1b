#include "formats/gstreamer/gstreamer_format.h"

#include "formats/gstreamer/gstreamer_reader.h"

namespace macroscope::gstreamer {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeGstreamer(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  ReadReport report = ReadGstreamer(files, trace, formats::StreamingSimulation(options));
  formats::WarnTolerated(files.front(), report.Warnings());
  return {.events = report.messages, .bytes = report.bytes};
}

}  // namespace

formats::Format GstreamerFormat() {
  return {"gstreamer", "GStreamer debug logs (GST_DEBUG=... output, with or without ANSI colours)", Sniff, Read};
}

}  // namespace macroscope::gstreamer
