//===- Error.h - building dlc_status_t values -----------------------------===//
//
// Internal helpers: `return Error(DLC_STATUS_DATA_LOSS) << "artifact '" <<
// name << "': ...";` and DLC_RETURN_IF_ERROR. A null dlc_status_t is success.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_ERROR_H
#define DLC_RUNTIME_ERROR_H

#include "dlc/runtime.h"

#include <new>
#include <sstream>
#include <string>

namespace dlc::rt {

class Error {
public:
  explicit Error(dlc_status_code_t code) : code(code) {}
  template <typename T> Error &operator<<(const T &value) {
    os << value;
    return *this;
  }
  operator dlc_status_t() const {
    return dlc_status_create(code, os.str().c_str());
  }

private:
  dlc_status_code_t code;
  std::ostringstream os;
};

/// Runs `body` (returning dlc_status_t) and turns escaping C++ exceptions
/// into statuses: the C API never lets one cross it.
template <typename Fn> dlc_status_t guard(Fn &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return dlc_status_create(DLC_STATUS_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception &e) {
    return Error(DLC_STATUS_INTERNAL) << "internal error: " << e.what();
  } catch (...) {
    return dlc_status_create(DLC_STATUS_INTERNAL, "internal error");
  }
}

} // namespace dlc::rt

#define DLC_RETURN_IF_ERROR(expr)                                              \
  do {                                                                         \
    if (dlc_status_t dlcStatus_ = (expr))                                      \
      return dlcStatus_;                                                       \
  } while (false)

#endif // DLC_RUNTIME_ERROR_H
