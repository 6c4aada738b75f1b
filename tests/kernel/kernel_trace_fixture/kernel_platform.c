/* See kernel_platform.h. barectf calls back into here to read the clock and
 * to open/close packets; a closed packet is appended to its CPU's file. */
#include "kernel_platform.h"

#include <stdio.h>
#include <stdlib.h>

/* Big enough for the largest event record plus the packet header and
 * context, small enough that every stream spans several packets. */
enum { kPacketBytes = 512 };

struct CpuStream {
  struct barectf_channel0_ctx ctx;
  uint8_t buf[kPacketBytes];
  FILE *file;
  uint32_t cpu;
};

static struct CpuStream streams[kPlatformCpus];
static uint64_t clock_value;

static void Fail(const char *what, const char *path) {
  fprintf(stderr, "make_kernel_trace: cannot %s %s\n", what, path);
  exit(1);
}

static uint64_t ClockValue(void *data) {
  (void)data;
  return clock_value;
}

/* The files take every packet; nothing is ever discarded. */
static int IsBackendFull(void *data) {
  (void)data;
  return 0;
}

static void OpenPacket(void *data) {
  struct CpuStream *s = data;
  barectf_channel0_open_packet(&s->ctx, s->cpu);
}

static void ClosePacket(void *data) {
  struct CpuStream *s = data;
  barectf_channel0_close_packet(&s->ctx);
  if (fwrite(barectf_packet_buf(&s->ctx), 1, barectf_packet_buf_size(&s->ctx), s->file) !=
      barectf_packet_buf_size(&s->ctx))
    Fail("write", "a stream file");
}

void PlatformOpen(const char *trace_dir, uint64_t clock_ns) {
  struct barectf_platform_callbacks callbacks = {ClockValue, IsBackendFull, OpenPacket, ClosePacket};
  clock_value = clock_ns;
  for (int cpu = 0; cpu < kPlatformCpus; ++cpu) {
    struct CpuStream *s = &streams[cpu];
    char path[4096];
    snprintf(path, sizeof path, "%s/channel0_%d", trace_dir, cpu);
    s->file = fopen(path, "wb");
    if (s->file == NULL) Fail("create", path);
    s->cpu = (uint32_t)cpu;
    barectf_init(&s->ctx, s->buf, sizeof s->buf, callbacks, s);
    OpenPacket(s);
  }
}

void PlatformSetClock(uint64_t clock_ns) { clock_value = clock_ns; }

struct barectf_channel0_ctx *PlatformStream(int cpu) { return &streams[cpu].ctx; }

void PlatformClose(void) {
  for (int cpu = 0; cpu < kPlatformCpus; ++cpu) {
    struct CpuStream *s = &streams[cpu];
    if (barectf_packet_is_open(&s->ctx)) ClosePacket(s);
    if (fclose(s->file) != 0) Fail("close", "a stream file");
  }
}
