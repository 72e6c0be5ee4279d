//===- MathExpansions.h - elementwise functions as exp, log1p, atan, ... --===//
//
// The trigonometric inverses and the hyperbolic functions, written with the
// math ops that ApproximateMath turns into vector polynomials (exp, log,
// log1p, atan, sin, cos, sqrt), in forms that keep their relative accuracy
// where the textbook ones cancel: near 0 (sinh, asinh, atanh), near 1 (acosh,
// and asin/acos, whose upstream polynomials are off by 1% near +-1), and for
// large arguments (asinh, acosh, whose squares overflow). LLVM has no vector
// form of these functions, and MathToLibm in MLIR 19 calls libm only for
// scalars of some of them, so left as math ops they would not lower.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_MATHEXPANSIONS_H
#define DLC_COMPILER_TARGET_CPU_MATHEXPANSIONS_H

#include "mlir/IR/Builders.h"

namespace dlc {

/// `kind`: tan, asin, acos, sinh, cosh, asinh, acosh or atanh, applied to the
/// float scalar `x`; null for another kind.
mlir::Value expandMathFunction(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef kind,
                               mlir::Value x);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_MATHEXPANSIONS_H
