/* The program tests/ctf/record_lttng_trace.sh traces with LTTng-UST: a
 * main thread and kThreads workers, each with known malloc/free calls,
 * tracef messages and nested function calls. Built with
 * -finstrument-functions, so liblttng-ust-cyg-profile.so (preloaded) records
 * func_entry/func_exit for every function below; lttng's own inline
 * functions are marked notrace. ctf_recorded_test.cc checks the counts
 * derived from the constants here. An argument, ROUNDS, replaces kRounds
 * (bench/read_threads records a big trace so). */
#include <lttng/tracef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 3, kRounds = 4, kDepth = 2 };
static int rounds = kRounds;

/* Recursion: kDepth + 1 nested calls, so function states nest per thread. */
static int Nest(int depth) { return depth == 0 ? 1 : 1 + Nest(depth - 1); }

static void *Worker(void *arg) {
  int id = (int)(long)arg;
  for (int round = 0; round < rounds; ++round) {
    /* A size the test can tell apart from the C library's own allocations;
     * the block is read back so no optimizer drops the malloc/free pair. */
    size_t size = (size_t)(1000 + 100 * id + round);
    char *block = malloc(size);
    if (block == NULL) abort();
    memset(block, 'a' + id, size);
    tracef("worker %d round %d depth %d %c", id, round, Nest(kDepth), block[size - 1]);
    free(block);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) rounds = atoi(argv[1]);
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; ++i)
    if (pthread_create(&threads[i], NULL, Worker, (void *)i) != 0) return 1;
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);
  tracef("done %d", kThreads);
  return 0;
}
