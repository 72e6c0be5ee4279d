//===- RefTensor.h - Tensors and numerics of the reference interpreter ----===//
//
// Values are held as double. Every element of a Tensor is exactly
// representable in its dtype; kernels compute in double and round each output
// element once with roundTo(). See README.md for the numeric model.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_INTERPRETER_REFTENSOR_H
#define DLC_INTERPRETER_REFTENSOR_H

#include "dlcm_generated.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlc::ref {

/// The artifact schema's element types (runtime/schema/dlcm.fbs): one enum
/// for the interpreter, the importer, .npy files and the artifact.
using DType = ::dlc::artifact::DType;

/// Every element type, in the schema's order.
inline constexpr DType kAllDTypes[] = {
    DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64, DType::I1, DType::F64,
    DType::I8,  DType::U8,  DType::I16,  DType::U16, DType::U32, DType::U64};

/// "f32", "f16", "bf16", "i32", "i64", "i1", "f64", "i8", "u8", ... "u64".
const char *dtypeName(DType type);
/// Inverse of dtypeName; nullopt for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// f32, f16, bf16 and f64.
bool isFloat(DType type);
/// Every other type: the signed and unsigned integers and i1.
bool isInteger(DType type);
/// u8, u16, u32 and u64.
bool isUnsigned(DType type);
/// 1, 8, 16, 32 or 64 for an integer type; 0 for a float.
int integerBits(DType type);

/// Bytes per element as tensors store it (artifact buffers, ONNX raw data,
/// dense_resource blobs): i1 takes one byte.
int64_t storageBytes(DType type);
/// Decodes one little-endian element of `type` at `bytes`: the one decoder
/// of stored elements (the interpreter's constants, ONNX tensors, .npy).
double decodeElement(DType type, const void *bytes);
/// The stored bits of `x`, a value of `type` (already rounded to it), in the
/// low storageBytes(type) bytes: the inverse of decodeElement. A u64 or i64
/// value rounded past its range (2^64, 2^63) is clamped.
uint64_t encodeElement(DType type, double x);

/// Rounds x to the nearest value of `type`, the single rounding every kernel
/// applies to each output element.
///  - f32/f16/bf16: IEEE round-to-nearest-even, done directly from double
///    (subnormals, overflow to +-inf, NaN stays NaN).
///  - f64: x itself (the interpreter's own precision).
///  - i8..i64: truncate toward zero, then wrap modulo 2^bits (two's
///    complement, like casting an int64). NaN and +-inf give 0.
///  - u8..u64: truncate toward zero, then wrap modulo 2^bits into
///    [0, 2^bits). NaN and +-inf give 0. (u64 and i64 values beyond 2^53
///    are held to a double's precision: the interpreter's known limit.)
///  - i1: x != 0 ? 1 : 0 (NaN gives 1).
double roundTo(DType type, double x);

/// An i64 element held as a double, as an int64_t: saturated, since
/// INT64_MAX (PyTorch's "to the end" in a Slice) decodes to 2^63, just
/// outside the range a cast may take; NaN gives 0 (never UB, even on
/// garbage data).
int64_t toInt64(double x);

/// Exact IEEE binary16 / bfloat16 conversions (RNE when encoding).
uint16_t toF16Bits(double x);
double fromF16Bits(uint16_t bits);
uint16_t toBF16Bits(double x);
double fromBF16Bits(uint16_t bits);

/// Success or a lowercase error message.
class Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.isOk = false;
    s.msg = std::move(message);
    return s;
  }
  bool ok() const { return isOk; }
  explicit operator bool() const { return isOk; }
  const std::string &message() const { return msg; }

private:
  bool isOk = true;
  std::string msg;
};

/// Builds an error Status from streamable pieces: makeError("x: ", 3).
template <typename... Args> Status makeError(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  return Status::error(os.str());
}

/// A value or an error message. Check ok() before calling value().
template <typename T> class Expected {
public:
  Expected(T v) : val(std::move(v)) {}
  Expected(Status s) : st(std::move(s)) {
    if (st.ok()) // An error must carry a message; never hold neither.
      st = Status::error("internal error: expected built from a success");
  }
  bool ok() const { return val.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return st; }
  const std::string &message() const { return st.message(); }
  T &value() {
    assert(ok() && "value() of an error");
    return *val;
  }
  const T &value() const {
    assert(ok() && "value() of an error");
    return *val;
  }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  std::optional<T> val;
  Status st;
};

/// Product of dims, or -1 when a dim is negative or the product overflows.
int64_t shapeNumElements(const std::vector<int64_t> &shape);
/// Row-major strides (in elements) of a shape.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);
/// "[2,3,4]"; "[]" for rank 0.
std::string shapeToString(const std::vector<int64_t> &shape);

struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<double> data; // Row-major.

  int64_t numElements() const { return shapeNumElements(shape); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }

  static Tensor zeros(DType dtype, std::vector<int64_t> shape);
  /// Builds a tensor, rounding every value to `dtype`. The caller provides
  /// exactly numElements() values (validate() reports otherwise).
  static Tensor fromValues(DType dtype, std::vector<int64_t> shape,
                           std::vector<double> values);
  /// Checks dims >= 0 and that data holds exactly numElements() values.
  Status validate() const;
};

} // namespace dlc::ref

#endif // DLC_INTERPRETER_REFTENSOR_H
