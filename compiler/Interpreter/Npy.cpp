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

struct DescrType {
  npy::Descr descr;
  DType dtype;
};

// What the interpreter reads and writes, in the order its error message
// lists them (bf16 has no descr of its own: it is written as <f4).
const DescrType kDescrs[] = {
    {{"<f4", 4}, DType::F32}, {{"<f2", 2}, DType::F16}, {{"<f8", 8}, DType::F64},
    {{"<i4", 4}, DType::I32}, {{"<i8", 8}, DType::I64}, {{"|b1", 1}, DType::I1},
    {{"|i1", 1}, DType::I8},  {{"|u1", 1}, DType::U8},  {{"<i2", 2}, DType::I16},
    {{"<u2", 2}, DType::U16}, {{"<u4", 4}, DType::U32}, {{"<u8", 8}, DType::U64},
};

DType dtypeOf(std::string_view descr) {
  for (const DescrType &d : kDescrs)
    if (descr == d.descr.descr)
      return d.dtype;
  return DType::I1;
}

const char *descrOf(DType dtype) {
  for (const DescrType &d : kDescrs)
    if (d.dtype == dtype)
      return d.descr.descr;
  return "<f4"; // bf16
}

void storeLE(std::string &out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

} // namespace

Tensor convertForInput(Tensor t, DType want) {
  bool toFloat = t.dtype == DType::F64 && isFloat(want);
  bool toBool = t.dtype == DType::U8 && want == DType::I1;
  if (toFloat || toBool) {
    t.dtype = want;
    for (double &v : t.data)
      v = roundTo(want, v);
  }
  return t;
}

Expected<Tensor> parseNpy(std::string_view bytes, const std::string &name) {
  npy::Array array;
  std::string error;
  std::vector<npy::Descr> accepted;
  for (const DescrType &d : kDescrs)
    accepted.push_back(d.descr);
  if (!npy::parse(bytes, name, accepted, array, error))
    return Status::error(error);
  Tensor t = Tensor::zeros(dtypeOf(array.descr), array.shape);
  const auto *p = reinterpret_cast<const unsigned char *>(array.data.data());
  for (size_t i = 0; i < t.data.size(); ++i, p += array.itemSize)
    t.data[i] = t.dtype == DType::I1 ? double(p[0] != 0) : decodeElement(t.dtype, p);
  return t;
}

Expected<std::string> encodeNpy(const Tensor &tensor) {
  if (Status s = tensor.validate(); !s.ok())
    return Status::error("npy: cannot encode: " + s.message());
  // bf16 is written as <f4: its values are exact in f32.
  DType storeAs = tensor.dtype == DType::BF16 ? DType::F32 : tensor.dtype;
  std::string data;
  data.reserve(tensor.data.size() * 8);
  size_t bytes = static_cast<size_t>(storageBytes(storeAs));
  for (double v : tensor.data) // Rounding first keeps the integer casts defined.
    storeLE(data, encodeElement(storeAs, roundTo(storeAs, v)), bytes);
  return npy::encode(descrOf(storeAs), tensor.shape, data);
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
