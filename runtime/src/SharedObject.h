//===- SharedObject.h - dlopen an ELF shared object held in memory --------===//
//
// The bytes go into a memfd and are opened as /proc/self/fd/N: no file is
// ever written to disk. The memfd stays open until the library is unloaded:
// were it closed, the number N could be reused for the next library, whose
// path would then be the same string, and glibc would hand back the first
// library's handle. A library that dlclose does not unload (one with GNU
// unique symbols, as C++ inline statics make) keeps its memfd for the rest
// of the process.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_SHAREDOBJECT_H
#define DLC_RUNTIME_SHAREDOBJECT_H

#include "dlc/runtime.h"

#include <memory>
#include <string>

namespace dlc::rt {

class SharedObject {
public:
  /// Loads `size` bytes as a shared object (RTLD_NOW | RTLD_LOCAL); `label`
  /// names it in errors, e.g. "artifact 'm.dlcm': library 0".
  static dlc_status_t load(const void *data, size_t size,
                           const std::string &label,
                           std::unique_ptr<SharedObject> &out);
  ~SharedObject();
  SharedObject(const SharedObject &) = delete;
  SharedObject &operator=(const SharedObject &) = delete;

  /// The address of `symbol`, or an error carrying dlerror().
  dlc_status_t lookup(const std::string &symbol, void *&out) const;
  /// The address of an optional `symbol`, or null.
  void *find(const std::string &symbol) const;

private:
  SharedObject(std::string label) : label(std::move(label)) {}
  std::string label;
  int fd = -1;
  void *handle = nullptr;
};

} // namespace dlc::rt

#endif // DLC_RUNTIME_SHAREDOBJECT_H
