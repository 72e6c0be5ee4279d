//===- RandomInputs.cpp - the shared random input generator ---------------===//

#include "dlc/random_inputs.h"
#include "Error.h"
#include "Half.h"

#include <cmath>
#include <cstring>

using namespace dlc::rt;

extern "C" uint64_t dlc_random_next(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

extern "C" double dlc_random_unit(uint64_t *state) {
  return double(dlc_random_next(state) >> 11) * 0x1.0p-53;
}

extern "C" dlc_status_t dlc_random_fill(dlc_dtype_t dtype, int64_t index_bound,
                                        size_t count, uint64_t *state,
                                        void *out) {
  if (!state || (count && !out))
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_random_fill: null argument";
  if (index_bound < 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_random_fill: negative index_bound " << index_bound;
  size_t size = dlc_dtype_size(dtype);
  if (size == 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_random_fill: unknown dtype " << int(dtype);
  bool isSigned = dtype == DLC_DTYPE_I8 || dtype == DLC_DTYPE_I16 || dtype == DLC_DTYPE_I32;
  if (size < 8 && dtype != DLC_DTYPE_I1 && index_bound > (int64_t(1) << (8 * size - isSigned)))
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_random_fill: index_bound " << index_bound
           << " does not fit " << dlc_dtype_name(dtype);
  double bound = index_bound ? double(index_bound) : 4.0;
  auto *p = static_cast<unsigned char *>(out);
  for (size_t i = 0; i < count; ++i) {
    double unit = dlc_random_unit(state);
    switch (dtype) {
    case DLC_DTYPE_F32: {
      float f = static_cast<float>(2 * unit - 1);
      std::memcpy(p + 4 * i, &f, 4);
      break;
    }
    case DLC_DTYPE_F16: {
      uint16_t b = doubleToF16Bits(2 * unit - 1);
      std::memcpy(p + 2 * i, &b, 2);
      break;
    }
    case DLC_DTYPE_BF16: {
      uint16_t b = doubleToBF16Bits(2 * unit - 1);
      std::memcpy(p + 2 * i, &b, 2);
      break;
    }
    case DLC_DTYPE_I32: {
      int32_t v = static_cast<int32_t>(std::floor(unit * bound));
      std::memcpy(p + 4 * i, &v, 4);
      break;
    }
    case DLC_DTYPE_I64: {
      int64_t v = static_cast<int64_t>(std::floor(unit * bound));
      std::memcpy(p + 8 * i, &v, 8);
      break;
    }
    case DLC_DTYPE_I1:
      p[i] = std::floor(unit * bound) != 0 ? 1 : 0;
      break;
    case DLC_DTYPE_F64: {
      double f = 2 * unit - 1;
      std::memcpy(p + 8 * i, &f, 8);
      break;
    }
    default: { // The other integers: [0, bound), little-endian.
      uint64_t v = static_cast<uint64_t>(std::floor(unit * bound));
      for (size_t byte = 0; byte < size; ++byte)
        p[size * i + byte] = static_cast<unsigned char>(v >> (8 * byte));
      break;
    }
    }
  }
  return nullptr;
}
