/*===- dlc/parallel.h - the thread pool a CPU kernel library may use -----===*
 *
 * The ABI between the runtime and a CPU kernel library (the shared object in
 * an artifact). A library that wants to run loops in parallel exports
 *
 *   void dlc_set_parallel_runtime(const struct dlc_parallel_api *api);
 *
 * which the runtime calls once, right after loading it, before any kernel
 * runs. The library keeps the pointer (valid until the library is unloaded)
 * and calls api->parallel_for(api->ctx, n, body, closure): body(closure, i)
 * runs once for every i in [0, n), on the calling thread and on the runtime's
 * pool workers, and parallel_for returns when all n calls have returned (their
 * writes are then visible to the caller). The number of threads is the
 * calling session's thread_count; the order of the calls is unspecified, so
 * each i must write memory no other i touches. A library without the setter
 * (artifacts older than this ABI) runs serially, as before.
 *
 * Version 2 adds scratch memory: a kernel's temporaries (an im2col buffer, a
 * padded image) come from api->scratch_alloc(bytes) (64-byte aligned, never
 * null: the runtime aborts when out of memory like malloc's callers would
 * crash) and go back through api->scratch_free(p). The runtime keeps freed
 * blocks for the next call, so that a kernel run many times stops paying for
 * fresh pages (glibc hands blocks this big back to the kernel on free, and
 * faulting them in again cost a third of a convolution's time). A library
 * checks version >= 2 before touching these fields and uses malloc/free
 * otherwise.
 *
 *===----------------------------------------------------------------------===*/

#ifndef DLC_PARALLEL_H
#define DLC_PARALLEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_PARALLEL_API_VERSION 2

typedef void (*dlc_parallel_body_t)(void *closure, int64_t index);

typedef struct dlc_parallel_api {
  /* DLC_PARALLEL_API_VERSION; fields are only ever appended. */
  uint32_t version;
  void *ctx;
  void (*parallel_for)(void *ctx, int64_t n, dlc_parallel_body_t body,
                       void *closure);
  /* Version 2: thread-safe; blocks are process-wide, cached once freed. */
  void *(*scratch_alloc)(uint64_t bytes);
  void (*scratch_free)(void *block);
} dlc_parallel_api;

/* The setter's name and type. */
#define DLC_SET_PARALLEL_RUNTIME_SYMBOL "dlc_set_parallel_runtime"
typedef void (*dlc_set_parallel_runtime_t)(const dlc_parallel_api *api);

#ifdef __cplusplus
}
#endif

#endif /* DLC_PARALLEL_H */
