#include "formats/paje/paje_format.h"

namespace macroscope::paje {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikePaje(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  ReadOptions paje = options.paje;
  paje.simulator.sink = options.sink;
  paje.simulator.progress = options.progress;
  ReadStats s = ReadPaje(files, paje, trace, options.threads, options.share);
  return {.events = s.events, .bytes = s.bytes};
}

}  // namespace

formats::Format PajeFormat() {
  return {"paje", "Pajé text traces (pj_dump 1.3.6 semantics; SimGrid, Akypuera, PajeNG writers)", Sniff, Read};
}

}  // namespace macroscope::paje
