/*===- dlc/random_inputs.h - the inputs `dlc run` and `dlc interpret` draw ===
 *
 * One generator, shared by the runtime's tools and the compiler's reference
 * interpreter, so that `dlc-run model.dlcm` and `dlc interpret model.mlir
 * --random-inputs` feed a model the same numbers (same seed, same order).
 *
 * SplitMix64: one uint64_t state (the seed; tools default to 1) shared by all
 * inputs, filled in signature order, one step per element:
 *
 *   z = (state += 0x9E3779B97F4A7C15);
 *   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *   z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *   z ^= z >> 31;
 *   unit = (z >> 11) * 0x1.0p-53;               (in [0, 1))
 *
 *   f32:      (float)(2 * unit - 1)
 *   f64:      2 * unit - 1
 *   f16/bf16: 2 * unit - 1 rounded from double to nearest-even
 *   integers: floor(unit * bound), bound = index_bound, or 4 when it is 0
 *             (i8..i64, u8..u64; a bound the type cannot hold is an error)
 *   i1:       floor(unit * bound) != 0 (same bound rule), one byte 0 or 1
 *===------------------------------------------------------------------------===*/
#ifndef DLC_RANDOM_INPUTS_H
#define DLC_RANDOM_INPUTS_H

#include "dlc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One SplitMix64 step: advances *state, returns the mixed value z. */
uint64_t dlc_random_next(uint64_t *state);
/* One step mapped to [0, 1): (z >> 11) * 2^-53. */
double dlc_random_unit(uint64_t *state);

/* Fills `count` elements of `dtype` at `out` (count * dlc_dtype_size bytes)
 * with the values above, advancing *state by `count` steps. INVALID_ARGUMENT
 * for an unknown dtype, a negative index_bound or one too large. Thread-safe for distinct
 * states. */
dlc_status_t dlc_random_fill(dlc_dtype_t dtype, int64_t index_bound,
                             size_t count, uint64_t *state, void *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DLC_RANDOM_INPUTS_H */
