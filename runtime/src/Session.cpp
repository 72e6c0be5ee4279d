//===- Session.cpp - dlc_session_t: binding, memory, inputs, run, outputs -===//
//
// Creating a session binds the devices, allocates each slot's arenas and
// turns the schedule into one program per device (Session.h); the streams
// that run them are in Executor.cpp.
//
// Simulated GPUs: the arena is its own allocation, filled with 0xFF bytes
// (NaN as f32/f16/bf16, -1 as integers) at creation, and every buffer a step
// is about to write on it is filled again right before that step (unless the
// buffer is a model input or the step also reads it). That approximates
// "poisoned wherever the memory plan frees a range for reuse": a step that
// reads a range before its write, or after another buffer reused it, reads
// NaNs. Inputs on a simulated GPU start zeroed, as on the CPU. Constants
// used by a simulated GPU's kernels (or placed on it) are copied into a
// separate block of that GPU at session creation, so that its kernels are
// handed pointers into its own memory only.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FlatUtil.h"
#include "Session.h"
#include "ThreadPool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

using namespace dlc::rt;

Arena::~Arena() {
  if (base)
    ::munmap(base, size);
}

dlc_status_t Arena::allocate(size_t bytes, int fill, const std::string &what) {
  if (!bytes)
    return nullptr;
  void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return Error(DLC_STATUS_OUT_OF_MEMORY)
           << "cannot allocate " << what << " (" << bytes << " bytes)";
  base = static_cast<uint8_t *>(p);
  size = bytes;
  if (fill)
    std::memset(base, fill, bytes);
  return nullptr;
}

dlc_session_s::~dlc_session_s() {
  for (auto &slot : slots)
    if (slot->inFlight)
      dlc_status_free(finish(*this, *slot));
  stopWorkers(*this);
  dlc_model_release(model);
}

namespace {

constexpr int kPoison = 0xFF;

dlc_status_t checkOptions(const dlc_session_options_t &o) {
  if (o.thread_count < 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: thread_count " << o.thread_count
           << " is negative";
  if (o.gpu_binding != DLC_GPU_BINDING_REAL &&
      o.gpu_binding != DLC_GPU_BINDING_SIM)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: gpu_binding " << o.gpu_binding
           << " is not a dlc_gpu_binding_t (0 real, 1 sim)";
  if (o.gpu_map && o.gpu_binding == DLC_GPU_BINDING_SIM)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: gpu_map binds logical GPUs to real ones; it "
              "does not apply to simulated GPUs (gpu_binding = "
              "DLC_GPU_BINDING_SIM)";
  if (o.gpu_map && o.gpu_map_count < 1)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: gpu_map has " << o.gpu_map_count << " entries";
  for (int32_t i = 0; o.gpu_map && i < o.gpu_map_count; ++i)
    if (o.gpu_map[i] < 0)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "session options: gpu_map[" << i << "] is " << o.gpu_map[i]
             << " (a GPU number is >= 0)";
  if (o.max_in_flight < 1 || o.max_in_flight > 64)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: max_in_flight " << o.max_in_flight
           << " is not in [1, 64]";
  return nullptr;
}

/// What this runtime cannot run yet, and state under overlapping runs.
dlc_status_t checkRunnable(const dlc_session_s &s) {
  const fb::Model &m = s.model->artifact->model();
  for (uint32_t b = 0; b < count(m.buffers()); ++b)
    if (m.buffers()->Get(b)->max_shape() && !m.buffers()->Get(b)->rows_per_unit())
      return Error(DLC_STATUS_UNIMPLEMENTED)
             << "model '" << s.model->artifact->name() << "': buffer " << b << " ('"
             << str(m.buffers()->Get(b)->name())
             << "') has a dimension known only at run time that is not the "
                "symbolic batch; this runtime runs static shapes and the batch only";
  if (count(m.state()) && s.options.max_in_flight > 1)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: max_in_flight " << s.options.max_in_flight
           << ", but model '" << s.model->artifact->name()
           << "' has persistent state, which each run updates for the next: "
              "its runs cannot overlap (max_in_flight must be 1)";
  return nullptr;
}

/// "2 GPUs (cuda:0, cuda:1)".
std::string gpuList(const std::vector<std::string> &gpus) {
  std::string s = std::to_string(gpus.size()) +
                  (gpus.size() == 1 ? " GPU (" : " GPUs (");
  for (size_t i = 0; i < gpus.size(); ++i)
    s += (i ? ", " : "") + gpus[i];
  return s + ")";
}

constexpr const char *kSimHint =
    "simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run --gpu=sim)";

/// Binds every device by the policy of the options: simulated GPUs, or
/// real ones (cuda:N on GPU N or gpu_map[N]); never a silent fallback.
dlc_status_t bindDevices(dlc_session_s &s) {
  const fb::Model &m = s.model->artifact->model();
  const std::string &name = s.model->artifact->name();
  std::vector<std::pair<int32_t, std::string>> byIndex;
  uint32_t ndev = count(m.devices());
  bool sim = s.options.gpu_binding == DLC_GPU_BINDING_SIM;
  for (uint32_t d = 0; d < ndev; ++d) {
    bool gpu = m.devices()->Get(d)->kind() != fb::DeviceKind::Cpu;
    if (gpu)
      byIndex.emplace_back(m.devices()->Get(d)->index(), s.model->deviceNames[d]);
    s.bindings.push_back(!gpu ? Binding::Cpu
                              : sim ? Binding::SimGpu : Binding::CudaGpu);
  }
  std::sort(byIndex.begin(), byIndex.end()); // Messages list cuda:0 first.
  std::vector<std::string> gpus;
  for (auto &[index, gpuName] : byIndex)
    gpus.push_back(gpuName);
  s.gpus.resize(ndev);
  if (gpus.empty() || sim)
    return nullptr;
  if (s.options.step_observer)
    return Error(DLC_STATUS_UNIMPLEMENTED)
           << "model '" << name << "': a step observer reads every step's "
           << "output in host memory, and " << gpus.front()
           << " is a real GPU; " << kSimHint;
  std::string why;
  const cuda::Driver *drv = cuda::driver(why);
  if (!drv)
    return Error(DLC_STATUS_UNAVAILABLE)
           << "model '" << name << "' needs " << gpuList(gpus)
           << " and there is no usable CUDA driver (" << why << "); "
           << kSimHint;
  const int32_t *map = s.options.gpu_map;
  int32_t mapCount = map ? s.options.gpu_map_count : 0;
  // Which physical GPU each logical one wants, checked before any is opened.
  std::vector<int32_t> physical(ndev, -1);
  int32_t highest = -1;
  for (uint32_t d = 0; d < ndev; ++d) {
    if (s.bindings[d] != Binding::CudaGpu)
      continue;
    int32_t n = m.devices()->Get(d)->index();
    if (map && n >= mapCount)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "model '" << name << "' uses " << s.model->deviceNames[d]
             << " but gpu_map has " << mapCount << " entries (one per logical "
             << "GPU cuda:0, cuda:1, ...)";
    physical[d] = map ? map[n] : n;
    highest = std::max(highest, physical[d]);
  }
  if (highest >= drv->deviceCount) {
    Error e(DLC_STATUS_UNAVAILABLE);
    e << "model '" << name << "' needs " << gpuList(gpus);
    if (map)
      e << ", mapped by gpu_map onto GPUs up to " << highest << ",";
    e << " and this machine has " << drv->deviceCount
      << (drv->deviceCount == 1 ? " GPU" : " GPUs") << "; ";
    if (drv->deviceCount > 0)
      e << "remap them onto fewer with gpu_map (dlc-run --gpu-map=0,0) or ";
    return e << kSimHint;
  }
  std::vector<cuda::Device *> open;
  for (uint32_t d = 0; d < ndev; ++d) {
    if (physical[d] < 0)
      continue;
    s.gpus[d] = std::make_unique<cuda::Device>();
    DLC_RETURN_IF_ERROR(
        s.gpus[d]->open(*drv, s.model->deviceNames[d], physical[d]));
    open.push_back(s.gpus[d].get());
  }
  return cuda::enablePeerAccess(open);
}

/// Every kernel a device calls can run there: host code on the CPU and on
/// simulated GPUs, CUDA code (loaded now, once per device) on real ones.
dlc_status_t loadDeviceCode(dlc_session_s &s) {
  const Artifact &a = *s.model->artifact;
  const fb::Model &m = a.model();
  for (uint32_t k = 0; k < count(m.schedules()); ++k) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
    uint32_t d = sched.device();
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      if (step.kind() != fb::StepKind::Call)
        continue;
      if (s.gpus[d]) {
        DLC_RETURN_IF_ERROR(s.gpus[d]->loadKernel(a, step.kernel()));
      } else if (!s.model->kernels[step.kernel()]) {
        return Error(DLC_STATUS_UNAVAILABLE)
               << "model '" << a.name() << "': kernel " << step.kernel()
               << " ('" << str(m.kernels()->Get(step.kernel())->name())
               << "'), called by step " << i << " of "
               << s.model->deviceNames[d]
               << ", has no host code: it runs on real GPUs only";
      }
    }
  }
  return nullptr;
}

/// Copies, per simulated GPU, the constants its kernels use or that are
/// placed on it into one block of its own. `copies[d][b]` is device d's
/// copy of constant b (null: none, use the model's bytes).
dlc_status_t copyConstants(dlc_session_s &s,
                           std::vector<std::vector<uint8_t *>> &copies) {
  const Artifact &a = *s.model->artifact;
  const fb::Model &m = a.model();
  uint32_t nbuf = count(m.buffers());
  copies.assign(s.bindings.size(), std::vector<uint8_t *>(nbuf, nullptr));
  s.constants.resize(s.bindings.size());
  for (uint32_t d = 0; d < s.bindings.size(); ++d) {
    s.constants[d] = std::make_unique<Arena>();
    if (s.bindings[d] == Binding::Cpu)
      continue;
    std::vector<bool> used(nbuf, false);
    for (uint32_t b = 0; b < nbuf; ++b)
      used[b] = m.buffers()->Get(b)->device() == d;
    for (uint32_t k = 0; k < count(m.schedules()); ++k) {
      const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
      if (sched.device() != d)
        continue;
      for (uint32_t i = 0; i < count(sched.steps()); ++i) {
        const fb::Step &step = *sched.steps()->Get(i);
        if (step.kind() == fb::StepKind::Call)
          for (uint32_t j = 0; j < count(step.buffers()); ++j)
            used[step.buffers()->Get(j)] = true;
      }
    }
    size_t total = 0;
    for (uint32_t b = 0; b < nbuf; ++b)
      if (used[b] && m.buffers()->Get(b)->constant_segment() >= 0)
        total += (m.buffers()->Get(b)->size() + 63) / 64 * 64;
    // A real GPU's constants are laid out on the host, then uploaded once.
    std::vector<uint8_t> staged(s.gpus[d] ? total : 0);
    if (!s.gpus[d])
      DLC_RETURN_IF_ERROR(s.constants[d]->allocate(
          total, 0, "the constants of " + s.model->deviceNames[d]));
    size_t at = 0;
    for (uint32_t b = 0; b < nbuf; ++b) {
      const fb::Buffer &buf = *m.buffers()->Get(b);
      if (!used[b] || buf.constant_segment() < 0)
        continue;
      uint8_t *host = s.gpus[d] ? staged.data() + at : s.constants[d]->base + at;
      if (buf.size())
        std::memcpy(host, a.segmentData(buf.constant_segment()), buf.size());
      copies[d][b] = host;
      at += (buf.size() + 63) / 64 * 64;
    }
    if (s.gpus[d]) {
      DLC_RETURN_IF_ERROR(s.gpus[d]->uploadConstants(staged));
      // From now on, device addresses (never dereferenced on the host).
      for (uint32_t b = 0; b < nbuf; ++b)
        if (copies[d][b])
          copies[d][b] = reinterpret_cast<uint8_t *>(
              s.gpus[d]->constants + (copies[d][b] - staged.data()));
    }
  }
  return nullptr;
}

/// Moves `bytes` into (or out of) a tensor's memory, wherever it is.
dlc_status_t writeTensor(const cuda::Device *gpu, uint8_t *dst,
                         const void *src, size_t bytes) {
  if (gpu)
    return gpu->upload(reinterpret_cast<cuda::CUdeviceptr>(dst), src, bytes);
  std::memcpy(dst, src, bytes);
  return nullptr;
}
dlc_status_t readTensor(const cuda::Device *gpu, void *dst,
                        const uint8_t *src, size_t bytes) {
  if (gpu)
    return gpu->download(dst, reinterpret_cast<cuda::CUdeviceptr>(src), bytes);
  std::memcpy(dst, src, bytes);
  return nullptr;
}

/// Each persistent buffer starts as its initial value, or zeros. (With state
/// a session has one slot, so these bytes carry over from run to run.)
dlc_status_t initializeState(dlc_session_s &s, Slot &slot) {
  const Artifact &a = *s.model->artifact;
  const fb::Model &m = a.model();
  for (uint32_t b = 0; b < count(m.buffers()); ++b) {
    const fb::Buffer &buf = *m.buffers()->Get(b);
    if (!buf.persistent() || !buf.size())
      continue;
    cuda::Device *gpu = s.gpus[buf.device()].get();
    if (buf.initial_segment() >= 0)
      DLC_RETURN_IF_ERROR(writeTensor(gpu, slot.buffers[b],
                                      a.segmentData(buf.initial_segment()), buf.size()));
    else if (gpu)
      DLC_RETURN_IF_ERROR(gpu->fill(reinterpret_cast<cuda::CUdeviceptr>(slot.buffers[b]), 0,
                                    buf.size()));
    else
      std::memset(slot.buffers[b], 0, buf.size());
  }
  return nullptr;
}

/// Allocates one slot's memory and resolves every step against it.
dlc_status_t buildSlot(dlc_session_s &s, Slot &slot,
                       const std::vector<std::vector<uint8_t *>> &copies) {
  const Artifact &a = *s.model->artifact;
  const fb::Model &m = a.model();
  uint32_t nbuf = count(m.buffers());
  std::vector<bool> isInput(nbuf, false);
  for (uint32_t i = 0; i < count(m.inputs()); ++i) {
    const fb::Buffer &in = *m.buffers()->Get(m.inputs()->Get(i)->buffer());
    isInput[m.inputs()->Get(i)->buffer()] = true;
    slot.inputUnits.push_back(in.rows_per_unit() ? s.batchBound : 0);
  }
  slot.units = s.batchBound;
  slot.gpu = std::make_unique<cuda::SlotMemory>();
  // Each device's arena: host pages, or (real GPUs) device memory whose
  // addresses are only handed to the driver and to GPU kernels.
  std::vector<uint8_t *> bases;
  for (uint32_t d = 0; d < s.bindings.size(); ++d) {
    auto arena = std::make_unique<Arena>();
    size_t bytes = m.devices()->Get(d)->arena_size();
    if (s.gpus[d]) {
      cuda::CUdeviceptr ptr = 0;
      DLC_RETURN_IF_ERROR(slot.gpu->allocateArena(*s.gpus[d], bytes, ptr));
      bases.push_back(reinterpret_cast<uint8_t *>(ptr));
    } else {
      DLC_RETURN_IF_ERROR(arena->allocate(
          bytes, s.bindings[d] == Binding::SimGpu ? kPoison : 0,
          "the arena of " + s.model->deviceNames[d] + " for model '" +
              a.name() + "'"));
      bases.push_back(arena->base);
    }
    slot.arenas.push_back(std::move(arena));
  }
  for (uint32_t b = 0; b < nbuf; ++b) {
    const fb::Buffer &buf = *m.buffers()->Get(b);
    if (buf.constant_segment() >= 0) {
      // Kernels only read constants; the const_cast is the ABI's void **.
      slot.buffers.push_back(
          const_cast<uint8_t *>(a.segmentData(buf.constant_segment())));
      continue;
    }
    uint8_t *base = bases[buf.device()];
    slot.buffers.push_back(base ? base + buf.offset() : nullptr);
    if (isInput[b] && base && s.bindings[buf.device()] == Binding::SimGpu)
      std::memset(slot.buffers.back(), 0, buf.size());
    if (isInput[b] && base && s.gpus[buf.device()])
      DLC_RETURN_IF_ERROR(s.gpus[buf.device()]->fill(
          reinterpret_cast<cuda::CUdeviceptr>(slot.buffers.back()), 0,
          buf.size()));
  }
  DLC_RETURN_IF_ERROR(initializeState(s, slot));
  auto dev = [](void *p) { return reinterpret_cast<cuda::CUdeviceptr>(p); };
  // A buffer's pointer as seen from device d's stream.
  auto pointer = [&](uint32_t d, uint32_t b) -> void * {
    return copies[d][b] ? copies[d][b] : slot.buffers[b];
  };
  auto poisoned = [&](uint32_t b) {
    const fb::Buffer &buf = *m.buffers()->Get(b);
    return s.bindings[buf.device()] == Binding::SimGpu && !isInput[b] &&
           buf.constant_segment() < 0 && buf.size() && slot.buffers[b];
  };
  slot.programs.resize(s.bindings.size());
  for (uint32_t k = 0; k < count(m.schedules()); ++k) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
    uint32_t d = sched.device();
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      Op op;
      op.kind = step.kind();
      op.index = i;
      op.step = &step;
      op.event = step.event();
      uint32_t n = count(step.buffers());
      auto arg = [&](uint32_t j) { return step.buffers()->Get(j); };
      if (step.kind() == fb::StepKind::Call) {
        op.fn = s.model->kernels[step.kernel()];
        for (uint32_t j = 0; j < n; ++j) {
          op.args.push_back(pointer(d, arg(j)));
          if (size_t unit = unitStrideBytes(s, *m.buffers()->Get(arg(j))))
            op.batchedArgs.emplace_back(j, unit);
        }
        if (m.kernels()->Get(step.kernel())->sized()) {
          // 0.9: once per run, the run's size after the buffers.
          op.batchedArgs.clear();
          op.runSize = std::make_unique<int64_t>(s.batchBound);
          op.args.push_back(op.runSize.get());
        }
        if (!op.batchedArgs.empty()) {
          op.unitArgs = op.args;
          op.chunkFn = s.model->chunkKernels[step.kernel()];
          op.chunkUnits = m.kernels()->Get(step.kernel())->chunk_units();
          op.chunkMinUnits = m.kernels()->Get(step.kernel())->chunk_min_units();
          op.boundUnits = s.batchBound;
        }
        if (s.gpus[d]) {
          // The contract's ABI: one device pointer per buffer, passed as
          // kernelParams (pointers to the values).
          const fb::CudaLaunch &l = *m.kernels()->Get(step.kernel())->cuda();
          auto c = std::make_unique<cuda::CudaOp>();
          c->stream = s.gpus[d].get();
          c->function = s.gpus[d]->functions[step.kernel()];
          for (uint32_t i = 0; i < count(l.grid()); ++i)
            c->grid[i] = l.grid()->Get(i);
          for (uint32_t i = 0; i < count(l.block()); ++i)
            c->block[i] = l.block()->Get(i);
          c->shared = l.shared_bytes();
          for (void *p : op.args)
            c->args.push_back(dev(p));
          for (cuda::CUdeviceptr &p : c->args)
            c->params.push_back(&p);
          op.cuda = std::move(c);
        }
        // Outputs: as stated, else the last argument (the compiler's order
        // is inputs, then outputs); not poisoned when their range overlaps
        // one the step reads (an output may reuse a dying input's range).
        uint32_t outputs = step.output_count() ? step.output_count() : 1;
        uint32_t firstOutput = n >= outputs ? n - outputs : 0;
        for (uint32_t j = firstOutput; j < n; ++j) {
          const fb::Buffer &out = *m.buffers()->Get(arg(j));
          bool alsoRead = false;
          for (uint32_t r = 0; r < firstOutput; ++r) {
            const fb::Buffer &in = *m.buffers()->Get(arg(r));
            alsoRead |= in.constant_segment() < 0 &&
                        in.device() == out.device() &&
                        in.offset() < out.offset() + out.size() &&
                        out.offset() < in.offset() + in.size();
          }
          if (poisoned(arg(j)) && !alsoRead)
            op.poison.emplace_back(slot.buffers[arg(j)],
                                   m.buffers()->Get(arg(j))->size());
        }
      } else if (step.kind() == fb::StepKind::Copy) {
        const fb::Buffer &src = *m.buffers()->Get(arg(0));
        op.args = {pointer(src.device(), arg(0)), slot.buffers[arg(1)]};
        op.bytes = src.size();
        op.unitBytes = unitBytes(s, src);
        const fb::Buffer &dst = *m.buffers()->Get(arg(1));
        bool overlap = src.constant_segment() < 0 &&
                       src.device() == dst.device() &&
                       src.offset() < dst.offset() + dst.size() &&
                       dst.offset() < src.offset() + src.size();
        if (poisoned(arg(1)) && !overlap)
          op.poison.emplace_back(slot.buffers[arg(1)], op.bytes);
        cuda::Device *srcGpu = s.gpus[src.device()].get();
        cuda::Device *dstGpu = s.gpus[dst.device()].get();
        if (srcGpu || dstGpu) {
          auto c = std::make_unique<cuda::CudaOp>();
          c->stream = s.gpus[d].get();
          c->bytes = op.bytes;
          if (srcGpu && dstGpu) {
            c->kind = cuda::CudaOp::DeviceToDevice;
            c->src = srcGpu;
            c->dst = dstGpu;
            c->devSrc = dev(op.args[0]);
            c->devDst = dev(op.args[1]);
          } else {
            c->kind = dstGpu ? cuda::CudaOp::HostToDevice
                             : cuda::CudaOp::DeviceToHost;
            c->via = dstGpu ? dstGpu : srcGpu;
            c->host = dstGpu ? op.args[0] : op.args[1];
            (dstGpu ? c->devDst : c->devSrc) = dev(dstGpu ? op.args[1] : op.args[0]);
            DLC_RETURN_IF_ERROR(
                slot.gpu->allocatePinned(*c->via, op.bytes, c->staging));
          }
          op.cuda = std::move(c);
          op.minNs = 0; // Real transfers take their own time.
        }
        // sim_links: the copy lasts as long as its link says, when one of
        // its ends is a simulated GPU.
        if (s.options.sim_links && src.device() != dst.device() &&
            (s.bindings[src.device()] == Binding::SimGpu ||
             s.bindings[dst.device()] == Binding::SimGpu))
          for (uint32_t l = 0; l < count(m.links()); ++l) {
            const fb::Link &link = *m.links()->Get(l);
            if (link.from() == src.device() && link.to() == dst.device())
              op.minNs = uint64_t(1e3 * link.latency_us() +
                                  1e9 * double(op.bytes) / link.bandwidth());
          }
      }
      slot.programs[d].push_back(std::move(op));
    }
  }
  slot.events = std::make_unique<Event[]>(m.event_count());
  // Events recorded on a real GPU's stream are CUevents too.
  slot.gpu->events.assign(m.event_count(), nullptr);
  for (uint32_t e = 0; e < m.event_count(); ++e)
    if (s.gpus[s.eventRecorder[e]])
      DLC_RETURN_IF_ERROR(slot.gpu->createEvent(*s.gpus[s.eventRecorder[e]],
                                                slot.gpu->events[e]));
  for (uint32_t i = 0; i < count(m.outputs()); ++i) {
    const fb::Buffer &buf =
        *m.buffers()->Get(m.outputs()->Get(i)->buffer());
    void *host = nullptr;
    if (s.bindings[buf.device()] != Binding::Cpu &&
        buf.constant_segment() < 0) {
      host = std::aligned_alloc(64, (buf.size() + 63) / 64 * 64 + 64);
      if (!host)
        return Error(DLC_STATUS_OUT_OF_MEMORY) << "out of memory";
    }
    slot.hostOutputs.emplace_back(static_cast<uint8_t *>(host), std::free);
  }
  if (s.options.check_ordering)
    slot.checker = std::make_unique<OrderingChecker>(*s.model);
  return nullptr;
}

dlc_status_t build(dlc_session_s &s) {
  const fb::Model &m = s.model->artifact->model();
  if (!s.model->codeLoaded)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "model '" << s.model->artifact->name()
           << "' was loaded without its code (load_code = 0): it cannot run";
  DLC_RETURN_IF_ERROR(checkOptions(s.options));
  DLC_RETURN_IF_ERROR(checkRunnable(s));
  DLC_RETURN_IF_ERROR(bindDevices(s));
  DLC_RETURN_IF_ERROR(loadDeviceCode(s));
  if (count(m.symbols()))
    s.batchBound = m.symbols()->Get(0)->bound();
  s.eventRecorder.assign(m.event_count(), 0);
  for (uint32_t k = 0; k < count(m.schedules()); ++k) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
    for (uint32_t i = 0; i < count(sched.steps()); ++i)
      if (sched.steps()->Get(i)->kind() == fb::StepKind::RecordEvent)
        s.eventRecorder[sched.steps()->Get(i)->event()] = sched.device();
  }
  std::vector<std::vector<uint8_t *>> copies;
  DLC_RETURN_IF_ERROR(copyConstants(s, copies));
  for (int32_t k = 0; k < s.options.max_in_flight; ++k) {
    s.slots.push_back(std::make_unique<Slot>());
    DLC_RETURN_IF_ERROR(buildSlot(s, *s.slots.back(), copies));
  }
  for (uint32_t k = 0; k < count(m.schedules()); ++k) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
    if (count(sched.steps()))
      s.activeDevices.push_back(sched.device());
  }
  for (uint32_t d : s.activeDevices)
    if (s.inlineDevice < 0 || s.bindings[d] == Binding::Cpu)
      s.inlineDevice = d;
  s.stats.resize(s.bindings.size());
  for (DeviceStats &st : s.stats) {
    st.kernelCalls.assign(count(m.kernels()), 0);
    st.kernelNs.assign(count(m.kernels()), 0);
  }
  s.created = s.lastEnd = Clock::now();
  startWorkers(s, /*includingInline=*/false);
  return nullptr;
}

dlc_status_t checkSession(const dlc_session_t *session, const char *fn) {
  if (!session)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << fn << ": null session";
  return nullptr;
}

/// The synchronous calls use slot 0, which submitted runs may be using.
dlc_status_t checkIdle(const dlc_session_t *s, const char *fn) {
  if (s->nextTicket != s->oldestTicket)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << fn << ": " << s->nextTicket - s->oldestTicket
           << " submitted runs are in flight; wait for them first";
  return nullptr;
}

const fb::TensorSpec &spec(const dlc_session_t *s, bool output, size_t index) {
  const fb::Model &m = s->model->artifact->model();
  return *(output ? m.outputs() : m.inputs())->Get(uint32_t(index));
}

dlc_status_t checkIndex(dlc_session_t *s, bool output, size_t index) {
  const auto &infos = output ? s->model->outputs : s->model->inputs;
  if (index >= infos.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << s->model->artifact->name() << "' has no "
           << (output ? "output " : "input ") << index << " (it has "
           << infos.size() << ")";
  return nullptr;
}

const fb::Buffer &bufferOf(const dlc_session_t *s, bool output, size_t index) {
  return *s->model->artifact->model().buffers()->Get(spec(s, output, index).buffer());
}

/// Where input/output `index` of `slot` is, in host memory, with its size
/// (an output's at the slot's batch).
dlc_status_t tensorBuffer(dlc_session_t *s, Slot &slot, bool output,
                          size_t index, uint8_t *&ptr, size_t &bytes) {
  DLC_RETURN_IF_ERROR(checkIndex(s, output, index));
  ptr = slot.buffers[spec(s, output, index).buffer()];
  if (output && slot.hostOutputs[index])
    ptr = slot.hostOutputs[index].get();
  bytes = output ? activeBytes(*s, bufferOf(s, output, index), slot.units)
                 : s->model->inputs[index].info.byte_size;
  return nullptr;
}

dlc_status_t checkBytes(dlc_session_t *s, bool output, size_t index,
                        size_t expected, size_t got, const char *fn) {
  if (expected == got)
    return nullptr;
  const auto &info = (output ? s->model->outputs : s->model->inputs)[index];
  return Error(DLC_STATUS_INVALID_ARGUMENT)
         << fn << ": " << (output ? "output " : "input ") << index << " ('"
         << info.name << "') has " << expected << " bytes, got " << got;
}

/// `bytes` for input `index`: its byte_size, or (0.8) n units of the batch,
/// 1 <= n <= the bound; `units` is n, 0 for an input without the batch.
dlc_status_t inputUnits(dlc_session_t *s, size_t index, size_t bytes,
                        const char *fn, int64_t &units) {
  const TensorInfo &info = s->model->inputs[index];
  size_t unit = unitBytes(*s, bufferOf(s, false, index));
  units = 0;
  if (!unit)
    return checkBytes(s, false, index, info.info.byte_size, bytes, fn);
  units = int64_t(bytes / unit);
  if (bytes % unit == 0 && units >= 1 && units <= s->batchBound)
    return nullptr;
  const fb::Symbol &batch = *s->model->artifact->model().symbols()->Get(0);
  return Error(DLC_STATUS_INVALID_ARGUMENT)
         << fn << ": input " << index << " ('" << info.name << "') carries the batch '"
         << str(batch.name()) << "' (dim 0 is " << info.info.rows_per_unit
         << " x the batch): 1 to " << s->batchBound << " units of " << unit
         << " bytes, got " << bytes << " bytes";
}

/// 0.8: the run's batch, which every input carrying it must agree on.
dlc_status_t resolveBatch(dlc_session_t *s, Slot &slot) {
  int64_t units = 0;
  size_t first = 0;
  for (size_t i = 0; i < slot.inputUnits.size(); ++i) {
    if (!slot.inputUnits[i])
      continue;
    if (!units) {
      units = slot.inputUnits[i];
      first = i;
    } else if (slot.inputUnits[i] != units) {
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "model '" << s->model->artifact->name() << "': input " << first << " ('"
             << s->model->inputs[first].name << "') was set with a batch of " << units
             << " and input " << i << " ('" << s->model->inputs[i].name << "') with "
             << slot.inputUnits[i] << "; every input carrying the batch takes the same";
    }
  }
  slot.units = units ? units : s->batchBound;
  return nullptr;
}

/// The real GPU holding input/output `index`, or null (host memory).
const cuda::Device *gpuOf(dlc_session_t *s, bool output, size_t index) {
  const fb::Model &m = s->model->artifact->model();
  const fb::Buffer &b = *m.buffers()->Get(spec(s, output, index).buffer());
  return b.constant_segment() < 0 ? s->gpus[b.device()].get() : nullptr;
}

/// Copies the outputs that live on GPUs back to the slot's host buffers.
dlc_status_t copyBack(dlc_session_t *s, Slot &slot) {
  for (size_t i = 0; i < slot.hostOutputs.size(); ++i)
    if (slot.hostOutputs[i])
      DLC_RETURN_IF_ERROR(readTensor(gpuOf(s, true, i), slot.hostOutputs[i].get(),
                                     slot.buffers[spec(s, true, i).buffer()],
                                     activeBytes(*s, bufferOf(s, true, i), slot.units)));
  return nullptr;
}

} // namespace

extern "C" void dlc_session_options_initialize(dlc_session_options_t *options) {
  options->thread_count = 0;
  options->gpu_binding = DLC_GPU_BINDING_REAL;
  options->check_ordering = 0;
  options->profile = 0;
  options->max_in_flight = 1;
  options->sim_links = 0;
  options->gpu_map = nullptr;
  options->gpu_map_count = 0;
  options->check_numerics = 0;
  options->step_observer = nullptr;
  options->step_observer_user = nullptr;
}

extern "C" dlc_status_t dlc_cuda_device_count(int32_t *out_count) {
  if (!out_count)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_cuda_device_count: null output pointer";
  *out_count = 0;
  std::string why;
  const cuda::Driver *drv = cuda::driver(why);
  if (!drv)
    return Error(DLC_STATUS_UNAVAILABLE) << why;
  *out_count = drv->deviceCount;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_create(dlc_model_t *model,
                                           const dlc_session_options_t *options,
                                           dlc_session_t **out_session) {
  return guard([&]() -> dlc_status_t {
    if (!model || !out_session)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "dlc_session_create: null argument";
    *out_session = nullptr;
    auto session = std::make_unique<dlc_session_s>();
    dlc_session_options_initialize(&session->options);
    if (options)
      session->options = *options;
    dlc_model_retain(model);
    session->model = model;
    // Before build(): its stream threads read `threads`.
    session->threads = session->options.thread_count > 0
                           ? session->options.thread_count
                           : dlc::rt::defaultThreadCount();
    dlc::rt::ThreadPool::process().reserve(session->threads);
    DLC_RETURN_IF_ERROR(build(*session));
    *out_session = session.release();
    return nullptr;
  });
}

extern "C" void dlc_session_retain(dlc_session_t *session) {
  if (session)
    session->refs.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void dlc_session_release(dlc_session_t *session) {
  if (session && session->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete session;
}

extern "C" dlc_model_t *dlc_session_model(const dlc_session_t *session) {
  return session ? session->model : nullptr;
}

extern "C" dlc_status_t dlc_session_set_input(dlc_session_t *session,
                                              size_t index, const void *data,
                                              size_t bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_set_input"));
  DLC_RETURN_IF_ERROR(checkIdle(session, "dlc_session_set_input"));
  uint8_t *ptr;
  size_t size;
  Slot &slot = *session->slots[0];
  DLC_RETURN_IF_ERROR(tensorBuffer(session, slot, false, index, ptr, size));
  int64_t units;
  DLC_RETURN_IF_ERROR(inputUnits(session, index, bytes, "dlc_session_set_input", units));
  if (bytes && !data)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_set_input: null data for input " << index;
  if (bytes)
    DLC_RETURN_IF_ERROR(writeTensor(gpuOf(session, false, index), ptr, data, bytes));
  slot.inputUnits[index] = units;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_run(dlc_session_t *session) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_run"));
  DLC_RETURN_IF_ERROR(checkIdle(session, "dlc_session_run"));
  Slot &slot = *session->slots[0];
  DLC_RETURN_IF_ERROR(resolveBatch(session, slot));
  DLC_RETURN_IF_ERROR(runSync(*session, slot));
  return copyBack(session, slot);
}

extern "C" dlc_status_t dlc_session_output_info(dlc_session_t *session, size_t index,
                                                dlc_tensor_info_t *out_info) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_output_info"));
  if (!out_info)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_session_output_info: null output pointer";
  DLC_RETURN_IF_ERROR(checkIndex(session, true, index));
  const TensorInfo &info = session->model->outputs[index];
  *out_info = info.info;
  int64_t units = session->slots[0]->units;
  if (!info.info.rows_per_unit || !units)
    return nullptr;
  session->outputShapes.resize(session->model->outputs.size());
  std::vector<int64_t> &shape = session->outputShapes[index];
  shape = info.maxShape;
  shape[symbolDimOf(info.info.shape, info.info.rank)] = info.info.rows_per_unit * units;
  out_info->shape = shape.data();
  out_info->byte_size = activeBytes(*session, bufferOf(session, true, index), units);
  return nullptr;
}

extern "C" dlc_status_t dlc_session_output(dlc_session_t *session, size_t index,
                                           const void **data, size_t *bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_output"));
  if (!data || !bytes)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_output: null output pointer";
  DLC_RETURN_IF_ERROR(checkIdle(session, "dlc_session_output"));
  uint8_t *ptr;
  size_t size;
  DLC_RETURN_IF_ERROR(
      tensorBuffer(session, *session->slots[0], true, index, ptr, size));
  *data = ptr;
  *bytes = size;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_copy_output(dlc_session_t *session,
                                                size_t index, void *dst,
                                                size_t bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_copy_output"));
  DLC_RETURN_IF_ERROR(checkIdle(session, "dlc_session_copy_output"));
  uint8_t *ptr;
  size_t size;
  DLC_RETURN_IF_ERROR(
      tensorBuffer(session, *session->slots[0], true, index, ptr, size));
  DLC_RETURN_IF_ERROR(checkBytes(session, true, index, size, bytes,
                                 "dlc_session_copy_output"));
  if (size && !dst)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_copy_output: null destination";
  if (size)
    std::memcpy(dst, ptr, size);
  return nullptr;
}

namespace {
/// State `index`'s buffer in the session's one slot, checked for `bytes`.
dlc_status_t stateBuffer(dlc_session_t *s, size_t index, size_t bytes, const char *fn,
                         uint8_t *&ptr, const cuda::Device *&gpu) {
  DLC_RETURN_IF_ERROR(checkSession(s, fn));
  DLC_RETURN_IF_ERROR(checkIdle(s, fn));
  const auto &infos = s->model->state;
  if (index >= infos.size())
    return Error(DLC_STATUS_NOT_FOUND) << "model '" << s->model->artifact->name()
                                       << "' has no state " << index << " (it has "
                                       << infos.size() << ")";
  if (bytes != infos[index].info.byte_size)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << fn << ": state " << index << " ('" << infos[index].name << "') has "
           << infos[index].info.byte_size << " bytes, got " << bytes;
  uint32_t b = s->model->artifact->model().state()->Get(uint32_t(index))->buffer();
  ptr = s->slots[0]->buffers[b];
  gpu = s->gpus[s->model->artifact->model().buffers()->Get(b)->device()].get();
  return nullptr;
}
} // namespace

extern "C" dlc_status_t dlc_session_read_state(dlc_session_t *session, size_t index,
                                               void *dst, size_t bytes) {
  uint8_t *ptr = nullptr;
  const cuda::Device *gpu = nullptr;
  DLC_RETURN_IF_ERROR(stateBuffer(session, index, bytes, "dlc_session_read_state", ptr, gpu));
  if (bytes && !dst)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_session_read_state: null destination";
  return bytes ? readTensor(gpu, dst, ptr, bytes) : nullptr;
}

extern "C" dlc_status_t dlc_session_write_state(dlc_session_t *session, size_t index,
                                                const void *src, size_t bytes) {
  uint8_t *ptr = nullptr;
  const cuda::Device *gpu = nullptr;
  DLC_RETURN_IF_ERROR(stateBuffer(session, index, bytes, "dlc_session_write_state", ptr, gpu));
  if (bytes && !src)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_session_write_state: null source";
  return bytes ? writeTensor(gpu, ptr, src, bytes) : nullptr;
}

extern "C" dlc_status_t dlc_session_submit(dlc_session_t *session,
                                           const void *const *inputs,
                                           const size_t *input_bytes,
                                           size_t input_count,
                                           uint64_t *out_ticket) {
  const char *fn = "dlc_session_submit";
  DLC_RETURN_IF_ERROR(checkSession(session, fn));
  return guard([&]() -> dlc_status_t {
    dlc_session_s &s = *session;
    size_t n = s.model->inputs.size();
    if (!out_ticket || (n && (!inputs || !input_bytes)))
      return Error(DLC_STATUS_INVALID_ARGUMENT) << fn << ": null argument";
    if (input_count != n)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << fn << ": model '" << s.model->artifact->name() << "' has " << n
             << " inputs, got " << input_count;
    uint64_t inFlight = s.nextTicket - s.oldestTicket;
    if (inFlight >= uint64_t(s.options.max_in_flight))
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << fn << ": " << inFlight << " runs are in flight (max_in_flight "
             << s.options.max_in_flight << "); wait for run " << s.oldestTicket
             << " first";
    Slot &slot = *s.slots[s.nextTicket % s.slots.size()];
    std::vector<int64_t> units(n);
    for (size_t i = 0; i < n; ++i) {
      DLC_RETURN_IF_ERROR(checkIndex(session, false, i));
      DLC_RETURN_IF_ERROR(inputUnits(session, i, input_bytes[i], fn, units[i]));
      if (input_bytes[i] && !inputs[i])
        return Error(DLC_STATUS_INVALID_ARGUMENT)
               << fn << ": null data for input " << i;
    }
    std::vector<int64_t> previous = slot.inputUnits;
    slot.inputUnits = units;
    if (dlc_status_t e = resolveBatch(session, slot)) {
      slot.inputUnits = previous;
      return e;
    }
    for (size_t i = 0; i < n; ++i) {
      uint8_t *ptr;
      size_t size;
      DLC_RETURN_IF_ERROR(tensorBuffer(session, slot, false, i, ptr, size));
      if (input_bytes[i])
        DLC_RETURN_IF_ERROR(writeTensor(gpuOf(session, false, i), ptr, inputs[i], input_bytes[i]));
    }
    slot.ticket = s.nextTicket;
    slot.inFlight = true;
    submit(s, slot);
    *out_ticket = s.nextTicket++;
    return nullptr;
  });
}

extern "C" dlc_status_t dlc_session_wait(dlc_session_t *session,
                                         uint64_t ticket, void *const *outputs,
                                         const size_t *output_bytes,
                                         size_t output_count) {
  const char *fn = "dlc_session_wait";
  DLC_RETURN_IF_ERROR(checkSession(session, fn));
  dlc_session_s &s = *session;
  if (ticket != s.oldestTicket || ticket >= s.nextTicket)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << fn << ": run " << ticket << " is not the oldest run in flight ("
           << (s.oldestTicket == s.nextTicket
                   ? std::string("none is")
                   : "run " + std::to_string(s.oldestTicket) + " is")
           << "): results come back in submission order";
  size_t n = s.model->outputs.size();
  if (n && (!outputs || !output_bytes))
    return Error(DLC_STATUS_INVALID_ARGUMENT) << fn << ": null argument";
  if (output_count != n)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << fn << ": model '" << s.model->artifact->name() << "' has " << n
           << " outputs, got " << output_count;
  Slot &slot = *s.slots[ticket % s.slots.size()];
  for (size_t i = 0; i < n; ++i) {
    DLC_RETURN_IF_ERROR(checkBytes(session, true, i,
                                   activeBytes(s, bufferOf(session, true, i), slot.units),
                                   output_bytes[i], fn));
    if (output_bytes[i] && !outputs[i])
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << fn << ": null destination for output " << i;
  }
  dlc_status_t status = finish(s, slot);
  slot.inFlight = false;
  ++s.oldestTicket;
  if (status)
    return status;
  // Straight from device memory to the caller's: the copy back to the host.
  for (size_t i = 0; i < n; ++i)
    if (output_bytes[i])
      DLC_RETURN_IF_ERROR(readTensor(gpuOf(session, true, i), outputs[i],
                                     slot.buffers[spec(session, true, i).buffer()],
                                     output_bytes[i]));
  return nullptr;
}

namespace dlc::rt {

size_t unitBytes(const dlc_session_s &s, const fb::Buffer &b) {
  return b.rows_per_unit() && !b.unit_stride() && s.batchBound
             ? b.size() / uint64_t(s.batchBound)
             : 0;
}

size_t unitStrideBytes(const dlc_session_s &s, const fb::Buffer &b) {
  return b.unit_stride() ? b.unit_stride() : unitBytes(s, b);
}

size_t activeBytes(const dlc_session_s &s, const fb::Buffer &b, int64_t units) {
  size_t unit = unitBytes(s, b);
  return unit ? unit * size_t(units) : b.size();
}

} // namespace dlc::rt
