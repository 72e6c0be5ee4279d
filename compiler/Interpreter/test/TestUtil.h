//===- TestUtil.h - Helpers for the reference kernel tests ----------------===//

#ifndef DLC_INTERPRETER_TEST_TESTUTIL_H
#define DLC_INTERPRETER_TEST_TESTUTIL_H

#include "Interpreter/RefTensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace dlc::ref::test {

/// Deterministic values on a 1/8 grid in [-4, 4]: sums of products stay
/// exact in f32, so naive expectations can be compared exactly.
inline Tensor gridTensor(DType dtype, std::vector<int64_t> shape,
                         unsigned seed) {
  std::mt19937 rng(seed);
  Tensor t = Tensor::zeros(dtype, shape);
  for (double &v : t.data)
    v = isFloat(dtype) ? (int(rng() % 65) - 32) / 8.0
                       : double(int(rng() % 41) - 20);
  if (dtype == DType::I1)
    for (double &v : t.data)
      v = v > 0 ? 1 : 0;
  return t;
}

/// Uniform values in [lo, hi), rounded to dtype.
inline Tensor randomTensor(DType dtype, std::vector<int64_t> shape,
                           unsigned seed, double lo = -3, double hi = 3) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  Tensor t = Tensor::zeros(dtype, shape);
  for (double &v : t.data)
    v = roundTo(dtype, dist(rng));
  return t;
}

inline std::vector<int64_t> unflatten(int64_t flat,
                                      const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  return idx;
}

inline int64_t flatten(const std::vector<int64_t> &idx,
                       const std::vector<int64_t> &shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + idx[d];
  return flat;
}

/// Element-wise comparison; NaN matches NaN. relTol = 0 means exact.
inline void expectTensor(const Tensor &actual, const Tensor &expected,
                         double relTol = 0.0) {
  ASSERT_EQ(dtypeName(actual.dtype), std::string(dtypeName(expected.dtype)));
  ASSERT_EQ(shapeToString(actual.shape), shapeToString(expected.shape));
  ASSERT_EQ(actual.data.size(), expected.data.size());
  for (size_t i = 0; i < actual.data.size(); ++i) {
    double a = actual.data[i], e = expected.data[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << "element " << i;
      continue;
    }
    if (relTol == 0.0 || std::isinf(e))
      EXPECT_EQ(a, e) << "element " << i;
    else
      EXPECT_NEAR(a, e, relTol * std::max(1.0, std::fabs(e)))
          << "element " << i;
  }
}

/// Asserts an Expected holds a value and returns it.
#define DLC_ASSERT_OK_AND_GET(var, expr)                                       \
  auto var##Result = (expr);                                                   \
  ASSERT_TRUE(var##Result.ok()) << var##Result.message();                      \
  auto &var = *var##Result

} // namespace dlc::ref::test

#endif // DLC_INTERPRETER_TEST_TESTUTIL_H
