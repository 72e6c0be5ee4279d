//===- FlatUtil.h - null-safe access to optional FlatBuffer fields --------===//

#ifndef DLC_RUNTIME_FLATUTIL_H
#define DLC_RUNTIME_FLATUTIL_H

#include <flatbuffers/flatbuffers.h>
#include <string>

namespace dlc::rt {

/// Absent vectors are empty.
template <typename T> uint32_t count(const flatbuffers::Vector<T> *v) {
  return v ? v->size() : 0;
}
/// Absent strings are "".
inline std::string str(const flatbuffers::String *s) {
  return s ? s->str() : std::string();
}

/// The dim of a batched shape that carries the symbol (format 0.9: the
/// first -1; every dim before it is 1), 0 when none is -1.
template <typename Shape> size_t symbolDimOf(const Shape &shape, size_t rank) {
  for (size_t d = 0; d < rank; ++d)
    if (shape[d] == -1)
      return d;
  return 0;
}

} // namespace dlc::rt

#endif // DLC_RUNTIME_FLATUTIL_H
