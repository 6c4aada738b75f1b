// The workload the kernel_recorded tests trace: a process whose threads
// spin, sleep and exit at known times, and a child process it forks. Each
// task prints one line "task NAME TID PID" on standard output as it starts,
// under the name it gives itself (prctl), so that the tests know whom to
// look for in the recordings. A pair has dependencies known by
// construction (the thread critical path tests): kr-reader blocks reading
// a pipe that kr-writer writes to after spinning 30 ms, then blocks in
// recv on a loopback UDP socket that kr-writer sends to 15 ms later (the
// wakeup then comes from the NET_RX softirq); kr-writer writes and sends
// only once kr-reader sleeps. About 0.3 s in all.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void Announce(const char* name) {
  prctl(PR_SET_NAME, name, 0, 0, 0);
  // One write per line: the child's and the threads' lines never interleave.
  dprintf(STDOUT_FILENO, "task %s %d %d\n", name, (int)gettid(), (int)getpid());
}

static long long NowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// Busy for `ms` milliseconds of wall time (running, unless preempted).
static void Spin(int ms) {
  long long end = NowNs() + ms * 1000000LL;
  volatile unsigned long sink = 0;
  while (NowNs() < end) sink += 1;
}

static void Sleep(int ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void* Spinner(void* arg) {
  (void)arg;
  Announce("kr-spinner");
  Spin(80);
  Sleep(40);
  Spin(40);
  return NULL;  // the thread exits here
}

static void* Sleeper(void* arg) {
  (void)arg;
  Announce("kr-sleeper");
  Sleep(60);
  Spin(10);
  Sleep(30);
  return NULL;
}

static int pipe_ends[2];
static int udp_in = -1, udp_out = -1;  // a socket bound on loopback, one connected to it
static volatile pid_t reader_tid = 0;

// Busy until thread `tid` of this process sleeps (state S in its
// /proc stat): kr-reader blocked, whatever the machine's load delayed.
static void SpinUntilAsleep(pid_t tid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
  for (;;) {
    FILE* f = fopen(path, "r");
    if (f == NULL) return;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    const char* close = strrchr(text, ')');  // the state follows the (comm)
    if (close == NULL || close[1] == 0 || close[2] == 'S') return;
  }
}

static void* Reader(void* arg) {
  (void)arg;
  Announce("kr-reader");
  reader_tid = gettid();
  char byte = 0;
  // Blocks until kr-writer writes: its wakeup comes from kr-writer.
  if (read(pipe_ends[0], &byte, 1) != 1) return (void*)1;
  Spin(5);
  if (recv(udp_in, &byte, 1, 0) != 1) return (void*)1;
  Spin(5);
  return NULL;
}

static void* Writer(void* arg) {
  (void)arg;
  Announce("kr-writer");
  Spin(30);
  SpinUntilAsleep(reader_tid);
  if (write(pipe_ends[1], "x", 1) != 1) return (void*)1;
  Spin(15);
  SpinUntilAsleep(reader_tid);
  if (send(udp_out, "y", 1, 0) != 1) return (void*)1;
  Spin(5);
  return NULL;
}

int main(void) {
  Announce("kr-main");
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    Announce("kr-child");
    Sleep(20);
    Spin(50);
    _exit(0);
  }
  pthread_t spinner, sleeper, reader, writer;
  if (pthread_create(&spinner, NULL, Spinner, NULL) != 0 || pthread_create(&sleeper, NULL, Sleeper, NULL) != 0)
    return 1;
  Spin(30);
  Sleep(50);
  pthread_join(spinner, NULL);
  pthread_join(sleeper, NULL);
  // The pipe pair, alone: the reader is sure to block before the writer writes.
  void* read_failed = NULL;
  void* write_failed = NULL;
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t length = sizeof address;
  udp_in = socket(AF_INET, SOCK_DGRAM, 0);
  udp_out = socket(AF_INET, SOCK_DGRAM, 0);
  if (udp_in < 0 || udp_out < 0 || bind(udp_in, (struct sockaddr*)&address, sizeof address) != 0 ||
      getsockname(udp_in, (struct sockaddr*)&address, &length) != 0 ||
      connect(udp_out, (struct sockaddr*)&address, sizeof address) != 0)
    return 1;
  if (pipe(pipe_ends) != 0 || pthread_create(&reader, NULL, Reader, NULL) != 0) return 1;
  while (reader_tid == 0) Sleep(1);
  if (pthread_create(&writer, NULL, Writer, NULL) != 0) return 1;
  pthread_join(reader, &read_failed);
  pthread_join(writer, &write_failed);
  if (read_failed != NULL || write_failed != NULL) return 1;
  int status = 0;
  waitpid(child, &status, 0);
  Spin(20);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
