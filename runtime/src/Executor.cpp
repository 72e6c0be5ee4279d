//===- Executor.cpp - device streams, events, runs ------------------------===//
//
// Each device's program runs on its stream, in order. A RecordEvent publishes
// the run's number (its generation) in the slot's event; a WaitEvent blocks
// until the event holds it, so events need no reset between runs. A failing
// step stores the run's first error and raises `failed`: every stream stops
// at its next step, and waits wake up and give up, so one device's failure
// never leaves another blocked. The last stream to finish a run wakes
// whoever waits for it.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FlatUtil.h"
#include "Half.h"
#include "Session.h"
#include "ThreadPool.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

using namespace dlc::rt;

namespace {

constexpr size_t kMaxSpans = size_t(1) << 20;

int64_t sinceNs(const dlc_session_s &s, Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t - s.created)
      .count();
}

void fail(Slot &slot, dlc_status_t status) {
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    if (!slot.error)
      slot.error = status;
    else
      dlc_status_free(status);
    slot.failed.store(true, std::memory_order_relaxed);
  }
  slot.cv.notify_all();
}

void recordEvent(Slot &slot, uint32_t event) {
  {
    // Under the lock, so that a waiter checking the event cannot miss it.
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.events[event].generation.store(slot.generation,
                                        std::memory_order_release);
  }
  slot.cv.notify_all();
}

/// False when the run failed elsewhere before the event was recorded.
bool waitEvent(Slot &slot, uint32_t event) {
  auto recorded = [&] {
    return slot.events[event].generation.load(std::memory_order_acquire) ==
           slot.generation;
  };
  if (recorded())
    return true;
  std::unique_lock<std::mutex> lock(slot.mutex);
  slot.cv.wait(lock, [&] {
    return recorded() || slot.failed.load(std::memory_order_relaxed);
  });
  return recorded();
}

/// sim_links: sleeps to just before `deadline`, then spins to it (sleeps
/// overshoot by tens of µs; links' latencies are a few µs).
void waitUntil(Clock::time_point deadline) {
  constexpr auto kSpin = std::chrono::microseconds(100);
  if (Clock::now() + kSpin < deadline)
    std::this_thread::sleep_until(deadline - kSpin);
  while (Clock::now() < deadline) {
  }
}

std::string stepName(const dlc_session_s &s, uint32_t d, const Op &op) {
  return "step " + std::to_string(op.index) + " (" +
         (op.kind == fb::StepKind::Call ? "call" : "copy") + ") of " +
         s.model->deviceNames[d];
}

/// check_numerics: the first non-finite element of the first `bytes` of a
/// float buffer, or -1.
int64_t firstNonFinite(const fb::Buffer &b, const void *data, size_t bytes) {
  size_t n = bytes / std::max<size_t>(dtypeSize(b.dtype()), 1);
  for (size_t i = 0; i < n; ++i) {
    double x;
    switch (b.dtype()) {
    case fb::DType::F32: x = static_cast<const float *>(data)[i]; break;
    case fb::DType::F64: x = static_cast<const double *>(data)[i]; break;
    case fb::DType::F16: x = f16BitsToDouble(static_cast<const uint16_t *>(data)[i]); break;
    case fb::DType::BF16: x = bf16BitsToDouble(static_cast<const uint16_t *>(data)[i]); break;
    default: return -1;
    }
    if (!std::isfinite(x))
      return int64_t(i);
  }
  return -1;
}

/// check_numerics after a host Call: a NaN or inf in an output, when every
/// input is finite, is this kernel's.
dlc_status_t checkNumerics(const dlc_session_s &s, const Slot &slot, uint32_t d,
                           const Op &op) {
  const fb::Model &m = s.model->artifact->model();
  const fb::Step &step = *op.step;
  uint32_t n = count(step.buffers()), firstOutput = n - step.output_count();
  // Units past a smaller batch interleave with a strided buffer's (the batch
  // off dim 0) and hold stale bytes: a step with one is not checked then.
  for (uint32_t j = 0; j < n; ++j)
    if (m.buffers()->Get(step.buffers()->Get(j))->unit_stride() && slot.units < s.batchBound)
      return nullptr;
  // A sized kernel's buffers hold the run's part; the rest is stale.
  if (op.runSize && slot.units < s.batchBound)
    return nullptr;
  auto nonFinite = [&](uint32_t j) {
    const fb::Buffer &b = *m.buffers()->Get(step.buffers()->Get(j));
    return firstNonFinite(b, op.args[j], activeBytes(s, b, slot.units));
  };
  for (uint32_t j = 0; j < firstOutput; ++j)
    if (nonFinite(j) >= 0)
      return nullptr; // Not produced here: an input already holds it.
  for (uint32_t j = firstOutput; j < n; ++j) {
    uint32_t b = step.buffers()->Get(j);
    const fb::Buffer &buffer = *m.buffers()->Get(b);
    int64_t at = nonFinite(j);
    if (at < 0)
      continue;
    const fb::Kernel &k = *m.kernels()->Get(step.kernel());
    std::ostringstream os;
    os << "model '" << s.model->artifact->name() << "': check-numerics: "
       << stepName(s, d, op) << ", kernel '" << str(k.name()) << "' (ops ";
    for (uint32_t i = 0; i < count(k.ops()); ++i)
      os << (i ? ", " : "") << str(k.ops()->Get(i));
    os << "), wrote a NaN or infinity to buffer " << b << " ('" << str(buffer.name())
       << "') at element " << at << " from finite inputs";
    return Error(DLC_STATUS_DATA_LOSS) << os.str();
  }
  return nullptr;
}

/// step_observer after a host Call or Copy: each buffer the step wrote.
dlc_status_t observeStep(dlc_session_s &s, const Slot &slot, uint32_t d,
                         const Op &op) {
  const fb::Model &m = s.model->artifact->model();
  const fb::Step &step = *op.step;
  bool copy = op.kind == fb::StepKind::Copy;
  uint32_t n = count(step.buffers());
  uint32_t first = copy ? 1 : n - step.output_count();
  std::vector<const char *> ops;
  const char *kernel = "";
  if (!copy) {
    const fb::Kernel &k = *m.kernels()->Get(step.kernel());
    kernel = k.name() ? k.name()->c_str() : "";
    for (uint32_t i = 0; i < count(k.ops()); ++i)
      ops.push_back(k.ops()->Get(i)->c_str());
  }
  std::lock_guard<std::mutex> lock(s.observerMutex);
  for (uint32_t j = first; j < n; ++j) {
    uint32_t b = step.buffers()->Get(j);
    const fb::Buffer &buffer = *m.buffers()->Get(b);
    // A batched buffer as this run has it: dim 0 at the run's batch.
    std::vector<int64_t> shape;
    for (uint32_t k = 0; k < count(buffer.shape()); ++k)
      shape.push_back(buffer.shape()->Get(k));
    if (buffer.rows_per_unit() && !shape.empty())
      shape[symbolDimOf(shape, shape.size())] = buffer.rows_per_unit() * slot.units;
    dlc_step_output_t out{};
    out.sequence = s.observed++;
    out.run = slot.generation - 1;
    out.device = d;
    out.device_name = s.model->deviceNames[d].c_str();
    out.step = op.index;
    out.is_copy = copy;
    out.kernel = kernel;
    out.op_count = ops.size();
    out.ops = ops.empty() ? nullptr : ops.data();
    out.buffer = b;
    out.tensor.name = buffer.name() ? buffer.name()->c_str() : "";
    out.tensor.dtype = static_cast<dlc_dtype_t>(buffer.dtype());
    out.tensor.rank = shape.size();
    out.tensor.shape = shape.empty() ? nullptr : shape.data();
    out.tensor.max_shape = buffer.max_shape() ? buffer.max_shape()->data() : out.tensor.shape;
    out.tensor.rows_per_unit = buffer.rows_per_unit();
    out.tensor.byte_size = activeBytes(s, buffer, slot.units);
    out.tensor.device = buffer.device();
    out.data = copy ? op.args[1] : op.args[j];
    out.copied_from = "";
    if (copy) {
      const fb::Buffer &from = *m.buffers()->Get(step.buffers()->Get(0));
      out.copied_from = from.name() ? from.name()->c_str() : "";
    }
    if (s.options.step_observer(s.options.step_observer_user, &out) != 0)
      return Error(DLC_STATUS_ABORTED)
             << "model '" << s.model->artifact->name()
             << "': the step observer stopped the run after " << stepName(s, d, op)
             << " wrote buffer " << b << " ('" << out.tensor.name << "')";
  }
  return nullptr;
}

/// A host Call: once, or (0.8) once per unit of the run's batch with the
/// batched buffers' pointers advanced by one unit each time; with a chunk
/// body, once per chunk of units while a whole chunk is left, and over the
/// tail too when it has chunkMinUnits units and a chunk from it fits the
/// bound (the units past the batch are scratch: sized for, never read).
void callKernel(Op &op, int64_t units) {
  if (op.runSize) {
    *op.runSize = units;
    op.fn(op.args.data());
    return;
  }
  if (op.batchedArgs.empty()) {
    op.fn(op.args.data());
    return;
  }
  auto callAt = [&](KernelFn fn, int64_t u) {
    for (auto [j, unit] : op.batchedArgs)
      op.unitArgs[j] = static_cast<uint8_t *>(op.args[j]) + size_t(u) * unit;
    fn(op.unitArgs.data());
  };
  int64_t u = 0;
  for (; op.chunkFn && units - u >= op.chunkUnits; u += op.chunkUnits)
    callAt(op.chunkFn, u);
  if (op.chunkFn && op.chunkMinUnits && units - u >= op.chunkMinUnits &&
      u + op.chunkUnits <= op.boundUnits) {
    callAt(op.chunkFn, u);
    return;
  }
  for (; u < units; ++u)
    callAt(op.fn, u);
}

/// A step with a real GPU: a launch, once or (0.8) once per unit of the
/// batch with the batched device pointers advanced; a copy of the run's
/// units.
dlc_status_t issueOnGpu(Op &op, int64_t units, const std::string &what) {
  cuda::CudaOp &c = *op.cuda;
  if (op.unitBytes)
    c.bytes = op.unitBytes * size_t(units);
  if (op.kind != fb::StepKind::Call || op.batchedArgs.empty())
    return cuda::issue(c, what);
  for (int64_t u = 0; u < units; ++u) {
    for (auto [j, unit] : op.batchedArgs)
      c.args[j] = reinterpret_cast<cuda::CUdeviceptr>(op.args[j]) + size_t(u) * unit;
    DLC_RETURN_IF_ERROR(cuda::issue(c, what));
  }
  return nullptr;
}

/// A real GPU's side of RecordEvent: a CUevent after the stream's work.
dlc_status_t recordOnGpu(dlc_session_s &s, Slot &slot, uint32_t d,
                         uint32_t event) {
  const cuda::Device &g = *s.gpus[d];
  return g.drv->check(g.drv->cuEventRecord(slot.gpu->events[event], g.stream),
                      "cuEventRecord", g.label);
}

/// After the host-side wait: a GPU's event is in flight until its CUevent
/// completes, so a GPU stream waits for it on the device and a host stream
/// synchronises with it.
dlc_status_t waitForGpu(dlc_session_s &s, Slot &slot, uint32_t d,
                        uint32_t event) {
  const cuda::Device *recorder = s.gpus[s.eventRecorder[event]].get();
  if (!recorder)
    return nullptr;
  cuda::CUevent ev = slot.gpu->events[event];
  const cuda::Driver *drv = recorder->drv;
  if (const cuda::Device *g = s.gpus[d].get())
    return drv->check(drv->cuStreamWaitEvent(g->stream, ev, 0),
                      "cuStreamWaitEvent", g->label);
  return drv->check(drv->cuEventSynchronize(ev), "cuEventSynchronize",
                    s.model->deviceNames[d] + " waiting for " + recorder->label);
}

/// Runs device `d`'s program of `slot`, then counts the device out. A real
/// GPU's thread issues its steps to its stream and synchronises with it at
/// the end (and after each step when profiling, so that spans are times).
void runDevice(dlc_session_s &s, Slot &slot, uint32_t d) {
  DeviceStats &stats = s.stats[d];
  bool profile = s.options.profile != 0;
  cuda::Device *gpu = s.gpus[d].get();
  ThreadLimitScope threads(s.threads);
  // Kernels on several threads: the pool's workers stay awake for the run.
  ThreadPool::RunScope awake(s.threads > 1 && !gpu ? &ThreadPool::process() : nullptr);
  ++stats.runs;
  if (gpu)
    if (dlc_status_t e = gpu->use())
      fail(slot, e);
  for (Op &op : slot.programs[d]) {
    if (slot.failed.load(std::memory_order_relaxed))
      break;
    Clock::time_point t0 = profile ? Clock::now() : Clock::time_point();
    uint64_t gpuNs = UINT64_MAX; // Set where the GPU timed the step.
    if (op.kind == fb::StepKind::Call || op.kind == fb::StepKind::Copy) {
      if (slot.checker)
        if (dlc_status_t e = slot.checker->step(d, op.index, *op.step)) {
          fail(slot, e);
          break;
        }
      for (auto &[ptr, bytes] : op.poison)
        std::memset(ptr, 0xFF, bytes);
      if (op.cuda && s.options.check_numerics && op.kind == fb::StepKind::Call) {
        fail(slot, Error(DLC_STATUS_UNIMPLEMENTED)
                       << "check-numerics: " << stepName(s, d, op)
                       << " runs on a real GPU, whose memory it does not scan; "
                          "simulate the GPUs (dlc-run --gpu=sim)");
        break;
      }
      if (op.cuda) {
        auto issue = [&] { return issueOnGpu(op, slot.units, stepName(s, d, op)); };
        dlc_status_t e;
        if (profile && gpu && op.kind == fb::StepKind::Call)
          e = gpu->timeOnStream(issue, gpuNs); // The kernel's own time.
        else
          e = issue();
        if (!e && profile && gpu)
          e = gpu->drv->check(gpu->drv->cuStreamSynchronize(gpu->stream),
                              "cuStreamSynchronize", gpu->label);
        if (e) {
          fail(slot, e);
          break;
        }
        if (op.kind == fb::StepKind::Copy)
          stats.bytesCopied += op.cuda->bytes;
      } else if (op.kind == fb::StepKind::Call) {
        callKernel(op, slot.units);
        if (s.options.check_numerics)
          if (dlc_status_t e = checkNumerics(s, slot, d, op)) {
            fail(slot, e);
            break;
          }
        if (s.options.step_observer)
          if (dlc_status_t e = observeStep(s, slot, d, op)) {
            fail(slot, e);
            break;
          }
      } else {
        Clock::time_point start = op.minNs ? Clock::now() : Clock::time_point();
        size_t bytes = op.unitBytes ? op.unitBytes * size_t(slot.units) : op.bytes;
        if (bytes)
          std::memmove(op.args[1], op.args[0], bytes);
        stats.bytesCopied += bytes;
        if (op.minNs)
          waitUntil(start + std::chrono::nanoseconds(op.minNs));
        if (s.options.step_observer)
          if (dlc_status_t e = observeStep(s, slot, d, op)) {
            fail(slot, e);
            break;
          }
      }
    } else if (op.kind == fb::StepKind::RecordEvent) {
      if (slot.checker)
        slot.checker->record(d, op.index, op.event);
      if (gpu)
        if (dlc_status_t e = recordOnGpu(s, slot, d, op.event)) {
          fail(slot, e);
          break;
        }
      recordEvent(slot, op.event);
    } else {
      if (!waitEvent(slot, op.event))
        break;
      if (dlc_status_t e = waitForGpu(s, slot, d, op.event)) {
        fail(slot, e);
        break;
      }
      if (slot.checker)
        slot.checker->wait(d, op.index, op.event);
    }
    ++stats.steps;
    if (!profile)
      continue;
    Clock::time_point t1 = Clock::now();
    uint64_t ns = gpuNs != UINT64_MAX
                      ? gpuNs
                      : uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    if (op.kind == fb::StepKind::Call || op.kind == fb::StepKind::Copy)
      stats.busyNs += ns;
    if (op.kind == fb::StepKind::Call) {
      ++stats.kernelCalls[op.step->kernel()];
      stats.kernelNs[op.step->kernel()] += ns;
    }
    if (op.kind == fb::StepKind::Copy)
      stats.copyNs += ns;
    if (op.kind == fb::StepKind::WaitEvent)
      stats.waitNs += ns;
    if (stats.spans.size() < kMaxSpans)
      stats.spans.push_back({uint8_t(op.kind), op.index, slot.generation,
                             sinceNs(s, t0), sinceNs(s, t1),
                             op.unitBytes ? op.unitBytes * uint64_t(slot.units) : op.bytes});
  }
  // Even after a failure: what was issued must finish before the slot's
  // memory is reused or freed.
  if (gpu)
    if (dlc_status_t e =
            gpu->drv->check(gpu->drv->cuStreamSynchronize(gpu->stream),
                            "cuStreamSynchronize", gpu->label))
      fail(slot, e);
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (--slot.remaining == 0) {
    slot.end = Clock::now();
    // Notified under the lock: once the waiter sees remaining == 0 it may
    // free the session, and this thread must not touch the slot after.
    slot.cv.notify_all();
  }
}

void workerLoop(dlc_session_s *s, uint32_t d) {
  Worker &w = *s->workers[d];
  for (;;) {
    Slot *slot;
    {
      std::unique_lock<std::mutex> lock(w.mutex);
      w.cv.wait(lock, [&] { return w.stop || !w.queue.empty(); });
      if (w.queue.empty())
        return;
      slot = w.queue.front();
      w.queue.pop_front();
    }
    runDevice(*s, *slot, d);
  }
}

void prepare(dlc_session_s &s, Slot &slot) {
  if (slot.checker)
    slot.checker->reset();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.generation = ++s.generation;
  slot.failed.store(false, std::memory_order_relaxed);
  dlc_status_free(slot.error);
  slot.error = nullptr;
  slot.remaining = s.activeDevices.size();
  slot.start = slot.end = Clock::now();
}

void enqueue(dlc_session_s &s, Slot &slot, uint32_t d) {
  Worker &w = *s.workers[d];
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    w.queue.push_back(&slot);
  }
  w.cv.notify_one();
}

} // namespace

namespace dlc::rt {

void startWorkers(dlc_session_s &s, bool includingInline) {
  s.workers.resize(s.bindings.size());
  for (uint32_t d : s.activeDevices) {
    if (s.workers[d] || (!includingInline && int64_t(d) == s.inlineDevice))
      continue;
    s.workers[d] = std::make_unique<Worker>();
    s.workers[d]->thread = std::thread(workerLoop, &s, d);
  }
}

void stopWorkers(dlc_session_s &s) {
  for (auto &w : s.workers) {
    if (!w)
      continue;
    {
      std::lock_guard<std::mutex> lock(w->mutex);
      w->stop = true;
    }
    w->cv.notify_one();
    w->thread.join();
  }
  s.workers.clear();
}

void submit(dlc_session_s &s, Slot &slot) {
  startWorkers(s, /*includingInline=*/true);
  prepare(s, slot);
  for (uint32_t d : s.activeDevices)
    enqueue(s, slot, d);
}

dlc_status_t runSync(dlc_session_s &s, Slot &slot) {
  prepare(s, slot);
  for (uint32_t d : s.activeDevices)
    if (int64_t(d) != s.inlineDevice)
      enqueue(s, slot, d);
  if (s.inlineDevice >= 0)
    runDevice(s, slot, uint32_t(s.inlineDevice));
  return finish(s, slot);
}

dlc_status_t finish(dlc_session_s &s, Slot &slot) {
  dlc_status_t status;
  Clock::time_point start, end;
  {
    std::unique_lock<std::mutex> lock(slot.mutex);
    slot.cv.wait(lock, [&] { return slot.remaining == 0; });
    status = slot.error;
    slot.error = nullptr;
    start = slot.start;
    end = slot.end;
  }
  // Runs end in submission order: the union of their intervals grows at
  // the end only.
  Clock::time_point from = std::max(start, s.lastEnd);
  if (end > from)
    s.activeNs += uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - from)
            .count());
  s.lastEnd = std::max(s.lastEnd, end);
  return status;
}

} // namespace dlc::rt
