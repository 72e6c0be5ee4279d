//===- RefKernelsTest.cpp - Elementwise, linear algebra, conv, pool, norm -===//
//
// Expected values are written out by hand or computed by naive formulas in
// this file; never by the kernel under test.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/RefKernels.h"
#include "TestUtil.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace dlc::ref;
using namespace dlc::ref::test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kE = 2.718281828459045235;
const double kPi = 3.141592653589793238;

Tensor f32(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::fromValues(DType::F32, std::move(shape), std::move(v));
}
Tensor i32(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::fromValues(DType::I32, std::move(shape), std::move(v));
}

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

/// Naive NumPy broadcasting: out index -> operand index, dims of 1 pinned.
Tensor naiveBinary(const Tensor &a, const Tensor &b,
                   std::vector<int64_t> outShape,
                   const std::function<double(double, double)> &fn) {
  Tensor out = Tensor::zeros(a.dtype, outShape);
  auto pick = [&](const Tensor &t, const std::vector<int64_t> &oi) {
    std::vector<int64_t> idx(t.shape.size());
    size_t off = oi.size() - t.shape.size();
    for (size_t d = 0; d < t.shape.size(); ++d)
      idx[d] = t.shape[d] == 1 ? 0 : oi[off + d];
    return t.data[flatten(idx, t.shape)];
  };
  for (int64_t i = 0; i < out.numElements(); ++i) {
    auto oi = unflatten(i, outShape);
    out.data[i] = fn(pick(a, oi), pick(b, oi));
  }
  return out;
}

struct BroadcastCase {
  std::vector<int64_t> a, b, out;
};
const BroadcastCase kBroadcastCases[] = {
    {{3, 5, 7}, {3, 5, 7}, {3, 5, 7}}, {{3, 5, 7}, {5, 1}, {3, 5, 7}},
    {{1, 4}, {3, 1}, {3, 4}},          {{}, {2, 3}, {2, 3}},
    {{2, 1, 3}, {4, 1}, {2, 4, 3}},    {{13}, {1}, {13}},
};

using BinaryKernel = Expected<Tensor> (*)(const Tensor &, const Tensor &);

// f32 expectations use float arithmetic: an independent, correctly rounded
// implementation of each op.
TEST(BinaryTest, F32MatchesFloatArithmetic) {
  struct Op {
    BinaryKernel kernel;
    std::function<double(double, double)> ref;
  };
  Op ops[] = {
      {add, [](double a, double b) { return float(a) + float(b); }},
      {sub, [](double a, double b) { return float(a) - float(b); }},
      {mul, [](double a, double b) { return float(a) * float(b); }},
      {div, [](double a, double b) { return float(a) / float(b); }},
      {dlc::ref::max, [](double a, double b) { return a > b ? a : b; }},
      {dlc::ref::min, [](double a, double b) { return a < b ? a : b; }},
  };
  unsigned seed = 1;
  for (const Op &op : ops)
    for (const BroadcastCase &c : kBroadcastCases) {
      Tensor a = randomTensor(DType::F32, c.a, seed++);
      Tensor b = randomTensor(DType::F32, c.b, seed++);
      DLC_ASSERT_OK_AND_GET(out, op.kernel(a, b));
      expectTensor(out, naiveBinary(a, b, c.out, op.ref));
    }
}

TEST(BinaryTest, PowMatchesStdPowRounded) {
  for (const BroadcastCase &c : kBroadcastCases) {
    Tensor a = randomTensor(DType::F32, c.a, 5, 0.1, 3);
    Tensor b = randomTensor(DType::F32, c.b, 6, -2, 2);
    DLC_ASSERT_OK_AND_GET(out, dlc::ref::pow(a, b));
    expectTensor(out, naiveBinary(a, b, c.out, [](double x, double y) {
                   return double(float(std::pow(x, y)));
                 }),
                 1e-6);
  }
}

TEST(BinaryTest, HandWrittenBroadcast) {
  Tensor a = f32({2, 1}, {1, 2});
  Tensor b = f32({3}, {10, 20, 30});
  DLC_ASSERT_OK_AND_GET(out, add(a, b));
  expectTensor(out, f32({2, 3}, {11, 21, 31, 12, 22, 32}));
  DLC_ASSERT_OK_AND_GET(q, div(b, a));
  expectTensor(q, f32({2, 3}, {10, 20, 30, 5, 10, 15}));
}

TEST(BinaryTest, FloatSpecialValues) {
  Tensor a = f32({4}, {1, -1, 0, kNaN});
  Tensor z = f32({4}, {0, 0, 0, 1});
  DLC_ASSERT_OK_AND_GET(q, div(a, z));
  expectTensor(q, f32({4}, {kInf, -kInf, kNaN, kNaN}));
  Tensor b = f32({4}, {kNaN, 2, -3, 4});
  DLC_ASSERT_OK_AND_GET(mx, dlc::ref::max(a, b));
  expectTensor(mx, f32({4}, {kNaN, 2, 0, kNaN})); // NaN propagates.
  DLC_ASSERT_OK_AND_GET(mn, dlc::ref::min(a, b));
  expectTensor(mn, f32({4}, {kNaN, -1, -3, kNaN}));
}

TEST(CompareTest, PredicatesBroadcastAndNaN) {
  Tensor a = f32({2, 1}, {1, kNaN});
  Tensor b = f32({3}, {0, 1, 2});
  auto i1 = [](std::vector<int64_t> shape, std::vector<double> v) {
    return Tensor::fromValues(DType::I1, std::move(shape), std::move(v));
  };
  struct Case {
    const char *predicate;
    std::vector<double> expected; // row 0: 1 vs {0,1,2}; row 1: NaN vs them.
  } cases[] = {
      {"eq", {0, 1, 0, 0, 0, 0}}, {"ne", {1, 0, 1, 1, 1, 1}},
      {"lt", {0, 0, 1, 0, 0, 0}}, {"le", {0, 1, 1, 0, 0, 0}},
      {"gt", {1, 0, 0, 0, 0, 0}}, {"ge", {1, 1, 0, 0, 0, 0}},
  };
  for (const Case &c : cases) {
    DLC_ASSERT_OK_AND_GET(out, compare(c.predicate, a, b));
    EXPECT_EQ(out.dtype, DType::I1) << c.predicate;
    expectTensor(out, i1({2, 3}, c.expected));
  }
  // Integers and masks (ne of two masks is their xor).
  DLC_ASSERT_OK_AND_GET(li, compare("lt", i32({3}, {-5, 7, 7}), i32({1}, {7})));
  expectTensor(li, i1({3}, {1, 0, 0}));
  DLC_ASSERT_OK_AND_GET(x, compare("ne", i1({4}, {0, 0, 1, 1}), i1({4}, {0, 1, 0, 1})));
  expectTensor(x, i1({4}, {0, 1, 1, 0}));
}

TEST(CompareTest, Errors) {
  auto p = compare("lte", f32({1}, {1}), f32({1}, {1}));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(), "compare: unknown predicate 'lte' (expected eq, ne, lt, le, gt or ge)");
  auto t = compare("eq", f32({1}, {1}), i32({1}, {1}));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.message(), "compare: rhs dtype i32 does not match lhs dtype f32");
  auto s = compare("eq", f32({2}, {1, 2}), f32({3}, {1, 2, 3}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "compare: cannot broadcast lhs shape [2] with rhs shape [3] "
                         "(output dim 0: 2 vs 3)");
}

TEST(SelectTest, BroadcastsAllThree) {
  Tensor c = Tensor::fromValues(DType::I1, {2, 1}, {1, 0});
  DLC_ASSERT_OK_AND_GET(out, select(c, f32({3}, {1, 2, 3}), f32({1}, {-1})));
  expectTensor(out, f32({2, 3}, {1, 2, 3, -1, -1, -1}));
  DLC_ASSERT_OK_AND_GET(w, select(Tensor::fromValues(DType::I1, {3}, {0, 1, 0}),
                                  i32({3}, {1, 2, 3}), i32({3}, {4, 5, 6})));
  expectTensor(w, i32({3}, {4, 2, 6}));
}

TEST(SelectTest, Errors) {
  auto c = select(f32({1}, {1}), f32({1}, {1}), f32({1}, {2}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "select: condition must be i1, got f32");
  Tensor m = Tensor::fromValues(DType::I1, {1}, {1});
  auto t = select(m, f32({1}, {1}), i32({1}, {2}));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.message(), "select: false_value dtype i32 does not match true_value dtype f32");
  auto s = select(m, f32({2}, {1, 2}), f32({3}, {1, 2, 3}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "select: cannot broadcast lhs shape [2] with rhs shape [3] "
                         "(output dim 0: 2 vs 3)");
}

TEST(BinaryTest, F16RoundsOnce) {
  Tensor a = Tensor::fromValues(DType::F16, {3}, {1, 65504, 0.5});
  Tensor b = Tensor::fromValues(DType::F16, {3}, {std::ldexp(1.0, -11), 16,
                                                  std::ldexp(1.0, -12)});
  DLC_ASSERT_OK_AND_GET(out, add(a, b));
  EXPECT_EQ(out.dtype, DType::F16);
  EXPECT_EQ(out.data[0], 1.0);   // Tie to even.
  EXPECT_EQ(out.data[1], kInf);  // 65520 overflows.
  EXPECT_EQ(out.data[2], 0.5);   // 0.5 + 2^-12 is a tie at 0.5: even.
  Tensor c = Tensor::fromValues(DType::BF16, {2}, {1 + 1.0 / 128, 3});
  Tensor d = Tensor::fromValues(DType::BF16, {2}, {1 + 1.0 / 128, 1.0 / 3});
  DLC_ASSERT_OK_AND_GET(p, mul(c, d));
  EXPECT_EQ(p.data[0], 1 + 1.0 / 64); // 1+2^-6+2^-14 rounds to 1+2^-6.
  EXPECT_EQ(toBF16Bits(p.data[1]), toBF16Bits(3 * fromBF16Bits(
                                                      toBF16Bits(1.0 / 3))));
}

TEST(BinaryTest, IntegerWrapAndTruncation) {
  Tensor a = i32({4}, {2147483647, 65536, -7, 7});
  Tensor b = i32({4}, {1, 65536, 2, -2});
  DLC_ASSERT_OK_AND_GET(s, add(a, b));
  expectTensor(s, i32({4}, {-2147483648.0, 131072, -5, 5}));
  DLC_ASSERT_OK_AND_GET(m, mul(a, b));
  expectTensor(m, i32({4}, {2147483647, 0, -14, -14}));
  DLC_ASSERT_OK_AND_GET(q, div(a, b));
  expectTensor(q, i32({4}, {2147483647, 1, -3, -3}));
  Tensor sq = i32({2}, {46341, -46341});
  DLC_ASSERT_OK_AND_GET(m2, mul(sq, sq));
  expectTensor(m2, i32({2}, {-2147479015.0, -2147479015.0}));
  DLC_ASSERT_OK_AND_GET(p, dlc::ref::pow(i32({3}, {3, -2, 2}),
                                         i32({3}, {4, 3, 31})));
  expectTensor(p, i32({3}, {81, -8, -2147483648.0}));
  Tensor l = Tensor::fromValues(DType::I64, {1}, {4e15});
  DLC_ASSERT_OK_AND_GET(p64, mul(l, Tensor::fromValues(DType::I64, {1}, {2})));
  EXPECT_EQ(p64.data[0], 8e15);
}

TEST(BinaryTest, NarrowAndUnsignedIntegers) {
  auto t = [](DType d, std::vector<double> v) {
    int64_t n = static_cast<int64_t>(v.size());
    return Tensor::fromValues(d, {n}, std::move(v));
  };
  // i8 wraps at 8 bits; u8 wraps into [0, 256).
  DLC_ASSERT_OK_AND_GET(s8, add(t(DType::I8, {100, -100}), t(DType::I8, {100, -100})));
  expectTensor(s8, t(DType::I8, {-56, 56}));
  DLC_ASSERT_OK_AND_GET(d8, sub(t(DType::U8, {3, 200}), t(DType::U8, {5, 100})));
  expectTensor(d8, t(DType::U8, {254, 100}));
  DLC_ASSERT_OK_AND_GET(m16, mul(t(DType::U16, {65535}), t(DType::U16, {65535})));
  expectTensor(m16, t(DType::U16, {1}));
  // Unsigned division, remainders and order on values past the signed range.
  Tensor big = t(DType::U32, {4294967295.0, 3000000000.0});
  DLC_ASSERT_OK_AND_GET(q, div(big, t(DType::U32, {2, 7})));
  expectTensor(q, t(DType::U32, {2147483647, 428571428}));
  DLC_ASSERT_OK_AND_GET(r, mod(big, t(DType::U32, {2, 7})));
  expectTensor(r, t(DType::U32, {1, 4}));
  DLC_ASSERT_OK_AND_GET(mx, max(big, t(DType::U32, {5, 3000000001.0})));
  expectTensor(mx, t(DType::U32, {4294967295.0, 3000000001.0}));
  DLC_ASSERT_OK_AND_GET(lt, compare("lt", big, t(DType::U32, {5, 3000000001.0})));
  expectTensor(lt, Tensor::fromValues(DType::I1, {2}, {0, 1}));
  // Bounds beyond the type saturate: u8 clipped to [-5, 300] is itself, and
  // an i8 clipped below -200 is -128, not -200 wrapped.
  DLC_ASSERT_OK_AND_GET(c, clip(t(DType::U8, {0, 255}), -5, 300));
  expectTensor(c, t(DType::U8, {0, 255}));
  DLC_ASSERT_OK_AND_GET(c8, clip(t(DType::I8, {5}), -300, -200));
  expectTensor(c8, t(DType::I8, {-128}));
  DLC_ASSERT_OK_AND_GET(f, cast(t(DType::F64, {-1.5, 300.7}), DType::U8));
  expectTensor(f, t(DType::U8, {255, 44}));
  // Shifts wrap at the width; past it (or by a negative amount) 0, or the
  // sign for a right shift of a signed value.
  DLC_ASSERT_OK_AND_GET(l8, shift_left(t(DType::U8, {3, 3, 3}), t(DType::U8, {7, 8, 200})));
  expectTensor(l8, t(DType::U8, {128, 0, 0}));
  DLC_ASSERT_OK_AND_GET(r8, shift_right(t(DType::I8, {-128, -128, 64, 5}),
                                        t(DType::I8, {3, 9, -1, 1})));
  expectTensor(r8, t(DType::I8, {-16, -1, 0, 2}));
  DLC_ASSERT_OK_AND_GET(r64, shift_right(t(DType::U64, {4096}), t(DType::U64, {64})));
  expectTensor(r64, t(DType::U64, {0}));
  EXPECT_FALSE(shift_left(t(DType::F32, {1}), t(DType::F32, {1})).ok());
}

TEST(BinaryTest, Errors) {
  auto r = add(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({4}, {1, 2, 3, 4}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "add: cannot broadcast lhs shape [2,3] with rhs "
                         "shape [4] (output dim 1: 3 vs 4)");
  auto d = div(i32({2}, {1, 2}), i32({2}, {1, 0}));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.message(), "div: integer division by zero at output element 1");
  auto t = mul(f32({1}, {1}), i32({1}, {1}));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.message(), "mul: rhs dtype i32 does not match lhs dtype f32");
  auto p = dlc::ref::pow(i32({1}, {2}), i32({1}, {-1}));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(), "pow: negative integer exponent -1 at output element 0");
  Tensor bad = f32({2, 2}, {1, 2, 3});
  auto v = sub(bad, bad);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.message(),
            "sub: lhs: tensor of shape [2,2] expects 4 elements but holds 3");
}

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

using UnaryKernel = Expected<Tensor> (*)(const Tensor &);

Tensor naiveUnary(const Tensor &x, const std::function<double(double)> &fn) {
  Tensor out = x;
  for (double &v : out.data)
    v = roundTo(x.dtype, fn(v));
  return out;
}

TEST(UnaryTest, MatchesIndependentFormulas) {
  struct Op {
    UnaryKernel kernel;
    std::function<double(double)> ref;
    double lo, hi;
  };
  Op ops[] = {
      {neg, [](double v) { return 0.0 - v; }, -3, 3},
      {dlc::ref::abs, [](double v) { return v < 0 ? -v : v; }, -3, 3},
      {dlc::ref::exp, [](double v) { return std::pow(kE, v); }, -3, 3},
      {dlc::ref::log, [](double v) { return std::log2(v) / std::log2(kE); },
       0.01, 5},
      {dlc::ref::sqrt, [](double v) { return std::pow(v, 0.5); }, 0, 5},
      {rsqrt, [](double v) { return std::pow(v, -0.5); }, 0.01, 5},
      {dlc::ref::tanh,
       [](double v) { return (std::exp(2 * v) - 1) / (std::exp(2 * v) + 1); },
       -3, 3},
      {sigmoid, [](double v) { return 0.5 * (1 + std::tanh(v / 2)); }, -6, 6},
      {dlc::ref::erf, [](double v) { return 1 - std::erfc(v); }, -2, 2},
      {relu, [](double v) { return v > 0 ? v : 0; }, -3, 3},
  };
  const std::vector<std::vector<int64_t>> shapes = {{3, 5, 7}, {1}, {}, {13, 3}};
  unsigned seed = 100;
  for (const Op &op : ops)
    for (DType dt : {DType::F32, DType::F16, DType::BF16})
      for (const auto &shape : shapes) {
        Tensor x = randomTensor(dt, shape, seed++, op.lo, op.hi);
        DLC_ASSERT_OK_AND_GET(out, op.kernel(x));
        // Independent formulas differ in the last double bits, which can
        // flip a rounding: allow one ulp of the dtype.
        double tol = dt == DType::F32 ? 2e-7 : dt == DType::F16 ? 1e-3 : 8e-3;
        expectTensor(out, naiveUnary(x, op.ref), tol);
      }
}

TEST(UnaryTest, HandValues) {
  DLC_ASSERT_OK_AND_GET(e, dlc::ref::erf(f32({2}, {0.5, 0})));
  expectTensor(e, f32({2}, {0.5204998778130465, 0}));
  DLC_ASSERT_OK_AND_GET(s, dlc::ref::sqrt(f32({3}, {4, -1, kInf})));
  expectTensor(s, f32({3}, {2, kNaN, kInf}));
  DLC_ASSERT_OK_AND_GET(r, relu(f32({4}, {-1, 0, 2.5, kNaN})));
  expectTensor(r, f32({4}, {0, 0, 2.5, kNaN}));
  DLC_ASSERT_OK_AND_GET(ri, relu(i32({3}, {-4, 0, 9})));
  expectTensor(ri, i32({3}, {0, 0, 9}));
  DLC_ASSERT_OK_AND_GET(ai, dlc::ref::abs(i32({2}, {-2147483648.0, -3})));
  expectTensor(ai, i32({2}, {-2147483648.0, 3})); // Wraps like int32.
  DLC_ASSERT_OK_AND_GET(h, dlc::ref::exp(Tensor::fromValues(DType::F16, {1},
                                                            {12})));
  EXPECT_EQ(h.data[0], kInf); // e^12 > 65504.
}

TEST(UnaryTest, Gelu) {
  Tensor x = randomTensor(DType::F32, {3, 5, 7}, 9, -4, 4);
  DLC_ASSERT_OK_AND_GET(exact, gelu(x, false));
  // x * Phi(x) with Phi via erfc.
  expectTensor(exact, naiveUnary(x, [](double v) {
                 return v * 0.5 * std::erfc(-v / std::sqrt(2.0));
               }),
               2e-7);
  DLC_ASSERT_OK_AND_GET(approx, gelu(x, true));
  // 0.5(1 + tanh(z)) == sigmoid(2z).
  expectTensor(approx, naiveUnary(x, [](double v) {
                 double z = std::sqrt(2 / kPi) * (v + 0.044715 * v * v * v);
                 return v / (1 + std::exp(-2 * z));
               }),
               2e-7);
  DLC_ASSERT_OK_AND_GET(one, gelu(f32({2}, {1, -1}), false));
  expectTensor(one, f32({2}, {0.8413447460685429, -0.15865525393145707}));
  DLC_ASSERT_OK_AND_GET(oneT, gelu(f32({1}, {1}), true));
  expectTensor(oneT, f32({1}, {0.8411919906082768}));
}

TEST(UnaryTest, Clip) {
  DLC_ASSERT_OK_AND_GET(c, clip(f32({5}, {-2, -1, 0.5, 6, kNaN}), -1, 6));
  expectTensor(c, f32({5}, {-1, -1, 0.5, 6, kNaN}));
  Tensor x = randomTensor(DType::F16, {3, 5, 7}, 3);
  DLC_ASSERT_OK_AND_GET(c2, clip(x, -0.5, 0.75));
  expectTensor(c2, naiveUnary(x, [](double v) {
                 return std::min(0.75, std::max(-0.5, v));
               }));
  DLC_ASSERT_OK_AND_GET(c3, clip(i32({3}, {-9, 3, 9}), -2.5, 4.5));
  expectTensor(c3, i32({3}, {-2, 3, 4}));
  auto bad = clip(x, 1, 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "clip: min 1 is greater than max 0");
}

TEST(UnaryTest, Errors) {
  auto r = dlc::ref::exp(i32({1}, {1}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "exp: expected a float dtype for operand, got i32");
}

//===----------------------------------------------------------------------===//
// matmul, linear
//===----------------------------------------------------------------------===//

/// Naive batched matmul with explicit broadcast of batch indices.
Tensor naiveMatmul(const Tensor &a, const Tensor &b,
                   std::vector<int64_t> outShape) {
  Tensor out = Tensor::zeros(a.dtype, outShape);
  size_t r = outShape.size();
  int64_t m = outShape[r - 2], n = outShape[r - 1], k = a.shape.back();
  auto at = [&](const Tensor &t, std::vector<int64_t> oi, int64_t i,
                int64_t j) {
    std::vector<int64_t> idx(t.shape.size());
    size_t off = r - t.shape.size();
    for (size_t d = 0; d + 2 < t.shape.size(); ++d)
      idx[d] = t.shape[d] == 1 ? 0 : oi[off + d];
    idx[t.shape.size() - 2] = i;
    idx[t.shape.size() - 1] = j;
    return t.data[flatten(idx, t.shape)];
  };
  for (int64_t f = 0; f < out.numElements(); ++f) {
    auto oi = unflatten(f, outShape);
    double s = 0;
    for (int64_t kk = 0; kk < k; ++kk)
      s += at(a, oi, oi[r - 2], kk) * at(b, oi, kk, oi[r - 1]);
    (void)m;
    (void)n;
    out.data[f] = roundTo(a.dtype, s);
  }
  return out;
}

TEST(MatmulTest, HandWritten) {
  DLC_ASSERT_OK_AND_GET(out, matmul(f32({2, 2}, {1, 2, 3, 4}),
                                    f32({2, 2}, {5, 6, 7, 8})));
  expectTensor(out, f32({2, 2}, {19, 22, 43, 50}));
  DLC_ASSERT_OK_AND_GET(r, matmul(f32({1, 3}, {1, 2, 3}),
                                  f32({3, 2}, {1, 0, 0, 1, 1, 1})));
  expectTensor(r, f32({1, 2}, {4, 5}));
}

TEST(MatmulTest, ShapesAndBroadcastBatch) {
  struct Case {
    std::vector<int64_t> a, b, out;
  } cases[] = {
      {{3, 5}, {5, 7}, {3, 7}},
      {{13, 17}, {17, 11}, {13, 11}},
      {{2, 3, 5}, {5, 4}, {2, 3, 4}},
      {{2, 1, 3, 5}, {4, 5, 2}, {2, 4, 3, 2}},
      {{1, 1}, {3, 1, 1}, {3, 1, 1}},
      {{3, 0}, {0, 2}, {3, 2}},
  };
  unsigned seed = 20;
  for (const Case &c : cases)
    for (DType dt : {DType::F32, DType::F16, DType::I32}) {
      Tensor a = gridTensor(dt, c.a, seed++), b = gridTensor(dt, c.b, seed++);
      DLC_ASSERT_OK_AND_GET(out, matmul(a, b));
      expectTensor(out, naiveMatmul(a, b, c.out));
    }
}

TEST(MatmulTest, F16AccumulatesWide) {
  // A sequential f16 accumulation would give 2048 (2048 + 1 ties to 2048).
  Tensor a = Tensor::fromValues(DType::F16, {1, 3}, {2048, 1, 1});
  Tensor b = Tensor::fromValues(DType::F16, {3, 1}, {1, 1, 1});
  DLC_ASSERT_OK_AND_GET(out, matmul(a, b));
  EXPECT_EQ(out.data[0], 2050);
}

TEST(MatmulTest, Errors) {
  auto k = matmul(f32({2, 3}, std::vector<double>(6)),
                  f32({4, 5}, std::vector<double>(20)));
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.message(), "matmul: contracting dims differ: lhs [2,3] has 3, "
                         "rhs [4,5] has 4");
  auto r1 = matmul(f32({3}, {1, 2, 3}), f32({3, 1}, {1, 2, 3}));
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.message(), "matmul: expected operands of rank >= 2, got lhs "
                          "[3] and rhs [3,1]");
  auto bb = matmul(Tensor::zeros(DType::F32, {2, 1, 1}),
                   Tensor::zeros(DType::F32, {3, 1, 1}));
  ASSERT_FALSE(bb.ok());
  EXPECT_EQ(bb.message(), "matmul: cannot broadcast batch dims of lhs "
                          "[2,1,1] and rhs [3,1,1]");
}

// The MLP's first layer: sampled entries against a naive dot product.
TEST(MatmulTest, ModelSized) {
  Tensor a = gridTensor(DType::F32, {32, 784}, 1);
  Tensor b = gridTensor(DType::F32, {784, 1024}, 2);
  DLC_ASSERT_OK_AND_GET(out, matmul(a, b));
  for (int64_t i : {0, 17, 31})
    for (int64_t j : {0, 513, 1023}) {
      double s = 0;
      for (int64_t k = 0; k < 784; ++k)
        s += a.data[i * 784 + k] * b.data[k * 1024 + j];
      EXPECT_EQ(out.data[i * 1024 + j], s);
    }
}

Tensor naiveLinear(const Tensor &x, const Tensor &w, const Tensor *bias) {
  int64_t k = w.shape[1], n = w.shape[0];
  std::vector<int64_t> shape = x.shape;
  shape.back() = n;
  Tensor out = Tensor::zeros(x.dtype, shape);
  for (int64_t f = 0; f < out.numElements(); ++f) {
    int64_t row = f / n, col = f % n;
    double s = bias ? bias->data[col] : 0;
    for (int64_t kk = 0; kk < k; ++kk)
      s += x.data[row * k + kk] * w.data[col * k + kk];
    out.data[f] = roundTo(x.dtype, s);
  }
  return out;
}

TEST(LinearTest, Shapes) {
  struct Case {
    std::vector<int64_t> x;
    int64_t n;
    bool bias;
  } cases[] = {{{3, 5, 7}, 4, true}, {{7}, 3, true}, {{2, 3}, 5, false},
               {{11, 13}, 9, true}};
  unsigned seed = 40;
  for (const Case &c : cases)
    for (DType dt : {DType::F32, DType::BF16}) {
      Tensor x = gridTensor(dt, c.x, seed++);
      Tensor w = gridTensor(dt, {c.n, c.x.back()}, seed++);
      Tensor b = gridTensor(dt, {c.n}, seed++);
      DLC_ASSERT_OK_AND_GET(out, linear(x, w, c.bias ? &b : nullptr));
      expectTensor(out, naiveLinear(x, w, c.bias ? &b : nullptr));
    }
  DLC_ASSERT_OK_AND_GET(h, linear(f32({1, 2}, {1, 2}),
                                  f32({2, 2}, {1, 1, 0, 1}), nullptr));
  expectTensor(h, f32({1, 2}, {3, 2}));
}

TEST(LinearTest, Errors) {
  Tensor x = Tensor::zeros(DType::F32, {2, 3});
  auto k = linear(x, Tensor::zeros(DType::F32, {4, 5}));
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.message(), "linear: input [2,3] has inner dim 3 but weight "
                         "[4,5] expects 5");
  Tensor b = Tensor::zeros(DType::F32, {5});
  auto bb = linear(x, Tensor::zeros(DType::F32, {4, 3}), &b);
  ASSERT_FALSE(bb.ok());
  EXPECT_EQ(bb.message(), "linear: expected bias shape [4], got [5]");
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// Naive conv: materialise the zero-padded input, then slide.
Tensor naiveConv(const Tensor &x, const Tensor &w, const Tensor *bias,
                 std::vector<int64_t> s, std::vector<int64_t> p,
                 std::vector<int64_t> d, int64_t groups) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  int64_t o = w.shape[0], cg = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  int64_t ph = h + p[0] + p[2], pw = wd + p[1] + p[3];
  Tensor padded = Tensor::zeros(x.dtype, {n, c, ph, pw});
  for (int64_t f = 0; f < x.numElements(); ++f) {
    auto i = unflatten(f, x.shape);
    padded.data[flatten({i[0], i[1], i[2] + p[0], i[3] + p[1]},
                        padded.shape)] = x.data[f];
  }
  int64_t oh = (ph - d[0] * (kh - 1) - 1) / s[0] + 1;
  int64_t ow = (pw - d[1] * (kw - 1) - 1) / s[1] + 1;
  Tensor out = Tensor::zeros(x.dtype, {n, o, oh, ow});
  for (int64_t f = 0; f < out.numElements(); ++f) {
    auto i = unflatten(f, out.shape);
    int64_t g = i[1] / (o / groups);
    double acc = bias ? bias->data[i[1]] : 0;
    for (int64_t ic = 0; ic < cg; ++ic)
      for (int64_t a = 0; a < kh; ++a)
        for (int64_t b = 0; b < kw; ++b)
          acc += padded.data[flatten({i[0], g * cg + ic, i[2] * s[0] + a * d[0],
                                      i[3] * s[1] + b * d[1]},
                                     padded.shape)] *
                 w.data[flatten({i[1], ic, a, b}, w.shape)];
    out.data[f] = roundTo(x.dtype, acc);
  }
  return out;
}

TEST(Conv2dTest, HandWritten) {
  Tensor x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = f32({1, 1, 2, 2}, {1, 0, 0, 1});
  Tensor b = f32({1}, {1});
  DLC_ASSERT_OK_AND_GET(out, conv2d(x, w, &b, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1));
  expectTensor(out, f32({1, 1, 2, 2}, {7, 9, 13, 15}));
  // Pad top/left only, stride 2: windows at (-1,-1), (-1,1), (1,-1), (1,1).
  DLC_ASSERT_OK_AND_GET(p, conv2d(x, w, nullptr, {2, 2}, {1, 1, 0, 0}, {1, 1},
                                  1));
  expectTensor(p, f32({1, 1, 2, 2}, {1, 3, 7, 5 + 9}));
}

TEST(Conv2dTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> x, w, s, p, d;
    int64_t groups;
  } cases[] = {
      // Groups, dilation, asymmetric pads, stride 2, ragged input.
      {{2, 4, 11, 13}, {6, 2, 3, 2}, {2, 2}, {1, 0, 2, 1}, {2, 1}, 2},
      // Depthwise.
      {{1, 3, 7, 5}, {3, 1, 3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 3},
      // Plain, stride (1, 3), dilation 3.
      {{3, 5, 9, 10}, {7, 5, 2, 3}, {1, 3}, {0, 2, 0, 0}, {3, 1}, 1},
      // 1x1 kernel, grouped, stride larger than kernel.
      {{1, 6, 5, 5}, {4, 3, 1, 1}, {3, 2}, {0, 0, 0, 0}, {1, 1}, 2},
  };
  unsigned seed = 60;
  for (const Case &c : cases)
    for (DType dt : {DType::F32, DType::F16}) {
      Tensor x = gridTensor(dt, c.x, seed++), w = gridTensor(dt, c.w, seed++);
      Tensor b = gridTensor(dt, {c.w[0]}, seed++);
      DLC_ASSERT_OK_AND_GET(out, conv2d(x, w, &b, c.s, c.p, c.d, c.groups));
      expectTensor(out, naiveConv(x, w, &b, c.s, c.p, c.d, c.groups));
      DLC_ASSERT_OK_AND_GET(nb, conv2d(x, w, nullptr, c.s, c.p, c.d,
                                       c.groups));
      expectTensor(nb, naiveConv(x, w, nullptr, c.s, c.p, c.d, c.groups));
    }
}

// The CNN's size: the fast path must agree with the naive loop nest.
TEST(Conv2dTest, ModelSized) {
  Tensor x = gridTensor(DType::F32, {4, 16, 32, 32}, 1);
  Tensor w = gridTensor(DType::F32, {16, 16, 3, 3}, 2);
  DLC_ASSERT_OK_AND_GET(out, conv2d(x, w, nullptr, {1, 1}, {1, 1, 1, 1},
                                    {1, 1}, 1));
  EXPECT_EQ(shapeToString(out.shape), "[4,16,32,32]");
  expectTensor(out, naiveConv(x, w, nullptr, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1));
}

TEST(Conv2dTest, Errors) {
  Tensor x = Tensor::zeros(DType::F32, {1, 4, 5, 5});
  auto c = conv2d(x, Tensor::zeros(DType::F32, {2, 3, 3, 3}), nullptr, {1, 1},
                  {0, 0, 0, 0}, {1, 1}, 1);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "conv2d: expected weight dim 1 to be input channels "
                         "/ groups = 4, got weight shape [2,3,3,3]");
  auto k = conv2d(x, Tensor::zeros(DType::F32, {2, 4, 3, 3}), nullptr, {1, 1},
                  {0, 0, 0, 0}, {3, 1}, 1);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.message(), "conv2d: effective kernel height 7 (kernel 3, "
                         "dilation 3) exceeds padded input height 5");
  auto g = conv2d(x, Tensor::zeros(DType::F32, {3, 2, 3, 3}), nullptr, {1, 1},
                  {0, 0, 0, 0}, {1, 1}, 2);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.message(), "conv2d: groups 2 must be >= 1 and divide input "
                         "channels 4 and output channels 3");
  auto s = conv2d(x, Tensor::zeros(DType::F32, {2, 4, 3, 3}), nullptr, {0, 1},
                  {0, 0, 0, 0}, {1, 1}, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "conv2d: kernel size, stride and dilation must be in "
                         "[1, 2147483648], got 0 for the height");
  auto p = conv2d(x, Tensor::zeros(DType::F32, {2, 4, 3, 3}), nullptr, {1, 1},
                  {0, 0, 0}, {1, 1}, 1);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(), "conv2d: expected 4 values for pads, got 3");
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Naive pooling over the window positions that fall inside the input.
Tensor naivePool(const Tensor &x, std::vector<int64_t> k,
                 std::vector<int64_t> s, std::vector<int64_t> p,
                 std::vector<int64_t> d, bool isMax, bool includePad) {
  int64_t h = x.shape[2], wd = x.shape[3];
  int64_t oh = (h + p[0] + p[2] - d[0] * (k[0] - 1) - 1) / s[0] + 1;
  int64_t ow = (wd + p[1] + p[3] - d[1] * (k[1] - 1) - 1) / s[1] + 1;
  Tensor out = Tensor::zeros(x.dtype, {x.shape[0], x.shape[1], oh, ow});
  for (int64_t f = 0; f < out.numElements(); ++f) {
    auto i = unflatten(f, out.shape);
    std::vector<double> vals;
    for (int64_t a = 0; a < k[0]; ++a)
      for (int64_t b = 0; b < k[1]; ++b) {
        int64_t y = i[2] * s[0] - p[0] + a * d[0];
        int64_t z = i[3] * s[1] - p[1] + b * d[1];
        if (y >= 0 && y < h && z >= 0 && z < wd)
          vals.push_back(x.data[flatten({i[0], i[1], y, z}, x.shape)]);
      }
    double r;
    if (isMax) {
      r = -kInf;
      for (double v : vals)
        r = std::max(r, v);
    } else {
      r = 0;
      for (double v : vals)
        r += v;
      r /= includePad ? double(k[0] * k[1]) : double(vals.size());
    }
    out.data[f] = roundTo(x.dtype, r);
  }
  return out;
}

TEST(MaxPoolTest, HandWritten) {
  std::vector<double> v(16);
  for (int i = 0; i < 16; ++i)
    v[i] = i + 1;
  DLC_ASSERT_OK_AND_GET(out, max_pool2d(f32({1, 1, 4, 4}, v), {2, 2}, {2, 2},
                                        {0, 0, 0, 0}, {1, 1}));
  expectTensor(out, f32({1, 1, 2, 2}, {6, 8, 14, 16}));
  // Padding never wins, even against negative values.
  DLC_ASSERT_OK_AND_GET(neg, max_pool2d(f32({1, 1, 2, 2}, {-5, -6, -7, -8}),
                                        {2, 2}, {1, 1}, {1, 1, 1, 1}, {1, 1}));
  expectTensor(neg, f32({1, 1, 3, 3}, {-5, -5, -6, -5, -5, -6, -7, -7, -8}));
  // A window covering only padding is -inf for floats.
  DLC_ASSERT_OK_AND_GET(pad, max_pool2d(f32({1, 1, 1, 1}, {3}), {1, 1},
                                        {1, 1}, {1, 1, 1, 1}, {1, 1}));
  expectTensor(pad, f32({1, 1, 3, 3}, {-kInf, -kInf, -kInf, -kInf, 3, -kInf,
                                       -kInf, -kInf, -kInf}));
  auto err = max_pool2d(i32({1, 1, 1, 1}, {3}), {1, 1}, {1, 1}, {1, 1, 1, 1},
                        {1, 1});
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(),
            "max_pool2d: window at output (0, 0, 0, 0) covers only padding");
}

TEST(MaxPoolTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> x, k, s, p, d;
  } cases[] = {
      {{2, 3, 7, 9}, {3, 2}, {2, 3}, {1, 0, 1, 1}, {1, 2}},
      {{1, 2, 5, 5}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {{3, 1, 11, 6}, {2, 2}, {2, 2}, {0, 0, 1, 0}, {2, 2}},
  };
  unsigned seed = 80;
  for (const Case &c : cases)
    for (DType dt : {DType::F32, DType::BF16, DType::I32}) {
      Tensor x = gridTensor(dt, c.x, seed++);
      DLC_ASSERT_OK_AND_GET(out, max_pool2d(x, c.k, c.s, c.p, c.d));
      expectTensor(out, naivePool(x, c.k, c.s, c.p, c.d, true, false));
    }
}

TEST(AvgPoolTest, HandWritten) {
  Tensor x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  DLC_ASSERT_OK_AND_GET(ex, avg_pool2d(x, {2, 2}, {2, 2}, {1, 1, 1, 1}, false));
  expectTensor(ex, f32({1, 1, 2, 2}, {1, 2.5, 5.5, 7}));
  DLC_ASSERT_OK_AND_GET(in, avg_pool2d(x, {2, 2}, {2, 2}, {1, 1, 1, 1}, true));
  expectTensor(in, f32({1, 1, 2, 2}, {0.25, 1.25, 2.75, 7}));
}

TEST(AvgPoolTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> x, k, s, p;
  } cases[] = {
      {{2, 3, 7, 9}, {3, 2}, {2, 3}, {1, 0, 1, 1}},
      {{1, 2, 5, 5}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{3, 1, 11, 6}, {2, 4}, {2, 1}, {0, 2, 1, 0}},
  };
  unsigned seed = 90;
  for (const Case &c : cases)
    for (DType dt : {DType::F32, DType::F16})
      for (bool include : {false, true}) {
        Tensor x = gridTensor(dt, c.x, seed++);
        DLC_ASSERT_OK_AND_GET(out, avg_pool2d(x, c.k, c.s, c.p, include));
        expectTensor(out, naivePool(x, c.k, c.s, c.p, {1, 1}, false, include));
      }
}

TEST(GlobalAvgPoolTest, Shapes) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{2, 3, 5, 7}, {1, 2, 3}, {1, 1, 1, 1}}) {
    Tensor x = gridTensor(DType::F32, shape, 7);
    DLC_ASSERT_OK_AND_GET(out, global_avg_pool(x));
    int64_t spatial = x.numElements() / (shape[0] * shape[1]);
    std::vector<int64_t> outShape(shape.size(), 1);
    outShape[0] = shape[0];
    outShape[1] = shape[1];
    Tensor e = Tensor::zeros(DType::F32, outShape);
    for (int64_t f = 0; f < x.numElements(); ++f)
      e.data[f / spatial] += x.data[f] / double(spatial);
    for (double &v : e.data)
      v = roundTo(DType::F32, v);
    expectTensor(out, e, 1e-7);
  }
  auto err = global_avg_pool(Tensor::zeros(DType::F32, {2, 3}));
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(),
            "global_avg_pool: expected input of rank >= 3, got shape [2,3]");
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

TEST(BatchNormTest, AgainstNaive) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 3, 4, 5},
                                     {3, 3}, {2, 3, 1, 2, 3}}) {
    Tensor x = randomTensor(DType::F32, shape, 1);
    int64_t c = shape[1];
    Tensor scale = randomTensor(DType::F32, {c}, 2);
    Tensor bias = randomTensor(DType::F32, {c}, 3);
    Tensor mean = randomTensor(DType::F32, {c}, 4);
    Tensor var = randomTensor(DType::F32, {c}, 5, 0.1, 2);
    DLC_ASSERT_OK_AND_GET(out, batch_norm(x, scale, bias, mean, var, 1e-5));
    Tensor e = x;
    for (int64_t f = 0; f < x.numElements(); ++f) {
      int64_t ch = unflatten(f, shape)[1];
      e.data[f] = roundTo(DType::F32,
                          scale.data[ch] * (x.data[f] - mean.data[ch]) /
                                  std::sqrt(var.data[ch] + 1e-5) +
                              bias.data[ch]);
    }
    expectTensor(out, e, 2e-7);
  }
  Tensor one = f32({1}, {1});
  DLC_ASSERT_OK_AND_GET(h, batch_norm(f32({1, 1, 2}, {3, 5}), f32({1}, {2}),
                                      f32({1}, {1}), one, f32({1}, {4}), 0));
  expectTensor(h, f32({1, 1, 2}, {3, 5})); // (x-1)/2*2+1 = x.
  auto err = batch_norm(f32({1, 2}, {1, 2}), one, one, one, one, 0);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(), "batch_norm: expected scale shape [2], got [1]");
}

TEST(LayerNormTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> x;
    int64_t axis;
    bool bias;
  } cases[] = {{{3, 5, 7}, -1, true},
               {{3, 5, 7}, 1, true},
               {{4, 6}, 0, false},
               {{2, 9}, -2, true}};
  for (const Case &c : cases) {
    Tensor x = randomTensor(DType::F32, c.x, 11);
    int64_t axis = c.axis < 0 ? c.axis + int64_t(c.x.size()) : c.axis;
    std::vector<int64_t> norm(c.x.begin() + axis, c.x.end());
    Tensor scale = randomTensor(DType::F32, norm, 12);
    Tensor bias = randomTensor(DType::F32, norm, 13);
    DLC_ASSERT_OK_AND_GET(out, layer_norm(x, scale, c.bias ? &bias : nullptr,
                                          c.axis, 1e-5));
    int64_t inner = scale.numElements();
    Tensor e = x;
    for (int64_t r = 0; r < x.numElements() / inner; ++r) {
      // E[x^2] - E[x]^2 form: independent of the kernel's two-pass form.
      double s = 0, s2 = 0;
      for (int64_t i = 0; i < inner; ++i) {
        s += x.data[r * inner + i];
        s2 += x.data[r * inner + i] * x.data[r * inner + i];
      }
      double mean = s / inner, var = s2 / inner - mean * mean;
      for (int64_t i = 0; i < inner; ++i)
        e.data[r * inner + i] = roundTo(
            DType::F32, (x.data[r * inner + i] - mean) /
                                std::sqrt(var + 1e-5) * scale.data[i] +
                            (c.bias ? bias.data[i] : 0));
    }
    expectTensor(out, e, 1e-6);
  }
  DLC_ASSERT_OK_AND_GET(h, layer_norm(f32({1, 4}, {1, 2, 3, 4}),
                                      f32({4}, {1, 1, 1, 1}), nullptr, -1, 0));
  double sd = std::sqrt(1.25);
  expectTensor(h, f32({1, 4}, {-1.5 / sd, -0.5 / sd, 0.5 / sd, 1.5 / sd}));
  auto err = layer_norm(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2, 3}, {}),
                        nullptr, 2, 1e-5);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(),
            "layer_norm: axis 2 is out of range [-2, 2) for rank 2");
  auto s = layer_norm(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 1}),
                      nullptr, 1, 1e-5);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "layer_norm: expected scale shape [3], got [2]");
}

TEST(SoftmaxTest, AgainstNaive) {
  std::vector<int64_t> shape = {3, 5, 7};
  Tensor x = randomTensor(DType::F32, shape, 21, -10, 10);
  for (int64_t axis : {0, 1, 2, -1, -3}) {
    DLC_ASSERT_OK_AND_GET(out, softmax(x, axis));
    int64_t a = axis < 0 ? axis + 3 : axis;
    Tensor e = x;
    for (int64_t f = 0; f < x.numElements(); ++f) {
      auto idx = unflatten(f, shape);
      double sum = 0;
      for (int64_t j = 0; j < shape[a]; ++j) {
        auto o = idx;
        o[a] = j;
        sum += std::exp(x.data[flatten(o, shape)] - x.data[f]);
      }
      e.data[f] = roundTo(DType::F32, 1 / sum);
    }
    expectTensor(out, e, 1e-6);
  }
  DLC_ASSERT_OK_AND_GET(big, softmax(f32({2}, {1000, 1000}), 0));
  expectTensor(big, f32({2}, {0.5, 0.5})); // Needs the max subtraction.
  DLC_ASSERT_OK_AND_GET(h, softmax(f32({3}, {0, std::log(2.0), std::log(5.0)}),
                                   -1));
  expectTensor(h, f32({3}, {1.0 / 8, 2.0 / 8, 5.0 / 8}), 1e-7);
  DLC_ASSERT_OK_AND_GET(hb, softmax(Tensor::fromValues(DType::BF16, {2, 1},
                                                       {3, -2}),
                                    1));
  expectTensor(hb, Tensor::fromValues(DType::BF16, {2, 1}, {1, 1}));
}

} // namespace
