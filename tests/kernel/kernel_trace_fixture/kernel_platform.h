/* The barectf platform of the kernel-shaped trace: one CTF stream file per
 * CPU (`channel0_N`, as LTTng names them), small fixed-size packets (so the
 * streams have several), and a clock that returns the script's time, so every
 * timestamp is an exact integer of nanoseconds chosen by the script. */
#pragma once

#include <stdint.h>

#include "barectf.h"

enum { kPlatformCpus = 2 };

/* Creates TRACE_DIR's stream files and opens each CPU's first packet at
 * clock value `clock_ns`. Exits the program on an I/O error. */
void PlatformOpen(const char *trace_dir, uint64_t clock_ns);

/* The value the clock returns from now on. */
void PlatformSetClock(uint64_t clock_ns);

struct barectf_channel0_ctx *PlatformStream(int cpu);

/* Closes every CPU's last packet (at the current clock) and the files. */
void PlatformClose(void);
