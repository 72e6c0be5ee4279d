//===- CudaDevice.h - logical GPUs bound to real ones ---------------------===//
//
// What a session keeps per logical cuda:N bound to a physical GPU (Device):
// the physical device's primary context, a stream that runs the device's
// step list, a transfer stream for copies that other (host) streams issue,
// the CUDA modules its kernels need (the CUBIN of its compute capability,
// else the PTX, JIT-compiled), and its constants uploaded once. Per run slot
// (SlotMemory): one cuMemAlloc arena per GPU, one CUevent per event a GPU
// records, and pinned staging buffers for host<->device copies.
//
// Several logical GPUs may share one physical GPU (a remap): each has its
// own stream and arena, so cross-device copies and events behave as between
// two GPUs (copies become device-to-device).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_CUDA_CUDADEVICE_H
#define DLC_RUNTIME_CUDA_CUDADEVICE_H

#include "../Artifact.h"
#include "CudaDriver.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlc::rt::cuda {

struct Device {
  const Driver *drv = nullptr;
  std::string label;   // "cuda:1 (GPU 0, NVIDIA H200, sm_90)"
  int ordinal = 0;     // The physical GPU.
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  int ccMajor = 0, ccMinor = 0;
  CUstream stream = nullptr, transfer = nullptr;
  std::vector<CUmodule> modules;     // By Model.cuda_modules index.
  std::vector<CUfunction> functions; // By kernel index.
  CUdeviceptr constants = 0;         // One block for all its constants.
  CUevent stepStart = nullptr, stepEnd = nullptr; // Profiling; made on first use.

  Device() = default;
  Device(const Device &) = delete;
  ~Device();

  /// Retains the primary context of GPU `ordinal`, creates the streams.
  dlc_status_t open(const Driver &driver, const std::string &logical,
                    int ordinal);
  /// Makes this device's context current on the calling thread.
  dlc_status_t use() const;
  /// Loads (once) the module and resolves the function of kernel `k`.
  dlc_status_t loadKernel(const Artifact &a, uint32_t k);
  /// Synchronous transfers and fills (inputs, outputs, fresh arenas), made
  /// while no run is in flight.
  dlc_status_t upload(CUdeviceptr dst, const void *src, size_t bytes) const;
  dlc_status_t download(void *dst, CUdeviceptr src, size_t bytes) const;
  dlc_status_t fill(CUdeviceptr dst, uint8_t value, size_t bytes) const;
  /// Issues `work` to `stream` between two timing events and waits for it:
  /// `ns` is the GPU's time for it. Host clocks around a launch and a
  /// synchronisation would add both (about 20 us on a virtual machine).
  dlc_status_t timeOnStream(const std::function<dlc_status_t()> &work, uint64_t &ns);
  /// Uploads `bytes` of constants laid out by the caller; sets `constants`.
  dlc_status_t uploadConstants(const std::vector<uint8_t> &bytes);
};

/// Turns peer access on between every two distinct physical GPUs of
/// `devices` that support it (copies work without it, through the host).
dlc_status_t enablePeerAccess(const std::vector<Device *> &devices);

/// One run slot's GPU memory and events.
struct SlotMemory {
  const Driver *drv = nullptr;
  CUcontext ctx = nullptr; // A context to free events and pinned memory in.
  struct Block {
    CUcontext ctx;
    CUdeviceptr ptr;
  };
  std::vector<Block> arenas;   // cuMemAlloc'ed
  std::vector<CUevent> events; // By event; null: not recorded by a GPU.
  std::vector<void *> pinned;  // cuMemHostAlloc'ed staging buffers
  SlotMemory() = default;
  SlotMemory(const SlotMemory &) = delete;
  ~SlotMemory();
  /// A poisoned (0xFF) arena of `bytes` on `device`; 0 bytes: address 0.
  dlc_status_t allocateArena(Device &device, size_t bytes, CUdeviceptr &out);
  dlc_status_t allocatePinned(Device &device, size_t bytes, void *&out);
  dlc_status_t createEvent(Device &device, CUevent &out);
};

/// A step of a real GPU, or a copy touching one, resolved once.
struct CudaOp {
  enum Kind : uint8_t { Launch, HostToDevice, DeviceToHost, DeviceToDevice };
  Kind kind = Launch;
  Device *stream = nullptr;   // Whose stream runs it; null: a host stream
                              // (the copy goes through `via`'s transfer stream
                              // and completes before the step ends).
  Device *via = nullptr;      // The GPU end of a host<->device copy.
  Device *src = nullptr, *dst = nullptr; // DeviceToDevice.
  // Launch.
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared = 0;
  std::vector<CUdeviceptr> args;
  std::vector<void *> params; // &args[i]: the driver's kernelParams.
  // Copies.
  CUdeviceptr devSrc = 0, devDst = 0;
  void *host = nullptr;       // The host end (a CPU or simulated-GPU arena).
  void *staging = nullptr;    // Pinned, `bytes` long.
  size_t bytes = 0;
};

/// Issues `op` (on its device's stream, or synchronously from a host
/// stream); `what` names the step in errors.
dlc_status_t issue(CudaOp &op, const std::string &what);

} // namespace dlc::rt::cuda

#endif // DLC_RUNTIME_CUDA_CUDADEVICE_H
