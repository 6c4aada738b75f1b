// Reading in a child process, for fuzz targets over a C library that ends
// the process on corrupt input or lets memory grow without bound
// (babeltrace2: failed assertions, which AbortGuard turns into exit
// kAbortGuardExit; an index that grows until memory runs out on a stream
// whose packets claim size 0). Those end the child and count as a refused
// input, leaving libFuzzer's process clean: no leaked library state, no
// memory held. See fuzz/README.md.
//
// The child's coverage counters are copied back on a normal end, so the
// fuzzer still sees which code each input reached. Any other end of the
// child — a sanitizer's report, a deadly signal, an uncaught exception —
// is a finding: the child printed its report, and the parent then aborts
// so that libFuzzer keeps the input. Leaks go unchecked in the child
// (LeakSanitizer cannot walk a forked process).
#pragma once

#include <cstddef>
#include <functional>

namespace macroscope::fuzz {

// Runs `read` (UserError is the reader refusing the input, as it should)
// in a child; the child stops as refused once the process's allocations
// grow by more than `budget_mb` MB.
void ReadIsolated(const std::function<void()>& read, size_t budget_mb);

}  // namespace macroscope::fuzz
