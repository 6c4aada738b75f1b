// The records of trace-cmd `.dat` files, read by libtracecmd and decoded by
// libtraceevent, as the CTF reader's plain events (ctf/ctf_event.h), so
// that one mapping (ctf/event_mapper.h) rebuilds the kernel's threads for
// LTTng, perf and ftrace alike. docs/ftrace.md gives the rules.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/ctf/ctf_event.h"

namespace macroscope::ftrace {

// True when `head` (a file's first bytes) starts with the `.dat` magic.
bool LooksLikeTraceCmdData(std::string_view head);

struct TraceCmdRecordStats {
  uint64_t records = 0;  // records handed over, as `trace-cmd report` prints them
  uint64_t bytes = 0;    // size of the files
  // Records the kernel's ring buffer dropped, per CPU ("CPU N"; "FILE CPU N"
  // with several files): a count, or -1 when it only said that some were lost.
  std::map<std::string, int64_t> lost;
  // The files' buffer instances (`trace-cmd record -B`), not read: "NAME"
  // ("FILE: NAME" with several files).
  std::vector<std::string> instances;
};

// Calls `on_event` for every record of `files`, the CPUs of each file
// merged in time order as `trace-cmd report` merges them (by timestamp, the
// lower CPU first among equal ones); several files are merged by timestamp
// too. Each file is one trace (its CtfTraceInfo: domain "kernel", index =
// its position), each CPU one stream. The event and its strings live until
// `on_event` returns. Throws UserError naming the file for bad input; an
// exception from `on_event` propagates.
TraceCmdRecordStats ForEachTraceCmdRecord(const std::vector<std::string>& files,
                                         const std::function<void(const ctf::CtfEvent&)>& on_event);

}  // namespace macroscope::ftrace
