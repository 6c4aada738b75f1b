/* matmul: C = A B on 12x12 matrices, the textbook i, j, k order. The loops
 * tests trace its data addresses with valgrind's lackey and model them. */
#include <stdio.h>

#define N 12

double A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) void matmul(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double sum = 0;
      for (int k = 0; k < N; k++) sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      A[i][j] = i + j;
      B[i][j] = i - j;
    }
  }
  matmul();
  printf("%g\n", C[1][2]);
  return 0;
}
