/* The program kernel_memory_test.cc records with LTTng-UST and the libc
 * wrapper preloaded (tests/ctf/record_lttng_trace.sh): one thread whose
 * allocations between two marker blocks are known exactly. The test reads
 * the figures it expects from the comments below (bytes in use after each
 * step, counted from the begin marker's release).
 *
 * The C runtime and LTTng-UST allocate in this process too (before main,
 * in tracef, at exit), so the markers bracket the measured section: blocks
 * of sizes nothing else asks for, each freed at once.
 *
 * Built with -fno-builtin (no malloc/free pair may be optimised away) and
 * -finstrument-functions (the recording script checks for cyg-profile
 * events). abort() when the C library does not behave as the comments
 * assume (a realloc expected in place that moved, or the reverse). */
#include <lttng/tracef.h>
#include <malloc.h>
#include <stdlib.h>

enum {
  kBeginMarker = 1234567, /* malloc'd and freed: the section starts after */
  kEndMarker = 7654321,   /* malloc'd and freed: the section ends before */
  kBlocks = 100,          /* malloc(16 + 8 i), i = 0..99: 41200 bytes */
  kKept = 10,             /* blocks 90..99 stay allocated: 7720 bytes */
};

static void *Check(void *p) {
  if (p == NULL) abort();
  return p;
}

int main(void) {
  static void *blocks[kBlocks];
  free(Check(malloc(kBeginMarker)));
  for (int i = 0; i < kBlocks; ++i) blocks[i] = Check(malloc((size_t)(16 + 8 * i))); /* 41200 */
  void *zeroed = Check(calloc(10, 32));                                               /* 41520 */
  char *grown = Check(realloc(NULL, 500));                                            /* malloc: 42020 */
  char *shrunk = Check(realloc(grown, 200)); /* in place: 41720 */
  if (shrunk != grown) abort();
  void *moving = Check(malloc(64));             /* 41784 */
  void *guard = Check(malloc(64));              /* 41848; in use after `moving`: it cannot grow in place */
  void *moved = Check(realloc(moving, 4096));   /* 45880 */
  if (moved == moving) abort();
  void *aligned = Check(memalign(64, 256)); /* 46136 */
  void *posix = NULL;
  if (posix_memalign(&posix, 64, 384) != 0) abort(); /* 46520: the section's peak */
  free(NULL);
  free(NULL);
  for (int i = 0; i < kBlocks - kKept; ++i) free(blocks[i]); /* 13040 */
  if (realloc(zeroed, 0) != NULL) abort();                    /* a free: 12720 */
  free(moved);                                                /* 8624 */
  free(guard);                                                /* 8560 */
  free(aligned);                                              /* 8304 */
  free(posix);                                                /* 7920 */
  /* aligned_alloc is not wrapped: its free is a free of an unknown pointer. */
  free(Check(aligned_alloc(64, 128)));
  free(Check(malloc(kEndMarker)));
  /* Left allocated: blocks 90..99 and `shrunk`, 7920 bytes. */
  tracef("done: %p kept", (void *)shrunk);
  return 0;
}
