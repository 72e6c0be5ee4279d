//===- NpyFormat.h - NumPy .npy files as raw bytes ------------------------===//
//
// The one .npy reader/writer of dlc: the runtime's tools use it on raw
// element bytes, the compiler's reference interpreter converts those bytes
// to and from its double tensors (compiler/Interpreter/Npy.cpp).
//
// Reads format versions 1.0, 2.0 and 3.0, writes 1.0 (2.0 when the header
// does not fit) with the data 64-byte aligned. C order only; the caller says
// which descrs ("<f4", "|b1", ...) it accepts. Every error message starts
// with "npy file 'NAME': "; malformed input never crashes.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TOOLS_NPYFORMAT_H
#define DLC_RUNTIME_TOOLS_NPYFORMAT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlc::npy {

struct Descr {
  const char *descr; // e.g. "<f4"
  size_t itemSize;
};

struct Array {
  std::string descr;
  size_t itemSize = 0;
  std::vector<int64_t> shape;
  std::string_view data; // The elements, inside the parsed bytes.
};

/// Parses a whole .npy file held in `bytes`; `name` labels errors. Returns
/// false and sets `error` on failure.
bool parse(std::string_view bytes, const std::string &name,
           const std::vector<Descr> &accepted, Array &out, std::string &error);

/// A .npy file holding `data` (already in `descr`'s little-endian layout).
std::string encode(const std::string &descr, const std::vector<int64_t> &shape,
                   std::string_view data);

/// Whole-file I/O with messages "npy file 'PATH': cannot open file", ...
bool readFile(const std::string &path, std::string &bytes, std::string &error);
bool writeFile(const std::string &path, std::string_view bytes,
               std::string &error);

/// "[2,3,4]"; "[]" for rank 0.
std::string shapeString(const std::vector<int64_t> &shape);
/// Product of dims; -1 when a dim is negative or the product overflows.
int64_t numElements(const std::vector<int64_t> &shape);

} // namespace dlc::npy

#endif // DLC_RUNTIME_TOOLS_NPYFORMAT_H
