/* stencil: two sweeps of a 2-D 5-point Jacobi relaxation on a 16x16 grid,
 * from grid into next and back. The loops tests trace its data addresses
 * with valgrind's lackey and model them. */
#include <stdio.h>

#define N 16
#define SWEEPS 2

double grid[N][N], next[N][N];

__attribute__((noinline)) void stencil(void) {
  for (int t = 0; t < SWEEPS; t++) {
    double(*in)[N] = t % 2 == 0 ? grid : next;
    double(*out)[N] = t % 2 == 0 ? next : grid;
    for (int i = 1; i < N - 1; i++) {
      for (int j = 1; j < N - 1; j++) {
        out[i][j] = 0.2 * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
      }
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) grid[i][j] = (i * N + j) % 5;
  }
  stencil();
  printf("%g\n", grid[N / 2][N / 2]);
  return 0;
}
