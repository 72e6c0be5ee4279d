//===- Half.h - IEEE binary16 and bfloat16 from double --------------------===//
//
// Rounded once, directly from double, to nearest-even (as the reference
// interpreter's roundTo does): rounding through float first could round
// twice and differ in the last bit.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_HALF_H
#define DLC_RUNTIME_HALF_H

#include <cstdint>

namespace dlc::rt {

uint16_t doubleToF16Bits(double x);
uint16_t doubleToBF16Bits(double x);
double f16BitsToDouble(uint16_t bits);
double bf16BitsToDouble(uint16_t bits);

} // namespace dlc::rt

#endif // DLC_RUNTIME_HALF_H
