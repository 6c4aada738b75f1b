// The workload the kernel_recorded tests trace: a process whose threads
// spin, sleep and exit at known times, and a child process it forks. Each
// task prints one line "task NAME TID PID" on standard output as it starts,
// under the name it gives itself (prctl), so that the tests know whom to
// look for in the recordings. About 0.3 s in all.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
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
  pthread_t spinner, sleeper;
  if (pthread_create(&spinner, NULL, Spinner, NULL) != 0 || pthread_create(&sleeper, NULL, Sleeper, NULL) != 0)
    return 1;
  Spin(30);
  Sleep(50);
  pthread_join(spinner, NULL);
  pthread_join(sleeper, NULL);
  int status = 0;
  waitpid(child, &status, 0);
  Spin(20);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
