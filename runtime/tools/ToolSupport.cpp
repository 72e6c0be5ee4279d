//===- ToolSupport.cpp - helpers shared by the runtime's tools ------------===//

#include "ToolSupport.h"
#include "Half.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dlc::tools {

const char *npyDescr(dlc_dtype_t dtype) {
  switch (dtype) {
  case DLC_DTYPE_F32: return "<f4";
  case DLC_DTYPE_F16: return "<f2";
  case DLC_DTYPE_BF16: return "<u2";
  case DLC_DTYPE_I32: return "<i4";
  case DLC_DTYPE_I64: return "<i8";
  case DLC_DTYPE_I1: return "|b1";
  case DLC_DTYPE_F64: return "<f8";
  case DLC_DTYPE_I8: return "|i1";
  case DLC_DTYPE_U8: return "|u1";
  case DLC_DTYPE_I16: return "<i2";
  case DLC_DTYPE_U16: return "<u2";
  case DLC_DTYPE_U32: return "<u4";
  case DLC_DTYPE_U64: return "<u8";
  }
  return "?";
}

std::string typeString(const dlc_tensor_info_t &info) {
  std::string s = std::string(dlc_dtype_name(info.dtype)) + " [", bound = " at most [";
  bool dynamic = false;
  for (size_t i = 0; i < info.rank; ++i) {
    dynamic |= info.shape[i] < 0;
    s += (i ? "," : "") + (info.shape[i] < 0 ? std::string("?") : std::to_string(info.shape[i]));
    bound += (i ? "," : "") + std::to_string(info.max_shape[i]);
  }
  return s + "]" + (dynamic ? bound + "]" : "");
}

namespace {
/// Element `i` of an array of T (unaligned, little-endian as stored).
template <typename T> T elementAt(const unsigned char *p, size_t i) {
  T v;
  std::memcpy(&v, p + sizeof(T) * i, sizeof(T));
  return v;
}
} // namespace

std::string formatElement(dlc_dtype_t dtype, const void *data, size_t i) {
  const auto *p = static_cast<const unsigned char *>(data);
  auto fmt = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  switch (dtype) {
  case DLC_DTYPE_F32: return fmt(elementAt<float>(p, i));
  case DLC_DTYPE_F64: return fmt(elementAt<double>(p, i));
  case DLC_DTYPE_F16: return fmt(rt::f16BitsToDouble(elementAt<uint16_t>(p, i)));
  case DLC_DTYPE_BF16: return fmt(rt::bf16BitsToDouble(elementAt<uint16_t>(p, i)));
  case DLC_DTYPE_I1: return p[i] ? "1" : "0";
  case DLC_DTYPE_I8: return std::to_string(elementAt<int8_t>(p, i));
  case DLC_DTYPE_U8: return std::to_string(elementAt<uint8_t>(p, i));
  case DLC_DTYPE_I16: return std::to_string(elementAt<int16_t>(p, i));
  case DLC_DTYPE_U16: return std::to_string(elementAt<uint16_t>(p, i));
  case DLC_DTYPE_I32: return std::to_string(elementAt<int32_t>(p, i));
  case DLC_DTYPE_U32: return std::to_string(elementAt<uint32_t>(p, i));
  case DLC_DTYPE_I64: return std::to_string(elementAt<int64_t>(p, i));
  case DLC_DTYPE_U64: return std::to_string(elementAt<uint64_t>(p, i));
  }
  return "?";
}

bool parseInt(const std::string &text, int64_t &out) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

std::string fileNameFor(const std::string &name, size_t index) {
  std::string s = name.empty() ? "output_" + std::to_string(index) : name;
  for (char &c : s)
    if (c == '/' || c == ':' || c == '\\')
      c = '_';
  if (s == "." || s == "..")
    s = "_" + s;
  return s;
}

} // namespace dlc::tools
