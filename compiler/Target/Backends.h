//===- Backends.h - registering the built-in target backends --------------===//
//
// The backends behind passes/TargetBackend.h that ship with dlc: the CPU
// (CPU/CpuBackend.cpp) and CUDA (CUDA/CudaBackend.cpp). Every tool that
// builds a context for dlc IR registers them (registerAllDlcDialects does);
// a test adds its own with registerTargetBackend.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_BACKENDS_H
#define DLC_COMPILER_TARGET_BACKENDS_H

namespace dlc {

void registerCpuTargetBackend();
void registerCudaTargetBackend();

/// cpu and cuda; idempotent.
inline void registerBuiltinTargetBackends() {
  registerCpuTargetBackend();
  registerCudaTargetBackend();
}

} // namespace dlc

#endif // DLC_COMPILER_TARGET_BACKENDS_H
