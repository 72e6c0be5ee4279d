//===- Session.h - the object behind dlc_session_t ------------------------===//
//
// A session is the schedule turned into flat programs, one per device: every
// buffer index resolved once to a pointer, so that a stream only calls
// kernels, copies memory and records or waits for events. Everything a run
// mutates lives in a Slot (arenas, events, the run's status); a session has
// max_in_flight slots, so several runs can be in flight at once, each on its
// own activation memory.
//
// Threads: each device with steps has a stream (a Worker: one thread and a
// FIFO of slots to run), created with the session and parked on a condition
// variable between runs. dlc_session_run executes one device's program on
// the caller's thread (the "inline" device, the CPU's when it has steps) and
// queues the others; submitted runs queue every device.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_SESSION_H
#define DLC_RUNTIME_SESSION_H

#include "Model.h"
#include "OrderingChecker.h"
#include "cuda/CudaDevice.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace dlc::rt {

using Clock = std::chrono::steady_clock;

/// One device's memory: anonymous pages, page (so 64-byte) aligned.
struct Arena {
  uint8_t *base = nullptr;
  size_t size = 0;
  Arena() = default;
  Arena(const Arena &) = delete;
  ~Arena();
  /// Maps `bytes` (0: nothing); zeroed pages, or `fill` bytes when nonzero.
  dlc_status_t allocate(size_t bytes, int fill, const std::string &what);
};

enum class Binding : uint8_t { Cpu, SimGpu, CudaGpu };

/// One step resolved against one slot's memory.
struct Op {
  fb::StepKind kind;
  uint32_t index;           // In its device's list.
  const fb::Step *step;     // For the checker and traces.
  KernelFn fn = nullptr;    // Call.
  std::vector<void *> args; // Call: the kernel's buffers; Copy: src, dst.
  size_t bytes = 0;         // Copy (of a batched buffer: at the bound).
  /// 0.8, a Call compiled per unit of the batch: which arguments carry it
  /// and their bytes per unit; it runs once per unit, with those pointers
  /// advanced (in `unitArgs`, the scratch copy of `args`).
  std::vector<std::pair<uint32_t, size_t>> batchedArgs;
  std::vector<void *> unitArgs;
  /// Its body for chunkUnits units at once (null: none), called while that
  /// many units are left.
  KernelFn chunkFn = nullptr;
  int64_t chunkUnits = 0;
  /// A tail of at least this many units runs the chunk body too, when a
  /// whole chunk from its first unit fits `boundUnits` (0: never).
  int64_t chunkMinUnits = 0, boundUnits = 0;
  /// 0.9, a Call of a kernel sized at run time: called once with the run's
  /// size here (its last argument points at it; heap-held, so that the
  /// pointer outlives moves of the Op).
  std::unique_ptr<int64_t> runSize;
  /// 0.8, a Copy of batched buffers: bytes per unit (it moves the run's
  /// units); 0: `bytes`.
  size_t unitBytes = 0;
  /// Copy with sim_links: the least time the step takes (link latency +
  /// bytes / bandwidth), in nanoseconds; 0: no minimum.
  uint64_t minNs = 0;
  uint32_t event = 0;       // RecordEvent / WaitEvent.
  /// Simulated-GPU ranges about to be written: poisoned first, so that a
  /// step reading them before the write sees NaNs.
  std::vector<std::pair<uint8_t *, size_t>> poison;
  /// A Call on a real GPU, or a Copy with a real GPU at one end.
  std::unique_ptr<cuda::CudaOp> cuda;
};

/// An event of one slot: recorded when `generation` holds the run's number.
struct Event {
  std::atomic<uint64_t> generation{0};
};

/// The state of one run in flight.
struct Slot {
  std::vector<std::unique_ptr<Arena>> arenas; // By device.
  /// Real GPUs' arenas, events and staging buffers (declared before
  /// `programs`, whose ops point into it, so destroyed after them).
  std::unique_ptr<cuda::SlotMemory> gpu;
  std::vector<uint8_t *> buffers;             // By buffer (host view).
  std::vector<std::vector<Op>> programs;      // By device.
  std::unique_ptr<Event[]> events;
  std::unique_ptr<OrderingChecker> checker;   // check_ordering only.
  /// Outputs that live on a GPU, copied back to host memory after each
  /// synchronous run (64-byte aligned); null for CPU outputs.
  std::vector<std::unique_ptr<uint8_t, void (*)(void *)>> hostOutputs;

  // Written by the submitting thread before the run is queued.
  /// 0.8: the batch of each input carrying it, as last set (the bound at
  /// first; 0 for the others), and the run's batch (0: no symbolic batch).
  std::vector<int64_t> inputUnits;
  int64_t units = 0;
  uint64_t generation = 0;
  uint64_t ticket = 0;
  bool inFlight = false; // Submitted and not yet waited for.
  Clock::time_point start;

  std::mutex mutex; // Guards what follows; with `cv`, events and completion.
  std::condition_variable cv;
  size_t remaining = 0; // Devices still running this run.
  dlc_status_t error = nullptr; // The first failure.
  Clock::time_point end;
  std::atomic<bool> failed{false};

  ~Slot() { dlc_status_free(error); }
};

struct Span {
  uint8_t kind; // fb::StepKind.
  uint32_t step;
  uint64_t run;
  int64_t startNs, endNs; // From the session's creation.
  uint64_t bytes;
};

/// Per device; written by whichever thread runs the device's program (one
/// at a time: runs of a device are serialised), read between runs.
struct DeviceStats {
  uint64_t runs = 0, steps = 0, busyNs = 0, copyNs = 0, waitNs = 0,
           bytesCopied = 0;
  std::vector<Span> spans;
  /// By kernel index: calls and nanoseconds (profile only) on this device.
  std::vector<uint64_t> kernelCalls, kernelNs;
};

/// A device's stream: a thread and its queue of slots.
struct Worker {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Slot *> queue;
  bool stop = false;
  std::thread thread;
};

} // namespace dlc::rt

struct dlc_session_s {
  std::atomic<int> refs{1};
  dlc_model_t *model = nullptr;
  dlc_session_options_t options{};
  std::vector<dlc::rt::Binding> bindings;          // By device.
  /// By device: the real GPU a logical cuda:N is bound to (null otherwise).
  /// Declared before `slots`: destroyed after their memory is freed.
  std::vector<std::unique_ptr<dlc::rt::cuda::Device>> gpus;
  std::vector<uint32_t> eventRecorder; // By event: the recording device.
  std::vector<std::unique_ptr<dlc::rt::Arena>> constants; // Sim GPU copies.
  std::vector<std::unique_ptr<dlc::rt::Slot>> slots;
  std::vector<uint32_t> activeDevices; // Devices with steps.
  int64_t inlineDevice = -1;           // Runs on the caller in run().
  std::vector<std::unique_ptr<dlc::rt::Worker>> workers; // By device.
  int threads = 1; // A kernel's parallel_for threads (thread_count resolved).
  /// 0.8: the symbolic batch's bound (0: none), and the outputs' shapes at
  /// the last synchronous run's batch (dlc_session_output_info).
  int64_t batchBound = 0;
  std::vector<std::vector<int64_t>> outputShapes;

  uint64_t nextTicket = 0, oldestTicket = 0, generation = 0;
  dlc::rt::Clock::time_point created, lastEnd;
  uint64_t activeNs = 0;
  std::vector<dlc::rt::DeviceStats> stats; // By device.
  /// step_observer: its calls are serialised and numbered.
  std::mutex observerMutex;
  uint64_t observed = 0;

  ~dlc_session_s();
};

namespace dlc::rt {
/// Executor.cpp: starts the stream threads of the devices in
/// `activeDevices` (all of them, or all but the inline one).
void startWorkers(dlc_session_s &s, bool includingInline);
/// Runs `slot` synchronously (inline device on the caller).
dlc_status_t runSync(dlc_session_s &s, Slot &slot);
/// Queues `slot` on every active device's stream.
void submit(dlc_session_s &s, Slot &slot);
/// Waits for `slot` to finish; returns its status (ownership to caller).
dlc_status_t finish(dlc_session_s &s, Slot &slot);
/// Stops and joins the stream threads (no run may be queued).
void stopWorkers(dlc_session_s &s);
/// 0.8: bytes of one unit of the batch of buffer `b`, contiguous (0: it
/// has no batch, or its units are strided slices: unit_stride).
size_t unitBytes(const dlc_session_s &s, const fb::Buffer &b);
/// How far a per-unit Call advances `b`'s pointer per unit: unitBytes, or
/// the unit_stride of a buffer whose batch is off dim 0 (0: unbatched).
size_t unitStrideBytes(const dlc_session_s &s, const fb::Buffer &b);
/// The bytes of `b` a run of batch `units` uses (all of them unbatched).
size_t activeBytes(const dlc_session_s &s, const fb::Buffer &b, int64_t units);
} // namespace dlc::rt

#endif // DLC_RUNTIME_SESSION_H
