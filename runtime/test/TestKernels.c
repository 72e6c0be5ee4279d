/* Kernels for the runtime's tests, built as a shared object and embedded in
 * test artifacts. ABI: void symbol(void **buffers), shapes fixed per kernel. */
#include <stdint.h>

/* out[6] = a[6] + b[6] */
void add6_f32(void **b) {
  const float *x = b[0], *y = b[1];
  float *out = b[2];
  for (int i = 0; i < 6; ++i)
    out[i] = x[i] + y[i];
}

/* out[6] = a[6] * b[6] */
void mul6_f32(void **b) {
  const float *x = b[0], *y = b[1];
  float *out = b[2];
  for (int i = 0; i < 6; ++i)
    out[i] = x[i] * y[i];
}

/* out[1] = sum(a[4]) */
void sum4_i32(void **b) {
  const int32_t *x = b[0];
  int32_t *out = b[1];
  out[0] = x[0] + x[1] + x[2] + x[3];
}
