#include "formats/chrome/chrome_format.h"

#include "formats/chrome/chrome_reader.h"

namespace macroscope::chrome {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeChrome(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  ReadReport report = ReadChrome(files, trace, formats::StreamingSimulation(options), options.paje.sort_memory);
  formats::WarnTolerated(files.front(), report.Warnings());
  return {.events = report.events, .bytes = report.bytes};
}

}  // namespace

formats::Format ChromeFormat() {
  return {"chrome", "Chrome Trace Event JSON (chrome://tracing, catapult, Perfetto's JSON importer)", Sniff, Read};
}

}  // namespace macroscope::chrome
