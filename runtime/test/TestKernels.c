/* Kernels for the runtime's tests, built as a shared object and embedded in
 * test artifacts. ABI: void symbol(void **buffers), shapes fixed per kernel. */
#include "dlc/parallel.h"

#include <stdint.h>

/* The runtime's pool (dlc/parallel.h), set once at load. */
static const dlc_parallel_api *parallel;
void dlc_set_parallel_runtime(const dlc_parallel_api *api) { parallel = api; }

static void add6_body(void *closure, int64_t i) {
  void **b = closure;
  ((float *)b[2])[i] = ((const float *)b[0])[i] + ((const float *)b[1])[i];
}

/* out[6] = a[6] + b[6], one element per parallel_for index (the pool is
 * exercised by every test that runs the toy model). */
void add6_f32(void **b) {
  if (parallel)
    parallel->parallel_for(parallel->ctx, 6, add6_body, b);
  else
    for (int i = 0; i < 6; ++i)
      add6_body(b, i);
}

/* out[6] = a[6] * b[6] */
void mul6_f32(void **b) {
  const float *x = b[0], *y = b[1];
  float *out = b[2];
  for (int i = 0; i < 6; ++i)
    out[i] = x[i] * y[i];
}

/* The variant built to stay loaded after dlclose (-z nodelete) adds this,
 * so that a test can tell its code from the plain library's. */
#ifndef DLC_TEST_SUM_OFFSET
#define DLC_TEST_SUM_OFFSET 0
#endif

/* out[1] = sum(a[4]) */
void sum4_i32(void **b) {
  const int32_t *x = b[0];
  int32_t *out = b[1];
  out[0] = x[0] + x[1] + x[2] + x[3] + DLC_TEST_SUM_OFFSET;
}

/* out[12] = a[12] * b[12]: two units of mul6 at once, a chunk body (format
 * 0.8) that SymbolicBatchTest gives the add kernel, so that which body ran
 * shows in the output. */
void mul12_f32(void **b) {
  const float *x = b[0], *y = b[1];
  float *out = b[2];
  for (int i = 0; i < 12; ++i)
    out[i] = x[i] * y[i];
}

/* out[18] = a[18] * b[18]: three units of mul6 at once (a chunk body). */
void mul18_f32(void **b) {
  const float *x = b[0], *y = b[1];
  float *out = b[2];
  for (int i = 0; i < 18; ++i)
    out[i] = x[i] * y[i];
}

/* out[6] = the column sums of a [4,6]'s first n rows, n the run's size that
 * b[2] points at: a kernel sized at run time (format 0.9), called once per
 * run whatever the batch. */
void colsum_sized_f32(void **b) {
  const float *x = b[0];
  float *out = b[1];
  int64_t n = *(const int64_t *)b[2];
  for (int j = 0; j < 6; ++j) {
    float s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += x[i * 6 + j];
    out[j] = s;
  }
}
