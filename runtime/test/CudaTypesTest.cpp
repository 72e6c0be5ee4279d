//===- CudaTypesTest.cpp - the runtime's driver types against cuda.h ------===//
//
// The runtime declares the few CUDA driver types and constants it needs
// (cuda/CudaDriver.h) instead of including cuda.h. Where cuda.h is installed
// (DLC_HAVE_CUDA_H), the declarations are checked against it at compile
// time: same sizes, same values, same function types for every entry of
// CudaSymbols.def.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDriver.h"

#include <gtest/gtest.h>
#include <type_traits>

#ifdef DLC_HAVE_CUDA_H
#include <cuda.h>

namespace rc = dlc::rt::cuda;

static_assert(sizeof(rc::CUresult) == sizeof(::CUresult), "CUresult");
static_assert(sizeof(rc::CUdevice) == sizeof(::CUdevice), "CUdevice");
static_assert(std::is_same_v<rc::CUdeviceptr, ::CUdeviceptr>, "CUdeviceptr");
static_assert(int(rc::CUDA_SUCCESS) == int(::CUDA_SUCCESS));
static_assert(int(rc::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) == int(::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED));
static_assert(int(rc::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) == int(::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
static_assert(int(rc::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) == int(::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
static_assert(int(rc::CU_JIT_INFO_LOG_BUFFER) == int(::CU_JIT_INFO_LOG_BUFFER));
static_assert(int(rc::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES) == int(::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES));
static_assert(int(rc::CU_JIT_ERROR_LOG_BUFFER) == int(::CU_JIT_ERROR_LOG_BUFFER));
static_assert(int(rc::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) == int(::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES));
static_assert(int(rc::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == int(::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
static_assert(int(rc::CU_STREAM_NON_BLOCKING) == int(::CU_STREAM_NON_BLOCKING));
static_assert(int(rc::CU_EVENT_DISABLE_TIMING) == int(::CU_EVENT_DISABLE_TIMING));
static_assert(int(rc::kMemHostAllocPortable) == CU_MEMHOSTALLOC_PORTABLE);
static_assert(rc::kApiVersion <= CUDA_VERSION);

// Every entry point: our parameter list, with cuda.h's types swapped in,
// must be cuda.h's (the macros name the versioned symbols, e.g. cuMemAlloc
// -> cuMemAlloc_v2, which is what cuGetProcAddress returns for 12.0).
namespace swap {
using CUresult = ::CUresult;
using CUdevice = ::CUdevice;
using CUdeviceptr = ::CUdeviceptr;
using CUcontext = ::CUcontext;
using CUstream = ::CUstream;
using CUevent = ::CUevent;
using CUmodule = ::CUmodule;
using CUfunction = ::CUfunction;
// Enum parameters are declared int in CudaSymbols.def.
template <typename Ours, typename Theirs> struct SameParams;
template <typename... A, typename... B>
struct SameParams<::CUresult (*)(A...), ::CUresult (*)(B...)> {
  static constexpr bool value =
      sizeof...(A) == sizeof...(B) &&
      ((sizeof(A) == sizeof(B) &&
        (std::is_same_v<A, B> || std::is_enum_v<std::remove_pointer_t<B>> ||
         std::is_same_v<A, void (*)(void *)>)) && ...);
};
#define DLC_CUDA_SYMBOL(name, params)                                          \
  static_assert(SameParams<::CUresult(*) params, decltype(&::name)>::value,    \
                #name);
#include "cuda/CudaSymbols.def"
} // namespace swap

TEST(CudaTypes, MatchCudaH) { SUCCEED() << "checked at compile time"; }
#else
TEST(CudaTypes, MatchCudaH) { GTEST_SKIP() << "cuda.h not installed here"; }
#endif
