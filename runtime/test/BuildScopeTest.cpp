// The runtime is built in its own CMake scope: LLVM's flags must not reach it.
// These checks fail the build (not just a test) when they leak.
#if !defined(__cpp_exceptions) && !defined(__EXCEPTIONS)
#error "-fno-exceptions from LLVM's HandleLLVMOptions leaked into runtime/"
#endif
#if !defined(__GXX_RTTI)
#error "-fno-rtti from the compiler's scope leaked into runtime/"
#endif
#if __has_include("llvm/Config/llvm-config.h")
#error "LLVM's include path leaked into runtime/"
#endif

#include <gtest/gtest.h>

TEST(BuildScope, RuntimeIsBuiltWithoutLLVMFlags) { SUCCEED(); }
