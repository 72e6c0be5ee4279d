//===- CudaDevice.cpp - contexts, modules, memory, launches, copies -------===//
//
// Every driver call goes through Driver::check, so a failure becomes a
// status naming the call and the device. Host<->device copies stage through
// pinned buffers: on a GPU's stream, host -> pinned and pinned -> host run
// as host functions in stream order (before the DMA, after it), so that the
// stream's event waits order them and an event recorded next covers them;
// from a host stream the copy goes
// through the GPU's transfer stream and is synchronised before the step
// ends, as any host step.
//
//===----------------------------------------------------------------------===//

#include "CudaDevice.h"
#include "../Error.h"
#include "../FlatUtil.h"

#include <cstring>

namespace dlc::rt::cuda {

#define DLC_CU(call, ...) drv->check(drv->call(__VA_ARGS__), #call, label)

Device::~Device() {
  if (!drv || !ctx)
    return;
  drv->cuCtxSetCurrent(ctx);
  for (CUmodule m : modules)
    if (m)
      drv->cuModuleUnload(m);
  if (constants)
    drv->cuMemFree(constants);
  for (CUevent e : {stepStart, stepEnd})
    if (e)
      drv->cuEventDestroy(e);
  if (stream)
    drv->cuStreamDestroy(stream);
  if (transfer)
    drv->cuStreamDestroy(transfer);
  drv->cuDevicePrimaryCtxRelease(dev);
}

dlc_status_t Device::open(const Driver &driver, const std::string &logical,
                          int physical) {
  drv = &driver;
  ordinal = physical;
  label = logical + " (GPU " + std::to_string(physical) + ")";
  DLC_RETURN_IF_ERROR(DLC_CU(cuDeviceGet, &dev, physical));
  char name[256] = {0};
  DLC_RETURN_IF_ERROR(DLC_CU(cuDeviceGetName, name, int(sizeof name) - 1, dev));
  DLC_RETURN_IF_ERROR(DLC_CU(cuDeviceGetAttribute, &ccMajor,
                             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  DLC_RETURN_IF_ERROR(DLC_CU(cuDeviceGetAttribute, &ccMinor,
                             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  label = logical + " (GPU " + std::to_string(physical) + ", " + name + ", sm_" +
          std::to_string(ccMajor) + std::to_string(ccMinor) + ")";
  DLC_RETURN_IF_ERROR(DLC_CU(cuDevicePrimaryCtxRetain, &ctx, dev));
  DLC_RETURN_IF_ERROR(use());
  DLC_RETURN_IF_ERROR(DLC_CU(cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING));
  return DLC_CU(cuStreamCreate, &transfer, CU_STREAM_NON_BLOCKING);
}

dlc_status_t Device::use() const { return DLC_CU(cuCtxSetCurrent, ctx); }

dlc_status_t Device::timeOnStream(const std::function<dlc_status_t()> &work, uint64_t &ns) {
  for (CUevent *e : {&stepStart, &stepEnd})
    if (!*e)
      DLC_RETURN_IF_ERROR(DLC_CU(cuEventCreate, e, CU_EVENT_DEFAULT));
  DLC_RETURN_IF_ERROR(DLC_CU(cuEventRecord, stepStart, stream));
  DLC_RETURN_IF_ERROR(work());
  DLC_RETURN_IF_ERROR(DLC_CU(cuEventRecord, stepEnd, stream));
  DLC_RETURN_IF_ERROR(DLC_CU(cuEventSynchronize, stepEnd));
  float ms = 0;
  DLC_RETURN_IF_ERROR(DLC_CU(cuEventElapsedTime, &ms, stepStart, stepEnd));
  ns = static_cast<uint64_t>(double(ms) * 1e6);
  return nullptr;
}

dlc_status_t Device::loadKernel(const Artifact &a, uint32_t k) {
  const fb::Model &m = a.model();
  const fb::Kernel &kernel = *m.kernels()->Get(k);
  std::string what = label + ": kernel " + std::to_string(k) + " ('" +
                     str(kernel.name()) + "')";
  if (!kernel.cuda())
    return Error(DLC_STATUS_UNAVAILABLE)
           << what << " has no CUDA code (the artifact was compiled without "
              "it); run it on simulated GPUs (dlc-run --gpu=sim)";
  modules.resize(count(m.cuda_modules()), nullptr);
  functions.resize(count(m.kernels()), nullptr);
  if (functions[k])
    return nullptr;
  uint32_t mi = kernel.cuda()->module_();
  DLC_RETURN_IF_ERROR(use());
  if (!modules[mi]) {
    const fb::CudaModule &mod = *m.cuda_modules()->Get(mi);
    std::string arch = "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
    int32_t segment = -1;
    std::string chosen;
    for (uint32_t c = 0; c < count(mod.cubins()); ++c) {
      std::string have = str(mod.cubins()->Get(c)->arch());
      if (have == arch || (have == arch + "a" && segment < 0)) {
        segment = int32_t(mod.cubins()->Get(c)->segment());
        chosen = "the CUBIN for " + have;
      }
    }
    std::string image;
    if (segment < 0) {
      segment = int32_t(mod.ptx_segment());
      chosen = "the PTX (" + str(mod.ptx_arch()) + ", no CUBIN for " + arch + ")";
    }
    // PTX must end in a NUL; a CUBIN does not mind one more byte.
    image.assign(reinterpret_cast<const char *>(a.segmentData(segment)),
                 a.segmentSize(segment));
    char errorLog[16384] = {0}, infoLog[4096] = {0};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                     CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errorLog, reinterpret_cast<void *>(sizeof errorLog - 1),
                      infoLog, reinterpret_cast<void *>(sizeof infoLog - 1)};
    CUresult r = drv->cuModuleLoadDataEx(&modules[mi], image.c_str(), 4,
                                         options, values);
    if (r != CUDA_SUCCESS) {
      modules[mi] = nullptr;
      dlc_status_t base = drv->check(
          r, "cuModuleLoadDataEx",
          label + ": CUDA module " + std::to_string(mi) + ": loading " + chosen);
      Error e(DLC_STATUS_UNAVAILABLE);
      e << dlc_status_message(base);
      dlc_status_free(base);
      if (errorLog[0])
        e << "; JIT log:\n" << errorLog;
      return e;
    }
  }
  const fb::CudaLaunch &l = *kernel.cuda();
  std::string entry = str(l.entry());
  DLC_RETURN_IF_ERROR(drv->check(
      drv->cuModuleGetFunction(&functions[k], modules[mi], entry.c_str()),
      "cuModuleGetFunction", what + " entry '" + entry + "'"));
  // Above 48 KiB, dynamic shared memory must be asked for.
  if (l.shared_bytes() > 48 * 1024)
    DLC_RETURN_IF_ERROR(drv->check(
        drv->cuFuncSetAttribute(functions[k],
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                int(l.shared_bytes())),
        "cuFuncSetAttribute", what));
  return nullptr;
}

dlc_status_t Device::upload(CUdeviceptr dst, const void *src,
                            size_t bytes) const {
  if (!bytes)
    return nullptr;
  DLC_RETURN_IF_ERROR(use());
  return DLC_CU(cuMemcpyHtoD, dst, src, bytes);
}

dlc_status_t Device::download(void *dst, CUdeviceptr src, size_t bytes) const {
  if (!bytes)
    return nullptr;
  DLC_RETURN_IF_ERROR(use());
  return DLC_CU(cuMemcpyDtoH, dst, src, bytes);
}

dlc_status_t Device::fill(CUdeviceptr dst, uint8_t value, size_t bytes) const {
  if (!bytes)
    return nullptr;
  DLC_RETURN_IF_ERROR(use());
  return DLC_CU(cuMemsetD8, dst, value, bytes);
}

dlc_status_t Device::uploadConstants(const std::vector<uint8_t> &bytes) {
  if (bytes.empty())
    return nullptr;
  DLC_RETURN_IF_ERROR(use());
  DLC_RETURN_IF_ERROR(DLC_CU(cuMemAlloc, &constants, bytes.size()));
  return DLC_CU(cuMemcpyHtoD, constants, bytes.data(), bytes.size());
}

dlc_status_t enablePeerAccess(const std::vector<Device *> &devices) {
  for (Device *a : devices)
    for (Device *b : devices) {
      if (a->ordinal == b->ordinal)
        continue;
      const Driver *drv = a->drv;
      int can = 0;
      DLC_RETURN_IF_ERROR(drv->check(drv->cuDeviceCanAccessPeer(&can, a->dev, b->dev),
                                     "cuDeviceCanAccessPeer", a->label));
      if (!can)
        continue;
      DLC_RETURN_IF_ERROR(a->use());
      CUresult r = drv->cuCtxEnablePeerAccess(b->ctx, 0);
      if (r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        DLC_RETURN_IF_ERROR(drv->check(r, "cuCtxEnablePeerAccess",
                                       a->label + " to " + b->label));
    }
  return nullptr;
}

SlotMemory::~SlotMemory() {
  if (!drv)
    return;
  if (ctx) // Events and pinned memory are freed in a context of theirs.
    drv->cuCtxSetCurrent(ctx);
  for (CUevent e : events)
    if (e)
      drv->cuEventDestroy(e);
  for (const Block &b : arenas) {
    drv->cuCtxSetCurrent(b.ctx);
    drv->cuMemFree(b.ptr);
  }
  for (void *p : pinned)
    drv->cuMemFreeHost(p);
}

dlc_status_t SlotMemory::allocateArena(Device &device, size_t bytes,
                                       CUdeviceptr &out) {
  drv = device.drv;
  ctx = device.ctx;
  out = 0;
  if (!bytes)
    return nullptr;
  const std::string &label = device.label;
  DLC_RETURN_IF_ERROR(device.use());
  DLC_RETURN_IF_ERROR(DLC_CU(cuMemAlloc, &out, bytes));
  arenas.push_back({device.ctx, out});
  return DLC_CU(cuMemsetD8, out, 0xFF, bytes);
}

dlc_status_t SlotMemory::allocatePinned(Device &device, size_t bytes,
                                        void *&out) {
  drv = device.drv;
  ctx = device.ctx;
  std::string label = device.label + ": pinned staging memory";
  out = nullptr;
  DLC_RETURN_IF_ERROR(device.use());
  DLC_RETURN_IF_ERROR(DLC_CU(cuMemHostAlloc, &out, bytes ? bytes : 1,
                             kMemHostAllocPortable));
  pinned.push_back(out);
  return nullptr;
}

dlc_status_t SlotMemory::createEvent(Device &device, CUevent &out) {
  drv = device.drv;
  ctx = device.ctx;
  const std::string &label = device.label;
  DLC_RETURN_IF_ERROR(device.use());
  return DLC_CU(cuEventCreate, &out, CU_EVENT_DISABLE_TIMING);
}

namespace {
void copyOut(void *data) {
  auto *op = static_cast<CudaOp *>(data);
  std::memcpy(op->host, op->staging, op->bytes);
}
void copyIn(void *data) {
  auto *op = static_cast<CudaOp *>(data);
  std::memcpy(op->staging, op->host, op->bytes);
}
} // namespace

#undef DLC_CU
#define DLC_CU(call, ...) drv->check(drv->call(__VA_ARGS__), #call, what)

dlc_status_t issue(CudaOp &op, const std::string &what) {
  Device *owner = op.stream ? op.stream : (op.via ? op.via : op.src);
  const Driver *drv = owner->drv;
  DLC_RETURN_IF_ERROR(owner->use());
  CUstream stream = op.stream ? op.stream->stream : nullptr;
  switch (op.kind) {
  case CudaOp::Launch:
    return DLC_CU(cuLaunchKernel, op.function, op.grid[0], op.grid[1],
                  op.grid[2], op.block[0], op.block[1], op.block[2], op.shared,
                  stream, op.params.data(), nullptr);
  case CudaOp::HostToDevice:
    if (!op.bytes)
      return nullptr;
    if (stream) {
      // Staged in stream order: the host bytes may come from another GPU's
      // copy-out that this stream's event wait orders, not yet done now.
      DLC_RETURN_IF_ERROR(DLC_CU(cuLaunchHostFunc, stream, copyIn, &op));
      return DLC_CU(cuMemcpyHtoDAsync, op.devDst, op.staging, op.bytes, stream);
    }
    copyIn(&op);
    DLC_RETURN_IF_ERROR(DLC_CU(cuMemcpyHtoDAsync, op.devDst, op.staging,
                               op.bytes, op.via->transfer));
    return DLC_CU(cuStreamSynchronize, op.via->transfer);
  case CudaOp::DeviceToHost:
    if (!op.bytes)
      return nullptr;
    if (stream) {
      DLC_RETURN_IF_ERROR(
          DLC_CU(cuMemcpyDtoHAsync, op.staging, op.devSrc, op.bytes, stream));
      return DLC_CU(cuLaunchHostFunc, stream, copyOut, &op);
    }
    DLC_RETURN_IF_ERROR(DLC_CU(cuMemcpyDtoHAsync, op.staging, op.devSrc,
                               op.bytes, op.via->transfer));
    DLC_RETURN_IF_ERROR(DLC_CU(cuStreamSynchronize, op.via->transfer));
    copyOut(&op);
    return nullptr;
  case CudaOp::DeviceToDevice:
    if (!op.bytes)
      return nullptr;
    if (op.src->ordinal == op.dst->ordinal)
      return DLC_CU(cuMemcpyDtoDAsync, op.devDst, op.devSrc, op.bytes, stream);
    return DLC_CU(cuMemcpyPeerAsync, op.devDst, op.dst->ctx, op.devSrc,
                  op.src->ctx, op.bytes, stream);
  }
  return nullptr;
}

} // namespace dlc::rt::cuda
