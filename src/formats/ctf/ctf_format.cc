#include "formats/ctf/ctf_format.h"

#include <cstdio>
#include <string>

#include "formats/ctf/ctf_reader.h"
#include "formats/ctf/trace_directories.h"

namespace macroscope::ctf {

namespace {

// A directory holding CTF traces, or a CTF metadata file (by its first bytes).
bool Sniff(const std::string& path, std::string_view head) {
  if (!head.empty()) return LooksLikeCtfMetadata(head) && LooksLikeCtf(path);
  return LooksLikeCtf(path);
}

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  CtfReadOptions ctf;
  ctf.events_only = options.events_only;
  ctf.simulator.sink = options.sink;
  ctf.simulator.drain_interval = options.paje.simulator.drain_interval;
  CtfReadStats s = ReadCtf(files, trace, ctf);
  // Tolerated, never silent: one line on stderr.
  if (std::string warning = s.overlaps.Warning(); !warning.empty())
    std::fprintf(stderr, "macroscope: warning: %s: %s\n", files.front().c_str(), warning.c_str());
  return {s.events, s.bytes};
}

}  // namespace

formats::Format CtfFormat() {
  return {"ctf", "CTF 1.8 traces through babeltrace2 (LTTng kernel and userspace, barectf, perf)", Sniff, Read};
}

}  // namespace macroscope::ctf
