//===- CudaDriver.h - the CUDA driver API, loaded at run time -------------===//
//
// The runtime never links libcuda and needs no CUDA header: the few driver
// types are declared here (ABI-identical to cuda.h's; CudaTypesTest checks
// them against cuda.h where it is installed), libcuda.so.1 is opened with
// dlopen (or the library named by DLC_CUDA_DRIVER, which is how the tests
// load a fake driver), cuGetProcAddress_v2 is the one symbol taken with
// dlsym, and every entry point of CudaSymbols.def is resolved through it for
// API version 12.0. Without a driver, or with one older than 12.0, every
// caller gets the same UNAVAILABLE status saying why.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_CUDA_CUDADRIVER_H
#define DLC_RUNTIME_CUDA_CUDADRIVER_H

#include "dlc/runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlc::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;

// The values of cuda.h's enums that the runtime uses.
enum : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
  CU_EVENT_DISABLE_TIMING = 2,
  kMemHostAllocPortable = 1, // CU_MEMHOSTALLOC_PORTABLE (a macro in cuda.h)
};

/// The API version every entry point is resolved for.
constexpr int kApiVersion = 12000;

/// The resolved driver. Loaded once per process; immutable after.
struct Driver {
#define DLC_CUDA_SYMBOL(name, params) CUresult(*name) params = nullptr;
#include "CudaSymbols.def"
  int version = 0;     // cuDriverGetVersion, e.g. 12040
  int deviceCount = 0; // cuDeviceGetCount
  std::string path;    // What was dlopen'ed.

  /// "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
  /// prefixed with `what` when not empty; null for CUDA_SUCCESS.
  dlc_status_t check(CUresult result, const char *call,
                     const std::string &what = "") const;
};

/// The process's driver: loads it on first use (thread-safe). On failure
/// sets `why` to an UNAVAILABLE-worthy sentence and returns null.
const Driver *driver(std::string &why);

} // namespace dlc::rt::cuda

#endif // DLC_RUNTIME_CUDA_CUDADRIVER_H
