//===- RefTensorTest.cpp - dtype rounding and f16/bf16 bit conversions ----===//

#include "Interpreter/RefTensor.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace dlc::ref;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double p2(int e) { return std::ldexp(1.0, e); }

TEST(DTypeTest, NamesAndKinds) {
  EXPECT_STREQ(dtypeName(DType::F32), "f32");
  EXPECT_STREQ(dtypeName(DType::F16), "f16");
  EXPECT_STREQ(dtypeName(DType::BF16), "bf16");
  EXPECT_STREQ(dtypeName(DType::I32), "i32");
  EXPECT_STREQ(dtypeName(DType::I64), "i64");
  EXPECT_STREQ(dtypeName(DType::I1), "i1");
  EXPECT_EQ(parseDType("bf16"), DType::BF16);
  EXPECT_FALSE(parseDType("f128").has_value());
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_TRUE(isFloat(DType::F64));
  EXPECT_FALSE(isFloat(DType::I1));
  EXPECT_TRUE(isInteger(DType::I64));
  EXPECT_TRUE(isInteger(DType::U8));
  EXPECT_TRUE(isUnsigned(DType::U64));
  EXPECT_FALSE(isUnsigned(DType::I8));
  for (DType t : kAllDTypes) // Names round-trip; every type has a size.
    EXPECT_EQ(parseDType(dtypeName(t)), t);
  EXPECT_EQ(storageBytes(DType::U16), 2);
  EXPECT_EQ(storageBytes(DType::F64), 8);
  EXPECT_EQ(integerBits(DType::U32), 32);
}

TEST(DTypeTest, IntegersWrapModuloTheirWidth) {
  EXPECT_EQ(roundTo(DType::I8, 127), 127);
  EXPECT_EQ(roundTo(DType::I8, 128), -128);
  EXPECT_EQ(roundTo(DType::I8, -129.7), 127); // truncated toward zero first
  EXPECT_EQ(roundTo(DType::U8, 256), 0);
  EXPECT_EQ(roundTo(DType::U8, -1), 255);
  EXPECT_EQ(roundTo(DType::I16, 40000), 40000 - 65536);
  EXPECT_EQ(roundTo(DType::U16, -2.5), 65534);
  EXPECT_EQ(roundTo(DType::U32, p2(32) + 5), 5);
  EXPECT_EQ(roundTo(DType::U64, -p2(11)), p2(64) - p2(11)); // exact in a double
  EXPECT_EQ(roundTo(DType::U64, p2(64)), 0);
  EXPECT_EQ(roundTo(DType::F64, 0.1), 0.1);
  EXPECT_EQ(roundTo(DType::U8, std::nan("")), 0);
  unsigned char b[8] = {0xff, 0xff, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(decodeElement(DType::I8, b), -1);
  EXPECT_EQ(decodeElement(DType::U8, b), 255);
  EXPECT_EQ(decodeElement(DType::I16, b), -1);
  EXPECT_EQ(decodeElement(DType::U16, b), 65535);
  EXPECT_EQ(decodeElement(DType::U32, b), 65535);
}

TEST(F16Test, KnownBitPatterns) {
  EXPECT_EQ(toF16Bits(1.0), 0x3C00);
  EXPECT_EQ(toF16Bits(-2.0), 0xC000);
  EXPECT_EQ(toF16Bits(0.1), 0x2E66);
  EXPECT_EQ(toF16Bits(65504.0), 0x7BFF);
  EXPECT_EQ(toF16Bits(65519.0), 0x7BFF); // Just below the overflow tie.
  EXPECT_EQ(toF16Bits(65520.0), 0x7C00); // Tie rounds to even: inf.
  EXPECT_EQ(toF16Bits(-1e6), 0xFC00);
  EXPECT_EQ(toF16Bits(kInf), 0x7C00);
  EXPECT_EQ(toF16Bits(-0.0), 0x8000);
  EXPECT_EQ(toF16Bits(p2(-24)), 0x0001);       // Smallest subnormal.
  EXPECT_EQ(toF16Bits(p2(-25)), 0x0000);       // Tie to even: zero.
  EXPECT_EQ(toF16Bits(p2(-25) * 1.001), 0x0001);
  EXPECT_EQ(toF16Bits(3 * p2(-25)), 0x0002);   // Tie to even: 2 quanta.
  EXPECT_EQ(toF16Bits(1023 * p2(-24)), 0x03FF); // Largest subnormal.
  EXPECT_EQ(toF16Bits(p2(-14)), 0x0400);       // Smallest normal.
  EXPECT_EQ(toF16Bits(1 + p2(-11)), 0x3C00);   // Tie to even: down.
  EXPECT_EQ(toF16Bits(1 + 3 * p2(-11)), 0x3C02); // Tie to even: up.
  uint16_t nan = toF16Bits(std::nan(""));
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
}

TEST(F16Test, RoundsDirectlyFromDouble) {
  // Via float this would become the exact tie 1 + 2^-11 and round down.
  EXPECT_EQ(toF16Bits(1 + p2(-11) + p2(-40)), 0x3C01);
  EXPECT_EQ(toF16Bits(-(1 + p2(-11) + p2(-40))), 0xBC01);
}

TEST(F16Test, DecodeKnownBits) {
  EXPECT_EQ(fromF16Bits(0x3C00), 1.0);
  EXPECT_EQ(fromF16Bits(0x0001), p2(-24));
  EXPECT_EQ(fromF16Bits(0x7BFF), 65504.0);
  EXPECT_EQ(fromF16Bits(0xFC00), -kInf);
  EXPECT_TRUE(std::isnan(fromF16Bits(0x7E00)));
  EXPECT_TRUE(std::signbit(fromF16Bits(0x8000)));
}

TEST(F16Test, AllBitPatternsRoundTrip) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double v = fromF16Bits(static_cast<uint16_t>(b));
    if (std::isnan(v))
      continue;
    EXPECT_EQ(toF16Bits(v), b);
    EXPECT_EQ(roundTo(DType::F16, v), v);
  }
}

#ifdef __FLT16_MAX__
// The compiler's float -> _Float16 conversion is an independent RNE oracle
// for inputs that are exactly floats (no double rounding possible).
TEST(F16Test, MatchesCompilerFloat16OnRandomFloats) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      continue;
    _Float16 h = static_cast<_Float16>(f);
    uint16_t hb;
    std::memcpy(&hb, &h, 2);
    ASSERT_EQ(toF16Bits(f), hb) << "input " << f;
  }
}
#endif

TEST(BF16Test, KnownBitPatterns) {
  EXPECT_EQ(toBF16Bits(1.0), 0x3F80);
  EXPECT_EQ(toBF16Bits(1 + p2(-8)), 0x3F80);     // Tie to even: 1.
  EXPECT_EQ(toBF16Bits(1 + 3 * p2(-8)), 0x3F82); // Tie to even: 1+2^-6.
  EXPECT_EQ(fromBF16Bits(0x3F82), 1 + p2(-6));
  EXPECT_EQ(toBF16Bits(0.1), 0x3DCD);
  EXPECT_EQ(toBF16Bits(-0.0), 0x8000);
  EXPECT_EQ(toBF16Bits(p2(-133)), 0x0001); // Smallest subnormal.
  EXPECT_EQ(toBF16Bits(p2(-134)), 0x0000); // Tie to even: zero.
  EXPECT_EQ(fromBF16Bits(0x7F7F), (2 - p2(-7)) * p2(127));
  EXPECT_EQ(toBF16Bits((2 - p2(-8)) * p2(127)), 0x7F80); // Tie: inf.
  EXPECT_EQ(toBF16Bits(1e300), 0x7F80);
  uint16_t nan = toBF16Bits(-std::nan(""));
  EXPECT_EQ(nan & 0x7F80, 0x7F80);
  EXPECT_NE(nan & 0x007F, 0);
}

TEST(BF16Test, AllBitPatternsRoundTrip) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double v = fromBF16Bits(static_cast<uint16_t>(b));
    if (std::isnan(v))
      continue;
    EXPECT_EQ(toBF16Bits(v), b);
  }
}

TEST(BF16Test, MatchesBitTrickOnRandomFloats) {
  std::mt19937 rng(11);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f))
      continue;
    // Classic float -> bf16 RNE: add 0x7FFF plus the lowest kept bit.
    uint32_t expected = (u + 0x7FFF + ((u >> 16) & 1)) >> 16;
    ASSERT_EQ(toBF16Bits(f), expected) << "input " << f;
  }
}

TEST(RoundToTest, F32) {
  EXPECT_EQ(roundTo(DType::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundTo(DType::F32, 1e39), kInf);
  EXPECT_EQ(roundTo(DType::F32, -1e39), -kInf);
  // Above FLT_MAX but below the overflow tie: rounds down to FLT_MAX.
  EXPECT_EQ(roundTo(DType::F32, FLT_MAX * (1 + p2(-26))), FLT_MAX);
  EXPECT_EQ(roundTo(DType::F32, FLT_MAX * (1 + p2(-24))), kInf);
  EXPECT_EQ(roundTo(DType::F32, p2(-150)), 0.0);          // Tie to even.
  EXPECT_EQ(roundTo(DType::F32, 3 * p2(-150)), p2(-148)); // Tie to even.
  EXPECT_TRUE(std::isnan(roundTo(DType::F32, std::nan(""))));
}

TEST(RoundToTest, Integers) {
  EXPECT_EQ(roundTo(DType::I32, 2.7), 2.0);
  EXPECT_EQ(roundTo(DType::I32, -2.7), -2.0);
  EXPECT_EQ(roundTo(DType::I32, 2147483648.0), -2147483648.0);
  EXPECT_EQ(roundTo(DType::I32, 4294967297.0), 1.0);
  EXPECT_EQ(roundTo(DType::I32, -2147483649.0), 2147483647.0);
  EXPECT_EQ(roundTo(DType::I64, -5.9), -5.0);
  // 2^63 is how INT64_MAX decodes (PyTorch's "to the end" in a Slice): kept,
  // not wrapped to INT64_MIN; beyond it, values wrap.
  EXPECT_EQ(roundTo(DType::I64, p2(63)), p2(63));
  EXPECT_EQ(roundTo(DType::I64, p2(63) + p2(11)), -p2(63) + p2(11)); // Wraps.
  EXPECT_EQ(roundTo(DType::I64, p2(64) + p2(12)), p2(12));
  EXPECT_EQ(roundTo(DType::I64, std::nan("")), 0.0);
  EXPECT_EQ(roundTo(DType::I1, -3.0), 1.0);
  EXPECT_EQ(roundTo(DType::I1, 0.0), 0.0);
  EXPECT_EQ(roundTo(DType::I1, std::nan("")), 1.0);
}

TEST(RoundToTest, ToInt64Saturates) {
  EXPECT_EQ(toInt64(-5.0), -5);
  EXPECT_EQ(toInt64(p2(63)), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(toInt64(double(std::numeric_limits<int64_t>::max())),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(toInt64(-p2(64)), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(toInt64(std::nan("")), 0);
}

TEST(TensorTest, BasicsAndValidate) {
  Tensor t = Tensor::zeros(DType::F16, {3, 5, 7});
  EXPECT_EQ(t.numElements(), 105);
  EXPECT_EQ(t.data.size(), 105u);
  EXPECT_TRUE(t.validate().ok());
  Tensor s = Tensor::zeros(DType::I32, {});
  EXPECT_EQ(s.numElements(), 1);
  Tensor r = Tensor::fromValues(DType::F16, {2}, {0.1, 65520});
  EXPECT_EQ(r.data[0], fromF16Bits(0x2E66));
  EXPECT_EQ(r.data[1], kInf);
  t.data.pop_back();
  EXPECT_EQ(t.validate().message(),
            "tensor of shape [3,5,7] expects 105 elements but holds 104");
  t.shape = {-1};
  EXPECT_EQ(t.validate().message(), "tensor shape [-1] has a negative dim");
  EXPECT_EQ(shapeToString({}), "[]");
  EXPECT_EQ(rowMajorStrides({3, 5, 7}), (std::vector<int64_t>{35, 7, 1}));
}

TEST(ExpectedTest, ValueAndError) {
  Expected<int> ok(3);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3);
  Expected<int> bad(makeError("op: got ", 4));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "op: got 4");
  Expected<int> weird(Status::success()); // Never "neither".
  EXPECT_FALSE(weird.ok());
}

} // namespace
