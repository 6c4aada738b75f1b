// The `macroscope` command users run. It starts the program itself,
// macroscope-core beside it, with the heap on transparent huge pages:
// reading a large trace builds hundreds of megabytes of columns, appended
// to in thousands of places at once; with 4 KB pages nearly every append
// misses the TLB (a costly walk under virtualisation) and every new page
// faults. glibc's malloc asks the kernel for huge pages when its
// `glibc.malloc.hugetlb` tunable is 1, but reads its tunables only when a
// process starts. The core restarting itself with them cost a second
// start, its fifty shared libraries loaded again (9 ms of the 0.4 s the
// benchmarks' mixed Pajé trace takes to read); this program loads libc
// alone. On an idle 2-core machine the huge pages took a fifth off that
// reading (docs/scale.md).
//
// The settings are left as they are when GLIBC_TUNABLES sets
// glibc.malloc.hugetlb already (the user's choice), when
// MACROSCOPE_HUGE_PAGES=0, or when the kernel has transparent huge pages
// off. Under valgrind, run macroscope-core itself (valgrind would check
// this program only, unless it follows children).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Blocks under 32 MB from the heap: a growing column then moves within
// huge pages instead of into a fresh mapping that faults and is zeroed
// again (of the settings tried on the mixed trace, the fastest without
// more memory: median 1.01 s with glibc's defaults, 1.04 s with huge
// pages alone, 0.78 s so; peak 317 MB against 309).
// The heap mapped 8 MB ahead of its use: room for the decoding thread to
// fault pages in before the simulating thread writes them
// (util/heap_prefault.h; a larger pad cost the mixed trace more memory).
static const char kTunables[] =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=8388608";

static int HugePagesWanted(void) {
  const char* wanted = getenv("MACROSCOPE_HUGE_PAGES");
  if (wanted != NULL && strcmp(wanted, "0") == 0) return 0;
  const char* tunables = getenv("GLIBC_TUNABLES");
  if (tunables != NULL && strstr(tunables, "glibc.malloc.hugetlb") != NULL) return 0;
  char mode[128] = "";
  int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, mode, sizeof mode - 1);
  close(fd);
  if (n <= 0) return 0;
  mode[n] = '\0';
  return strstr(mode, "[never]") == NULL;
}

int main(int argc, char** argv) {
  (void)argc;
  // Beside this program's own file (symbolic links resolved).
  char core[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", core, sizeof core - 1);
  if (n <= 0) {
    fprintf(stderr, "macroscope: cannot find its own file (/proc/self/exe): %s\n", strerror(errno));
    return 2;
  }
  core[n] = '\0';
  char* slash = strrchr(core, '/');
  static const char kCore[] = "macroscope-core";
  if (slash == NULL || (size_t)(slash + 1 - core) + sizeof kCore > sizeof core) {
    fprintf(stderr, "macroscope: cannot place macroscope-core beside %s\n", core);
    return 2;
  }
  memcpy(slash + 1, kCore, sizeof kCore);
  if (HugePagesWanted()) {
    const char* before = getenv("GLIBC_TUNABLES");
    char value[4096];
    int length = snprintf(value, sizeof value, "%s%s%s", before != NULL && *before != '\0' ? before : "",
                          before != NULL && *before != '\0' ? ":" : "", kTunables);
    if (length > 0 && (size_t)length < sizeof value) setenv("GLIBC_TUNABLES", value, 1);
  }
  execv(core, argv);
  fprintf(stderr, "macroscope: cannot start %s: %s\n", core, strerror(errno));
  return 2;
}
