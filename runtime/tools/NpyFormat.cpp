//===- NpyFormat.cpp - .npy header parsing and encoding -------------------===//

#include "NpyFormat.h"

#include <cctype>
#include <fstream>
#include <iterator>
#include <limits>

namespace dlc::npy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

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
/// values -- what numpy writes. Errors are "" on success.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : s(text) {}

  std::string parse(Header &h) {
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
          return "unsupported dtype descr (only simple little-endian types "
                 "are supported)";
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(h.fortranOrder))
          return err("expected True or False for fortran_order");
        haveOrder = true;
      } else if (key == "shape") {
        if (std::string e = parseShape(h.shape); !e.empty())
          return e;
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
      return "header lacks one of 'descr', 'fortran_order', 'shape'";
    return "";
  }

private:
  std::string err(const std::string &what) const {
    return "malformed header: " + what + " at offset " + std::to_string(pos);
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
  std::string parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return err("expected '(' for shape");
    while (true) {
      skipSpace();
      if (consume(')'))
        return "";
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
        return "";
      return err("expected ',' or ')' in shape");
    }
  }

  std::string_view s;
  size_t pos = 0;
};

} // namespace

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > std::numeric_limits<int64_t>::max() / d))
      return -1;
    n *= d;
  }
  return n;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

bool parse(std::string_view bytes, const std::string &name,
           const std::vector<Descr> &accepted, Array &out,
           std::string &error) {
  auto fail = [&](const std::string &problem) {
    error = "npy file '" + name + "': " + problem;
    return false;
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
  if (std::string e = parser.parse(h); !e.empty())
    return fail(e);
  const Descr *type = nullptr;
  for (const Descr &d : accepted)
    if (h.descr == d.descr)
      type = &d;
  if (!type) {
    std::string list;
    for (size_t i = 0; i < accepted.size(); ++i)
      list += std::string(i == 0 ? "" : i + 1 == accepted.size() ? " or " : ", ") +
              accepted[i].descr;
    return fail("unsupported dtype '" + h.descr + "' (expected " + list + ")");
  }
  if (h.fortranOrder)
    return fail("fortran_order arrays are not supported (C order only)");
  int64_t n = numElements(h.shape);
  size_t dataLen = bytes.size() - prefix - headerLen;
  if (n < 0)
    return fail("shape " + shapeString(h.shape) + " has too many elements");
  if (static_cast<uint64_t>(n) > dataLen / type->itemSize)
    return fail("truncated data: shape " + shapeString(h.shape) + " needs " +
                std::to_string(n) + " elements of " +
                std::to_string(type->itemSize) + " bytes, got " +
                std::to_string(dataLen) + " data bytes");
  size_t need = static_cast<size_t>(n) * type->itemSize;
  if (dataLen > need)
    return fail("element count mismatch: shape " + shapeString(h.shape) +
                " has " + std::to_string(n) + " elements (" +
                std::to_string(need) + " bytes) but the file holds " +
                std::to_string(dataLen) + " data bytes");
  out.descr = h.descr;
  out.itemSize = type->itemSize;
  out.shape = std::move(h.shape);
  out.data = bytes.substr(prefix + headerLen, need);
  return true;
}

std::string encode(const std::string &descr, const std::vector<int64_t> &shape,
                   std::string_view data) {
  std::string dims = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    dims += ","; // Python's 1-tuple.
  dims += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + dims + ", }";
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
  out.reserve(out.size() + header.size() + data.size());
  out += header;
  out += data;
  return out;
}

bool readFile(const std::string &path, std::string &bytes,
              std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "npy file '" + path + "': cannot open file";
    return false;
  }
  bytes.assign((std::istreambuf_iterator<char>(in)),
               std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = "npy file '" + path + "': read error";
    return false;
  }
  return true;
}

bool writeFile(const std::string &path, std::string_view bytes,
               std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "npy file '" + path + "': cannot open for writing";
    return false;
  }
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    error = "npy file '" + path + "': write failed";
    return false;
  }
  return true;
}

} // namespace dlc::npy
