//===- SharedObject.cpp - memfd_create + dlopen ---------------------------===//

#include "SharedObject.h"
#include "Error.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace dlc::rt {

dlc_status_t SharedObject::load(const void *data, size_t size,
                                const std::string &label,
                                std::unique_ptr<SharedObject> &out) {
  std::unique_ptr<SharedObject> so(new SharedObject(label));
  so->fd = ::memfd_create("dlc-library", MFD_CLOEXEC);
  if (so->fd < 0)
    return Error(DLC_STATUS_UNAVAILABLE)
           << label << ": memfd_create failed: " << std::strerror(errno);
  const char *p = static_cast<const char *>(data);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(so->fd, p + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return Error(DLC_STATUS_UNAVAILABLE)
             << label << ": cannot write the shared object to a memfd: "
             << std::strerror(errno);
    done += static_cast<size_t>(n);
  }
  std::string path = "/proc/self/fd/" + std::to_string(so->fd);
  so->handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!so->handle) {
    const char *why = ::dlerror();
    return Error(DLC_STATUS_DATA_LOSS)
           << label << ": dlopen failed: " << (why ? why : "unknown error");
  }
  out = std::move(so);
  return nullptr;
}

SharedObject::~SharedObject() {
  bool unloaded = true;
  if (handle) {
    ::dlclose(handle);
    // A library with GNU unique symbols (C++ inline statics: the emulated
    // GPU code's) stays loaded after dlclose: its memfd stays open too.
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (void *still = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
      ::dlclose(still);
      unloaded = false;
    }
  }
  if (fd >= 0 && unloaded)
    ::close(fd); // Only once unloaded: see the header.
}

dlc_status_t SharedObject::lookup(const std::string &symbol,
                                  void *&out) const {
  ::dlerror(); // Clear a stale error.
  out = ::dlsym(handle, symbol.c_str());
  if (!out) {
    const char *why = ::dlerror();
    return Error(DLC_STATUS_NOT_FOUND)
           << label << ": symbol '" << symbol
           << "' not found: " << (why ? why : "it resolves to null");
  }
  return nullptr;
}

void *SharedObject::find(const std::string &symbol) const {
  ::dlerror();
  void *address = ::dlsym(handle, symbol.c_str());
  ::dlerror(); // Absent is not an error: leave no stale message.
  return address;
}

} // namespace dlc::rt
