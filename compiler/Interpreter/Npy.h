//===- Npy.h - NumPy .npy reading and writing -----------------------------===//
//
// Reads format versions 1.0, 2.0 and 3.0 and writes 1.0 (2.0 when the header
// does not fit). Little-endian C-order arrays only. dtype mapping:
//   read:  <f4 -> f32, <f2 -> f16, <f8 -> f32 (rounded), <i4 -> i32,
//          <i8 -> i64, |b1 and |u1 -> i1 (nonzero is 1)
//   write: f32 and bf16 -> <f4 (bf16 values are exact in f32), f16 -> <f2,
//          i32 -> <i4, i64 -> <i8, i1 -> |b1
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

/// In-memory forms of the above; `name` only labels error messages.
Expected<Tensor> parseNpy(std::string_view bytes, const std::string &name);
Expected<std::string> encodeNpy(const Tensor &tensor);

} // namespace dlc::ref

#endif // DLC_INTERPRETER_NPY_H
