//===- Npy.cpp - NumPy .npy reading and writing ---------------------------===//

#include "Interpreter/Npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace dlc::ref {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

struct NpyDType {
  const char *descr;
  DType dtype;
  size_t itemSize;
};

// Read mapping; the first entry for a DType is also what it is written as
// (bf16 is written as <f4 separately).
constexpr NpyDType kNpyDTypes[] = {
    {"<f4", DType::F32, 4}, {"<f2", DType::F16, 2}, {"<i4", DType::I32, 4},
    {"<i8", DType::I64, 8}, {"|b1", DType::I1, 1},  {"<f8", DType::F32, 8},
    {"|u1", DType::I1, 1},
};

uint64_t loadLE(const unsigned char *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

void storeLE(std::string &out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// The header fields we need, parsed from its Python dict literal.
struct Header {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Minimal parser for {'key': value, ...} with string, bool and int-tuple
/// values -- what numpy writes.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : s(text) {}

  Status parse(Header &h) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return err("expected '{'");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return err("expected a quoted key");
      skipSpace();
      if (!consume(':'))
        return err("expected ':' after key '" + key + "'");
      skipSpace();
      if (key == "descr") {
        if (!parseString(h.descr))
          return Status::error("unsupported dtype descr (only simple "
                               "little-endian types are supported)");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(h.fortranOrder))
          return err("expected True or False for fortran_order");
        haveOrder = true;
      } else if (key == "shape") {
        if (Status st = parseShape(h.shape); !st.ok())
          return st;
        haveShape = true;
      } else {
        return err("unexpected key '" + key + "'");
      }
      skipSpace();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return err("expected ',' or '}'");
    }
    if (!haveDescr || !haveOrder || !haveShape)
      return Status::error("header lacks one of 'descr', 'fortran_order', "
                           "'shape'");
    return Status::success();
  }

private:
  Status err(const std::string &what) const {
    return Status::error("malformed header: " + what + " at offset " +
                         std::to_string(pos));
  }
  void skipSpace() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
      ++pos;
  }
  bool consume(char c) {
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeWord(std::string_view w) {
    if (s.substr(pos, w.size()) != w)
      return false;
    pos += w.size();
    return true;
  }
  bool parseString(std::string &out) {
    if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"'))
      return false;
    char quote = s[pos++];
    size_t end = s.find(quote, pos);
    if (end == std::string_view::npos)
      return false;
    out = std::string(s.substr(pos, end - pos));
    pos = end + 1;
    return true;
  }
  bool parseBool(bool &out) {
    if (consumeWord("True"))
      return out = true, true;
    if (consumeWord("False"))
      return out = false, true;
    return false;
  }
  Status parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return err("expected '(' for shape");
    while (true) {
      skipSpace();
      if (consume(')'))
        return Status::success();
      if (pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[pos])))
        return err("expected a non-negative integer dim");
      int64_t v = 0;
      while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
        int d = s[pos++] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - d) / 10)
          return err("dim too large");
        v = v * 10 + d;
      }
      consume('L'); // Python 2 longs.
      shape.push_back(v);
      skipSpace();
      if (consume(','))
        continue;
      if (consume(')'))
        return Status::success();
      return err("expected ',' or ')' in shape");
    }
  }

  std::string_view s;
  size_t pos = 0;
};

/// Decodes one element stored with `descr` into a double of the tensor dtype.
double decodeElement(const NpyDType &t, const unsigned char *p) {
  uint64_t bits = loadLE(p, t.itemSize);
  std::string_view d = t.descr;
  if (d == "<f4") {
    float f;
    auto b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  if (d == "<f8") {
    double f;
    std::memcpy(&f, &bits, 8);
    return roundTo(DType::F32, f);
  }
  if (d == "<f2")
    return fromF16Bits(static_cast<uint16_t>(bits));
  if (d == "<i4")
    return static_cast<int32_t>(static_cast<uint32_t>(bits));
  if (d == "<i8")
    return static_cast<double>(static_cast<int64_t>(bits));
  return bits != 0 ? 1.0 : 0.0; // |b1, |u1
}

} // namespace

Expected<Tensor> parseNpy(std::string_view bytes, const std::string &name) {
  auto fail = [&](const std::string &problem) {
    return Status::error("npy file '" + name + "': " + problem);
  };
  const auto *u = reinterpret_cast<const unsigned char *>(bytes.data());
  if (bytes.size() < kMagicLen + 2 || bytes.substr(0, kMagicLen) != kMagic)
    return fail("bad magic (not a .npy file)");
  unsigned major = u[6], minor = u[7];
  size_t lenBytes;
  if (major == 1)
    lenBytes = 2;
  else if (major == 2 || major == 3)
    lenBytes = 4;
  else
    return fail("unsupported format version " + std::to_string(major) + "." +
                std::to_string(minor));
  size_t prefix = kMagicLen + 2 + lenBytes;
  if (bytes.size() < prefix)
    return fail("truncated header");
  uint64_t headerLen = loadLE(u + kMagicLen + 2, lenBytes);
  if (headerLen > bytes.size() - prefix)
    return fail("truncated header: header length " + std::to_string(headerLen) +
                " exceeds the file");
  Header h;
  HeaderParser parser(bytes.substr(prefix, headerLen));
  if (Status s = parser.parse(h); !s.ok())
    return fail(s.message());
  const NpyDType *type = nullptr;
  for (const NpyDType &t : kNpyDTypes)
    if (h.descr == t.descr)
      type = &t;
  if (!type)
    return fail("unsupported dtype '" + h.descr +
                "' (expected <f4, <f2, <f8, <i4, <i8, |b1 or |u1)");
  if (h.fortranOrder)
    return fail("fortran_order arrays are not supported (C order only)");
  int64_t n = shapeNumElements(h.shape);
  size_t dataLen = bytes.size() - prefix - headerLen;
  if (n < 0)
    return fail("shape " + shapeToString(h.shape) + " has too many elements");
  if (static_cast<uint64_t>(n) > dataLen / type->itemSize)
    return fail("truncated data: shape " + shapeToString(h.shape) + " needs " +
                std::to_string(n) + " elements of " +
                std::to_string(type->itemSize) + " bytes, got " +
                std::to_string(dataLen) + " data bytes");
  size_t need = static_cast<size_t>(n) * type->itemSize;
  if (dataLen > need)
    return fail("element count mismatch: shape " + shapeToString(h.shape) +
                " has " + std::to_string(n) + " elements (" +
                std::to_string(need) + " bytes) but the file holds " +
                std::to_string(dataLen) + " data bytes");
  Tensor t = Tensor::zeros(type->dtype, h.shape);
  const unsigned char *p = u + prefix + headerLen;
  for (int64_t i = 0; i < n; ++i, p += type->itemSize)
    t.data[i] = decodeElement(*type, p);
  return t;
}

Expected<std::string> encodeNpy(const Tensor &tensor) {
  if (Status s = tensor.validate(); !s.ok())
    return Status::error("npy: cannot encode: " + s.message());
  DType storeAs = tensor.dtype == DType::BF16 ? DType::F32 : tensor.dtype;
  const NpyDType *type = nullptr;
  for (const NpyDType &t : kNpyDTypes)
    if (!type && t.dtype == storeAs)
      type = &t;
  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  if (tensor.shape.size() == 1)
    shape += ","; // Python's 1-tuple.
  shape += ")";
  std::string header = std::string("{'descr': '") + type->descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a final newline so the data starts 64-byte aligned.
  bool v2 = header.size() + 1 + 10 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header.push_back('\n');

  std::string out(kMagic, kMagicLen);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  storeLE(out, header.size(), v2 ? 4 : 2);
  out += header;
  out.reserve(out.size() + tensor.data.size() * type->itemSize);
  for (double v : tensor.data) {
    double r = roundTo(storeAs, v); // Keeps the integer casts below defined.
    switch (storeAs) {
    case DType::F32: {
      float f = static_cast<float>(r);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      storeLE(out, b, 4);
      break;
    }
    case DType::F16:
      storeLE(out, toF16Bits(r), 2);
      break;
    case DType::I32:
      storeLE(out, static_cast<uint32_t>(static_cast<int32_t>(r)), 4);
      break;
    case DType::I64: // r may be 2^63 after rounding to double: clamp.
      storeLE(out,
              static_cast<uint64_t>(
                  r >= 9223372036854775808.0
                      ? std::numeric_limits<int64_t>::max()
                      : static_cast<int64_t>(r)),
              8);
      break;
    default: // I1
      out.push_back(r != 0.0 ? 1 : 0);
      break;
    }
  }
  return out;
}

Expected<Tensor> readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("npy file '" + path + "': cannot open file");
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  if (in.bad())
    return Status::error("npy file '" + path + "': read error");
  return parseNpy(bytes, path);
}

Status writeNpy(const std::string &path, const Tensor &tensor) {
  auto bytes = encodeNpy(tensor);
  if (!bytes.ok())
    return Status::error("npy file '" + path + "': " + bytes.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return Status::error("npy file '" + path + "': cannot open for writing");
  out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out)
    return Status::error("npy file '" + path + "': write failed");
  return Status::success();
}

} // namespace dlc::ref
