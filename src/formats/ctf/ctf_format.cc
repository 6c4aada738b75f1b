#include "formats/ctf/ctf_format.h"

#include <algorithm>
#include <string>
#include <thread>

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
  // 0: a decoding thread per core but the simulating thread's (on 2 cores,
  // the one graph: see bench/read_threads).
  ctf.threads = options.threads > 0 ? options.threads
                                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
  ctf.simulator = formats::StreamingSimulation(options);
  ctf.share = options.share;
  CtfReadStats s = ReadCtf(files, trace, ctf);
  // Tolerated, never silent: one line on stderr.
  if (std::string warning = s.overlaps.Warning(); !warning.empty()) formats::WarnTolerated(files.front(), {warning});
  return {.events = s.events, .bytes = s.bytes};
}

}  // namespace

formats::Format CtfFormat() {
  return {"ctf", "CTF 1.8 traces through babeltrace2 (LTTng kernel and userspace, barectf, perf)", Sniff, Read};
}

}  // namespace macroscope::ctf
