//===- RandomInputsTest.cpp - the shared generator and 16-bit rounding ----===//

#include "Half.h"
#include "dlc/random_inputs.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

using namespace dlc::rt;

namespace {

TEST(RandomInputs, SplitMix64ReferenceValues) {
  uint64_t state = 0; // SplitMix64's published sequence for seed 0.
  EXPECT_EQ(dlc_random_next(&state), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(dlc_random_next(&state), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(state, 2 * 0x9E3779B97F4A7C15ull);
}

TEST(RandomInputs, DtypesFollowTheDocumentedFormulas) {
  std::vector<double> units;
  uint64_t state = 1;
  for (int i = 0; i < 64; ++i)
    units.push_back(dlc_random_unit(&state));
  state = 1;
  std::vector<float> f(16);
  ASSERT_EQ(dlc_random_fill(DLC_DTYPE_F32, 0, 16, &state, f.data()), nullptr);
  std::vector<uint16_t> h(16);
  ASSERT_EQ(dlc_random_fill(DLC_DTYPE_F16, 0, 16, &state, h.data()), nullptr);
  std::vector<int64_t> i64(16);
  ASSERT_EQ(dlc_random_fill(DLC_DTYPE_I64, 1000, 16, &state, i64.data()),
            nullptr);
  std::vector<uint8_t> i1(16);
  ASSERT_EQ(dlc_random_fill(DLC_DTYPE_I1, 0, 16, &state, i1.data()), nullptr);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(f[i], float(2 * units[i] - 1));
    EXPECT_EQ(h[i], doubleToF16Bits(2 * units[16 + i] - 1));
    EXPECT_EQ(i64[i], int64_t(std::floor(units[32 + i] * 1000)));
    EXPECT_EQ(i1[i], std::floor(units[48 + i] * 4) != 0 ? 1 : 0);
    EXPECT_GE(f[i], -1.0f);
    EXPECT_LT(f[i], 1.0f);
  }
  dlc_status_t s = dlc_random_fill(DLC_DTYPE_I32, -1, 1, &state, f.data());
  EXPECT_STREQ(dlc_status_message(s), "dlc_random_fill: negative index_bound -1");
  dlc_status_free(s);
}

TEST(Half, RoundsOnceToNearestEven) {
  EXPECT_EQ(doubleToF16Bits(0.1), 0x2E66);
  EXPECT_EQ(doubleToBF16Bits(0.1), 0x3DCD);
  EXPECT_EQ(doubleToF16Bits(1.0), 0x3C00);
  EXPECT_EQ(doubleToF16Bits(-2.0), 0xC000);
  EXPECT_EQ(doubleToF16Bits(65504), 0x7BFF);
  EXPECT_EQ(doubleToF16Bits(65519.99), 0x7BFF);
  EXPECT_EQ(doubleToF16Bits(65520), 0x7C00); // Tie rounds to even: inf.
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1.0, -25)), 0x0000); // Tie to even.
  EXPECT_EQ(doubleToF16Bits(std::ldexp(3.0, -26)), 0x0001);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1023.5, -24)), 0x0400); // To normal.
  EXPECT_EQ(doubleToF16Bits(-0.0), 0x8000);
  EXPECT_EQ(doubleToF16Bits(1.0 + std::ldexp(1.0, -11)), 0x3C00); // Tie.
  EXPECT_EQ(doubleToF16Bits(1.0 + std::ldexp(3.0, -11)), 0x3C02); // Tie up.
  // Double rounding through float would give 0x3C00 here.
  EXPECT_EQ(doubleToF16Bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            0x3C01);
  EXPECT_EQ(doubleToBF16Bits(1e39), 0x7F80);
  EXPECT_TRUE(std::isnan(f16BitsToDouble(doubleToF16Bits(NAN))));
  for (uint32_t b = 0; b < 0x7C00; b += 7)
    EXPECT_EQ(doubleToF16Bits(f16BitsToDouble(uint16_t(b))), b);
  for (uint32_t b = 0; b < 0x7F80; b += 13)
    EXPECT_EQ(doubleToBF16Bits(bf16BitsToDouble(uint16_t(b))), b);
}

} // namespace
