/* trisolve: forward substitution, L x = b with L lower triangular, 16x16:
 * a triangular loop nest (the inner bound is the outer index). The loops
 * tests trace its data addresses with valgrind's lackey and model them. */
#include <stdio.h>

#define N 16

double L[N][N], b[N], x[N];

__attribute__((noinline)) void trisolve(void) {
  for (int i = 0; i < N; i++) {
    double sum = b[i];
    for (int j = 0; j < i; j++) sum -= L[i][j] * x[j];
    x[i] = sum / L[i][i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    b[i] = i + 1;
    for (int j = 0; j <= i; j++) L[i][j] = i == j ? 2.0 : 1.0 / (i + j + 1);
  }
  trisolve();
  printf("%g\n", x[N - 1]);
  return 0;
}
