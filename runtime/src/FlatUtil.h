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

} // namespace dlc::rt

#endif // DLC_RUNTIME_FLATUTIL_H
