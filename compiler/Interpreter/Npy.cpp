//===- Npy.cpp - NumPy .npy files <-> reference tensors -------------------===//
//
// The file format itself (header, validation, messages) is the runtime's
// (runtime/tools/NpyFormat.h); this layer maps descrs to dtypes and raw
// elements to doubles.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Npy.h"
#include "NpyFormat.h"

#include <cstring>
#include <limits>

namespace dlc::ref {

namespace {

// What the interpreter reads, in the order its error message lists them.
const std::vector<npy::Descr> kAccepted = {
    {"<f4", 4}, {"<f2", 2}, {"<f8", 8}, {"<i4", 4},
    {"<i8", 8}, {"|b1", 1}, {"|u1", 1},
};

DType dtypeOf(std::string_view descr) {
  if (descr == "<f4" || descr == "<f8")
    return DType::F32;
  if (descr == "<f2")
    return DType::F16;
  if (descr == "<i4")
    return DType::I32;
  if (descr == "<i8")
    return DType::I64;
  return DType::I1; // |b1, |u1
}

void storeLE(std::string &out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// Decodes one element stored with `descr` into a double of the tensor
/// dtype: ref::decodeElement for the descrs that are a dtype's storage, f64
/// rounded to the f32 it is read as, u1 as a boolean.
double decodeElement(std::string_view d, const unsigned char *p) {
  if (d == "<f8") {
    double f;
    std::memcpy(&f, p, 8);
    return roundTo(DType::F32, f);
  }
  if (d == "<f4" || d == "<f2" || d == "<i4" || d == "<i8")
    return ref::decodeElement(dtypeOf(d), p);
  return p[0] != 0 ? 1.0 : 0.0; // |b1, |u1
}

} // namespace

Expected<Tensor> parseNpy(std::string_view bytes, const std::string &name) {
  npy::Array array;
  std::string error;
  if (!npy::parse(bytes, name, kAccepted, array, error))
    return Status::error(error);
  Tensor t = Tensor::zeros(dtypeOf(array.descr), array.shape);
  const auto *p = reinterpret_cast<const unsigned char *>(array.data.data());
  for (size_t i = 0; i < t.data.size(); ++i, p += array.itemSize)
    t.data[i] = decodeElement(array.descr, p);
  return t;
}

Expected<std::string> encodeNpy(const Tensor &tensor) {
  if (Status s = tensor.validate(); !s.ok())
    return Status::error("npy: cannot encode: " + s.message());
  // bf16 is written as <f4: its values are exact in f32.
  DType storeAs = tensor.dtype == DType::BF16 ? DType::F32 : tensor.dtype;
  const char *descr = storeAs == DType::F32   ? "<f4"
                      : storeAs == DType::F16 ? "<f2"
                      : storeAs == DType::I32 ? "<i4"
                      : storeAs == DType::I64 ? "<i8"
                                              : "|b1";
  std::string data;
  data.reserve(tensor.data.size() * 8);
  for (double v : tensor.data) {
    double r = roundTo(storeAs, v); // Keeps the integer casts below defined.
    switch (storeAs) {
    case DType::F32: {
      float f = static_cast<float>(r);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      storeLE(data, b, 4);
      break;
    }
    case DType::F16:
      storeLE(data, toF16Bits(r), 2);
      break;
    case DType::I32:
      storeLE(data, static_cast<uint32_t>(static_cast<int32_t>(r)), 4);
      break;
    case DType::I64: // r may be 2^63 after rounding to double: clamp.
      storeLE(data,
              static_cast<uint64_t>(
                  r >= 9223372036854775808.0
                      ? std::numeric_limits<int64_t>::max()
                      : static_cast<int64_t>(r)),
              8);
      break;
    default: // I1
      data.push_back(r != 0.0 ? 1 : 0);
      break;
    }
  }
  return npy::encode(descr, tensor.shape, data);
}

Expected<Tensor> readNpy(const std::string &path) {
  std::string bytes, error;
  if (!npy::readFile(path, bytes, error))
    return Status::error(error);
  return parseNpy(bytes, path);
}

Status writeNpy(const std::string &path, const Tensor &tensor) {
  auto bytes = encodeNpy(tensor);
  if (!bytes.ok())
    return Status::error("npy file '" + path + "': " + bytes.message());
  std::string error;
  if (!npy::writeFile(path, *bytes, error))
    return Status::error(error);
  return Status::success();
}

} // namespace dlc::ref
