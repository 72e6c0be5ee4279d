//===- CudaDriver.cpp - dlopen libcuda, resolve the table -----------------===//

#include "CudaDriver.h"
#include "Error.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace dlc::rt::cuda {

namespace {
using GetProcAddress = CUresult (*)(const char *symbol, void **fn,
                                    int version, unsigned long long flags,
                                    int *status);

/// Fills `d` or returns why not. The library stays loaded for the process:
/// the driver is process-wide state anyway.
std::string load(Driver &d) {
  const char *env = std::getenv("DLC_CUDA_DRIVER");
  d.path = env && *env ? env : "libcuda.so.1";
  void *lib = ::dlopen(d.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = ::dlerror();
    return "no CUDA driver: cannot load " + d.path + " (" +
           (e ? e : "unknown error") + ")";
  }
  auto getProc = reinterpret_cast<GetProcAddress>(
      ::dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc)
    return "the CUDA driver " + d.path +
           " has no cuGetProcAddress_v2 (a driver for CUDA 12.0 or newer is "
           "needed)";
#define DLC_CUDA_SYMBOL(name, params)                                         \
  {                                                                            \
    void *fn = nullptr;                                                        \
    int found = 0;                                                             \
    CUresult r = getProc(#name, &fn, kApiVersion, 0, &found);                  \
    if (r != CUDA_SUCCESS || !fn)                                              \
      return "the CUDA driver " + d.path + " does not provide " #name          \
             " for API version 12.0 (cuGetProcAddress returned " +             \
             std::to_string(r) + ")";                                          \
    d.name = reinterpret_cast<decltype(d.name)>(fn);                           \
  }
#include "CudaSymbols.def"
  CUresult r = d.cuInit(0);
  if (r != CUDA_SUCCESS) {
    const char *name = "?";
    d.cuGetErrorName(r, &name);
    return "the CUDA driver " + d.path + " failed to initialise: cuInit: " +
           (name ? name : "?");
  }
  if (d.cuDriverGetVersion(&d.version) != CUDA_SUCCESS || d.version < 12000)
    return "the CUDA driver " + d.path + " supports CUDA " +
           std::to_string(d.version / 1000) + "." +
           std::to_string(d.version % 1000 / 10) + "; 12.0 or newer is needed";
  if (d.cuDeviceGetCount(&d.deviceCount) != CUDA_SUCCESS)
    d.deviceCount = 0;
  return "";
}
} // namespace

dlc_status_t Driver::check(CUresult result, const char *call,
                           const std::string &what) const {
  if (result == CUDA_SUCCESS)
    return nullptr;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  constexpr CUresult kOutOfMemory = 2; // CUDA_ERROR_OUT_OF_MEMORY
  Error e(result == kOutOfMemory ? DLC_STATUS_OUT_OF_MEMORY
                                 : DLC_STATUS_INTERNAL);
  if (!what.empty())
    e << what << ": ";
  e << call << " failed: " << (name ? name : "CUDA error")
    << " (" << (text ? text : std::to_string(result).c_str()) << ")";
  return e;
}

const Driver *driver(std::string &why) {
  static Driver d;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] { error = load(d); });
  why = error;
  return error.empty() ? &d : nullptr;
}

} // namespace dlc::rt::cuda
