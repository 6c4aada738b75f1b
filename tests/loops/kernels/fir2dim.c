/* fir2dim: a 3x3 filter over a 10x10 image (the thesis' DSPstone kernel),
 * walking the image with a pointer per filter row. The loops tests trace
 * its data addresses with valgrind's lackey and model them. */
#include <stdio.h>

#define IMAGEDIM 10
#define ARRAYDIM (IMAGEDIM + 2) /* the image with a border of one pixel */

int image[ARRAYDIM * ARRAYDIM];
int coefficients[9];
int output[IMAGEDIM * IMAGEDIM];

__attribute__((noinline)) void fir2dim(void) {
  int *out = output;
  for (int k = 0; k < IMAGEDIM; k++) {
    for (int f = 0; f < IMAGEDIM; f++) {
      const int *coefficient = coefficients;
      const int *row = &image[k * ARRAYDIM + f];
      *out = 0;
      for (int r = 0; r < 3; r++, row += ARRAYDIM) {
        for (int c = 0; c < 3; c++) *out += *coefficient++ * row[c];
      }
      out++;
    }
  }
}

int main(void) {
  for (int i = 0; i < ARRAYDIM * ARRAYDIM; i++) image[i] = i % 7;
  for (int i = 0; i < 9; i++) coefficients[i] = i - 4;
  fir2dim();
  printf("%d\n", output[IMAGEDIM + 1]);
  return 0;
}
