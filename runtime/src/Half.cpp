//===- Half.cpp - 16-bit float encodings ----------------------------------===//

#include "Half.h"

#include <algorithm>
#include <cmath>

namespace dlc::rt {

namespace {

struct Format {
  int mantBits; // Explicit fraction bits.
  int expBits;
  int emin; // Exponent of the smallest normal.
  int emax;
};
constexpr Format kF16{10, 5, -14, 15};
constexpr Format kBF16{7, 8, -126, 127};

uint16_t encode(const Format &f, double x) {
  uint16_t sign = std::signbit(x) ? uint16_t(1u << 15) : 0;
  uint16_t expMask = uint16_t(((1u << f.expBits) - 1) << f.mantBits);
  if (std::isnan(x))
    return sign | expMask | uint16_t(1u << (f.mantBits - 1));
  double a = std::fabs(x);
  if (std::isinf(a))
    return sign | expMask;
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1): unbiased exponent e - 1.
  int exp = a == 0 ? f.emin : std::max(e - 1, f.emin);
  // Significand in units of the last place at `exp`; exact (power-of-2
  // scaling), then rounded to nearest-even by nearbyint.
  double q = std::nearbyint(std::ldexp(a, f.mantBits - exp));
  double one = std::ldexp(1.0, f.mantBits);
  if (q >= 2 * one) { // Rounded up to the next binade.
    q /= 2;
    ++exp;
  }
  if (exp > f.emax)
    return sign | expMask;
  if (q < one) // Subnormal (or zero): biased exponent 0.
    return sign | uint16_t(q);
  uint16_t biased = uint16_t(exp - f.emin + 1);
  return sign | uint16_t(biased << f.mantBits) | uint16_t(q - one);
}

double decode(const Format &f, uint16_t bits) {
  int biased = (bits >> f.mantBits) & ((1 << f.expBits) - 1);
  int frac = bits & ((1 << f.mantBits) - 1);
  double sign = (bits >> 15) ? -1.0 : 1.0;
  if (biased == (1 << f.expBits) - 1)
    return frac ? std::nan("") : sign * INFINITY;
  if (biased == 0)
    return sign * std::ldexp(frac, f.emin - f.mantBits);
  return sign * std::ldexp(frac + (1 << f.mantBits),
                           biased + f.emin - 1 - f.mantBits);
}

} // namespace

uint16_t doubleToF16Bits(double x) { return encode(kF16, x); }
uint16_t doubleToBF16Bits(double x) { return encode(kBF16, x); }
double f16BitsToDouble(uint16_t bits) { return decode(kF16, bits); }
double bf16BitsToDouble(uint16_t bits) { return decode(kBF16, bits); }

} // namespace dlc::rt
