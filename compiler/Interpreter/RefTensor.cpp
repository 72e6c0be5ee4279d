//===- RefTensor.cpp - Tensors and numerics of the reference interpreter --===//

#include "Interpreter/RefTensor.h"

#include "dlc/runtime.h"

#include <cfloat>
#include <cstring>
#include <cmath>
#include <limits>

namespace dlc::ref {

// The runtime's tables (runtime/src/Model.cpp), so that the interpreter,
// the importer and the artifact agree on every dtype's size and name.
int64_t storageBytes(DType type) {
  return static_cast<int64_t>(dlc_dtype_size(static_cast<dlc_dtype_t>(type)));
}

double decodeElement(DType type, const void *at) {
  const auto *bytes = static_cast<const unsigned char *>(at);
  switch (type) {
  case DType::F32: { float v; std::memcpy(&v, bytes, 4); return v; }
  case DType::F16: { uint16_t bits; std::memcpy(&bits, bytes, 2); return fromF16Bits(bits); }
  case DType::BF16: { uint16_t bits; std::memcpy(&bits, bytes, 2); return fromBF16Bits(bits); }
  case DType::I32: { int32_t v; std::memcpy(&v, bytes, 4); return v; }
  case DType::I64: { int64_t v; std::memcpy(&v, bytes, 8); return static_cast<double>(v); }
  case DType::I1: return bytes[0] != 0;
  case DType::F64: { double v; std::memcpy(&v, bytes, 8); return v; }
  case DType::I8: return static_cast<int8_t>(bytes[0]);
  case DType::U8: return bytes[0];
  case DType::I16: { int16_t v; std::memcpy(&v, bytes, 2); return v; }
  case DType::U16: { uint16_t v; std::memcpy(&v, bytes, 2); return v; }
  case DType::U32: { uint32_t v; std::memcpy(&v, bytes, 4); return v; }
  case DType::U64: { uint64_t v; std::memcpy(&v, bytes, 8); return static_cast<double>(v); }
  }
  return 0;
}

uint64_t encodeElement(DType type, double x) {
  switch (type) {
  case DType::F32: {
    float f = static_cast<float>(x);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  case DType::F64: {
    uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
  }
  case DType::F16: return toF16Bits(x);
  case DType::BF16: return toBF16Bits(x);
  case DType::I1: return x != 0.0;
  case DType::U64: return x >= 0x1p64 ? UINT64_MAX : x <= 0 ? 0 : static_cast<uint64_t>(x);
  default: return static_cast<uint64_t>(toInt64(x)); // two's complement, low bytes
  }
}

const char *dtypeName(DType type) { return dlc_dtype_name(static_cast<dlc_dtype_t>(type)); }

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : kAllDTypes)
    if (name == dtypeName(t))
      return t;
  return std::nullopt;
}

bool isFloat(DType type) {
  return type == DType::F32 || type == DType::F16 || type == DType::BF16 ||
         type == DType::F64;
}

bool isInteger(DType type) { return !isFloat(type); }

bool isUnsigned(DType type) {
  return type == DType::U8 || type == DType::U16 || type == DType::U32 || type == DType::U64;
}

int integerBits(DType type) {
  switch (type) {
  case DType::I1: return 1;
  case DType::I8: case DType::U8: return 8;
  case DType::I16: case DType::U16: return 16;
  case DType::I32: case DType::U32: return 32;
  case DType::I64: case DType::U64: return 64;
  default: return 0;
  }
}

namespace {

/// A binary floating-point format with `mantBits` stored fraction bits and
/// minimum normal exponent `minExp`.
struct FloatFormat {
  int mantBits;
  int minExp;
  int maxExp;
  double maxFinite() const {
    return std::ldexp(2.0 - std::ldexp(1.0, -mantBits), maxExp);
  }
};

constexpr FloatFormat kF16{10, -14, 15};
constexpr FloatFormat kBF16{7, -126, 127};
constexpr FloatFormat kF32{23, -126, 127};

/// Rounds a finite double to the format with RNE, straight from double so
/// there is no double rounding. Returns +-inf on overflow.
double roundToFormat(const FloatFormat &fmt, double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0)
    return x;
  double a = std::fabs(x);
  int exp;
  std::frexp(a, &exp); // a = f * 2^exp, f in [0.5, 1).
  int e = exp - 1;     // a = 1.xxx * 2^e.
  if (e < fmt.minExp)
    e = fmt.minExp; // Subnormal: fixed quantum.
  int quantumExp = e - fmt.mantBits;
  // Scaling by a power of two is exact; q < 2^(mantBits+1) so its fraction
  // is exact too.
  double q = std::ldexp(a, -quantumExp);
  double fl = std::floor(q);
  double diff = q - fl;
  double r = fl;
  if (diff > 0.5 || (diff == 0.5 && std::fmod(fl, 2.0) != 0.0))
    r = fl + 1.0;
  double res = std::ldexp(r, quantumExp);
  if (res > fmt.maxFinite())
    res = std::numeric_limits<double>::infinity();
  return std::copysign(res, x);
}

/// Encodes a value already exactly representable in the format (or +-inf,
/// NaN) into its bit pattern with the given exponent width.
uint16_t encodeFormat(const FloatFormat &fmt, int expBits, double v) {
  uint16_t sign = std::signbit(v) ? (1u << (fmt.mantBits + expBits)) : 0;
  uint16_t expAllOnes = ((1u << expBits) - 1) << fmt.mantBits;
  if (std::isnan(v)) // Quiet NaN, sign kept.
    return sign | expAllOnes | (1u << (fmt.mantBits - 1));
  if (std::isinf(v))
    return sign | expAllOnes;
  double a = std::fabs(v);
  if (a == 0.0)
    return sign;
  if (a < std::ldexp(1.0, fmt.minExp)) // Subnormal: mantissa = a / quantum.
    return sign | static_cast<uint16_t>(
                      std::ldexp(a, -(fmt.minExp - fmt.mantBits)));
  int exp;
  std::frexp(a, &exp);
  int e = exp - 1;
  int bias = (1 << (expBits - 1)) - 1;
  auto mant = static_cast<uint16_t>(std::ldexp(a, fmt.mantBits - e) -
                                    std::ldexp(1.0, fmt.mantBits));
  return sign | static_cast<uint16_t>((e + bias) << fmt.mantBits) | mant;
}

double decodeFormat(const FloatFormat &fmt, int expBits, uint16_t bits) {
  int mant = bits & ((1u << fmt.mantBits) - 1);
  int expField = (bits >> fmt.mantBits) & ((1u << expBits) - 1);
  bool neg = (bits >> (fmt.mantBits + expBits)) & 1;
  int bias = (1 << (expBits - 1)) - 1;
  double v;
  if (expField == (1 << expBits) - 1)
    v = mant ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  else if (expField == 0)
    v = std::ldexp(mant, fmt.minExp - fmt.mantBits);
  else
    v = std::ldexp(mant + (1 << fmt.mantBits), expField - bias - fmt.mantBits);
  return neg ? -v : v;
}

/// Truncates toward zero and wraps modulo 2^bits into [0, 2^bits): exact
/// for bits <= 32 (fmod is exact, and so is the sum); for 64 the sum is a
/// double again (-1 gives 2^64 - 1 rounded).
double wrapToUnsigned(double x, int bits) {
  if (std::isnan(x) || std::isinf(x))
    return 0;
  const double modulus = std::ldexp(1.0, bits);
  double m = std::fmod(std::trunc(x), modulus);
  return m < 0 ? m + modulus : m;
}

/// Truncates toward zero and wraps modulo 2^64 into int64 range.
int64_t wrapToInt64(double x) {
  if (std::isnan(x) || std::isinf(x))
    return 0;
  double t = std::trunc(x);
  const double two63 = std::ldexp(1.0, 63), two64 = std::ldexp(1.0, 64);
  if (t >= -two63 && t < two63)
    return static_cast<int64_t>(t);
  // INT64_MAX as a double: kept, not wrapped to INT64_MIN.
  if (t == two63)
    return std::numeric_limits<int64_t>::max();
  // |t| >= 2^63, so t is a multiple of 2^11 and all of this is exact.
  double m = std::fmod(t, two64);
  if (m >= two63)
    m -= two64;
  else if (m < -two63)
    m += two64;
  return static_cast<int64_t>(m);
}

} // namespace

int64_t toInt64(double x) {
  if (std::isnan(x))
    return 0;
  if (x >= std::ldexp(1.0, 63))
    return std::numeric_limits<int64_t>::max();
  if (x <= -std::ldexp(1.0, 63))
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}

double roundTo(DType type, double x) {
  switch (type) {
  case DType::F32:
    if (std::fabs(x) <= FLT_MAX) // In range: the cast is IEEE RNE.
      return static_cast<float>(x);
    return roundToFormat(kF32, x);
  case DType::F16:
    return roundToFormat(kF16, x);
  case DType::BF16:
    return roundToFormat(kBF16, x);
  case DType::I64:
    return static_cast<double>(wrapToInt64(x));
  case DType::I32: case DType::I16: case DType::I8: {
    // Wraps modulo 2^bits into [-2^(bits-1), 2^(bits-1)).
    int bits = integerBits(type);
    uint64_t mask = (uint64_t(1) << bits) - 1;
    uint64_t u = static_cast<uint64_t>(wrapToInt64(x)) & mask;
    int64_t v = u >= (uint64_t(1) << (bits - 1)) ? static_cast<int64_t>(u) - static_cast<int64_t>(mask) - 1
                                                 : static_cast<int64_t>(u);
    return static_cast<double>(v);
  }
  case DType::U64: case DType::U32: case DType::U16: case DType::U8:
    return wrapToUnsigned(x, integerBits(type));
  case DType::F64:
    return x;
  case DType::I1:
    return x != 0.0 ? 1.0 : 0.0;
  }
  return x;
}

uint16_t toF16Bits(double x) {
  return encodeFormat(kF16, 5, roundToFormat(kF16, x));
}
double fromF16Bits(uint16_t bits) { return decodeFormat(kF16, 5, bits); }
uint16_t toBF16Bits(double x) {
  return encodeFormat(kBF16, 8, roundToFormat(kBF16, x));
}
double fromBF16Bits(uint16_t bits) { return decodeFormat(kBF16, 8, bits); }

int64_t shapeNumElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      return -1;
    n *= d;
  }
  return n;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

Tensor Tensor::zeros(DType dtype, std::vector<int64_t> shape) {
  Tensor t;
  t.dtype = dtype;
  int64_t n = shapeNumElements(shape);
  t.shape = std::move(shape);
  t.data.assign(n > 0 ? static_cast<size_t>(n) : 0, 0.0);
  return t;
}

Tensor Tensor::fromValues(DType dtype, std::vector<int64_t> shape,
                          std::vector<double> values) {
  Tensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data = std::move(values);
  for (double &v : t.data)
    v = roundTo(dtype, v);
  return t;
}

Status Tensor::validate() const {
  for (int64_t d : shape)
    if (d < 0)
      return makeError("tensor shape ", shapeToString(shape),
                       " has a negative dim");
  int64_t n = numElements();
  if (n < 0)
    return makeError("tensor shape ", shapeToString(shape),
                     " has too many elements");
  if (static_cast<uint64_t>(n) != data.size())
    return makeError("tensor of shape ", shapeToString(shape), " expects ", n,
                     " elements but holds ", data.size());
  return Status::success();
}

} // namespace dlc::ref
