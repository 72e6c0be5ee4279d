//===- Npy.h - NumPy .npy reading and writing -----------------------------===//
//
// Reads format versions 1.0, 2.0 and 3.0 and writes 1.0 (2.0 when the header
// does not fit). Little-endian C-order arrays only. dtype mapping, both ways:
//   <f4 f32, <f2 f16, <f8 f64, |b1 i1 (nonzero is 1), |i1 i8, |u1 u8,
//   <i2 i16, <u2 u16, <i4 i32, <u4 u32, <i8 i64, <u8 u64;
//   bf16 is written as <f4 (its values are exact in f32).
// NumPy's defaults meet a model's types through convertForInput.
// Errors name the file and the problem; malformed input never crashes.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_INTERPRETER_NPY_H
#define DLC_INTERPRETER_NPY_H

#include "Interpreter/RefTensor.h"

#include <string>
#include <string_view>

namespace dlc::ref {

Expected<Tensor> readNpy(const std::string &path);
Status writeNpy(const std::string &path, const Tensor &tensor);

/// `t` as an input of element type `want`, for the conversions a NumPy user
/// expects to be silent: f64 (NumPy's default float) rounded to f32, f16 or
/// bf16, and u8 to i1 (nonzero is 1). Any other pair is returned unchanged,
/// for the caller's type check to report.
Tensor convertForInput(Tensor t, DType want);

/// In-memory forms of the above; `name` only labels error messages.
Expected<Tensor> parseNpy(std::string_view bytes, const std::string &name);
Expected<std::string> encodeNpy(const Tensor &tensor);

} // namespace dlc::ref

#endif // DLC_INTERPRETER_NPY_H
