// Transparent huge pages for the heap. Reading a large trace builds
// hundreds of megabytes of columns, appended to in thousands of places at
// once; with 4 KB pages nearly every append misses the TLB (a costly walk
// under virtualisation) and every new page faults. glibc's malloc asks the
// kernel for huge pages when its `glibc.malloc.hugetlb` tunable is 1, but
// reads it only when a process starts: so the process starts itself again,
// once, with it set (and the heap's growth tuned with it, huge_pages.cc).
// On an idle 2-core machine this took a fifth off reading the benchmarks'
// mixed Pajé trace (docs/scale.md).
#pragma once

namespace macroscope {

// Execs this binary (by its own path, so that it keeps its name) with `argv`
// and GLIBC_TUNABLES extended by glibc.malloc.hugetlb=1 (and the heap's
// settings), unless the tunable is set already (by an earlier
// start, or by the user), MACROSCOPE_HUGE_PAGES=0, the kernel has
// transparent huge pages off, or the process runs under valgrind (which
// would not follow it). Returns when it does not, or when exec fails.
void RestartWithHugePages(char** argv);

}  // namespace macroscope
