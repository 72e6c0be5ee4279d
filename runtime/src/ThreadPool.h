//===- ThreadPool.h - the CPU kernels' parallel_for ----------------------===//
//
// One pool per process, shared by every session and stream: a caller of
// parallelFor always works on its own loop, and idle workers join whichever
// loops are open, so several streams' kernels (the CPU's and simulated GPUs'
// host code) share the cores instead of each bringing its own threads. At
// most `capacity` threads (callers in parallelFor plus joined workers) work
// at once, capacity = workers + 1: no oversubscription from the pool.
//
// A model's kernels open a loop every few tens of microseconds, so an idle
// worker spins for a while (50 us, or DLC_SPIN_US) before it sleeps on the condition
// variable, and a caller waits for its helpers' last indices spinning too:
// waking a sleeping thread costs a futex call and a reschedule, tens of
// microseconds on a busy machine (MobileNetV2 at 2 threads spent more in
// wake-ups than its small kernels gained).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_THREADPOOL_H
#define DLC_RUNTIME_THREADPOOL_H

#include "dlc/parallel.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace dlc::rt {

class ThreadPool {
public:
  /// How long an idle worker, or a caller waiting for its helpers, spins
  /// before it blocks unless told otherwise (ThreadPool.cpp says why).
  static constexpr std::chrono::microseconds kDefaultSpin{50};

  /// `spin`: that time for this pool (0: block at once).
  explicit ThreadPool(int workers = 0, std::chrono::microseconds spin = kDefaultSpin);
  ~ThreadPool(); // Joins the workers; no parallelFor may be running.
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// The process's pool (never destroyed: sessions may outlive statics).
  static ThreadPool &process();

  /// Grows the pool so that `threads` threads (the caller and threads - 1
  /// workers) can work on one loop; capped at 256.
  void reserve(int threads);
  int workerCount();

  /// body(closure, i) for i in [0, n), on the caller and at most
  /// maxThreads - 1 workers; serial when maxThreads <= 1.
  void parallelFor(int64_t n, dlc_parallel_body_t body, void *closure,
                   int maxThreads);

  /// Loops that ran on more than one thread (for tests).
  uint64_t sharedLoops() const { return shared.load(std::memory_order_relaxed); }
  /// Workers asleep on the condition variable (for tests).
  int sleepingWorkers();

  /// A model run on more than one thread is in flight (RunScope, from the
  /// executor) or has ended: while any is, idle workers keep spinning
  /// (yielding after the busy part) instead of sleeping, and those asleep
  /// are woken when the first begins, so that a run's first loop, and loops
  /// after a serial stretch longer than the spin, find them awake. This is
  /// what ORT's pool does during Run. MobileNetV2 at two threads on an Intel
  /// Xeon: its first kernel (the stem) 231 -> 196 us, the run 1.5-2% faster.
  void beginRun();
  void endRun();
  class RunScope {
  public:
    explicit RunScope(ThreadPool *pool) : pool(pool) {
      if (pool)
        pool->beginRun();
    }
    ~RunScope() {
      if (pool)
        pool->endRun();
    }
    RunScope(const RunScope &) = delete;
    RunScope &operator=(const RunScope &) = delete;

  private:
    ThreadPool *pool;
  };

private:
  /// One thread's contiguous share of a loop's indices, [next, end): its
  /// owner claims from the front, and so do threads done with their own.
  struct alignas(64) Range {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };
  static constexpr int kMaxRanges = 8;
  struct Job {
    int64_t n;
    dlc_parallel_body_t body;
    void *closure;
    int maxHelpers;
    /// Indices claimed at a time (ThreadPool.cpp, kClaimsPerThread).
    int64_t grain = 1;
    /// The indices split evenly over the threads expected (the caller and
    /// its helpers, at most kMaxRanges ranges).
    Range ranges[kMaxRanges];
    int rangeCount = 1;
    // Changed under `mutex`; read without it by the caller spinning.
    std::atomic<int> helpers{0};
    bool hasWork() const;
  };
  /// Runs indices of `job` as participant `id` (the caller is 0): its own
  /// range first, then what is left of the others'.
  static void work(Job &job, int id);
  Job *findJob(); // Under `mutex`.
  void workerMain();

  std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<Job *> jobs;
  std::vector<std::thread> threads;
  int active = 0;   // Threads inside a job (callers and helpers).
  int sleeping = 0; // Workers waiting on `wake` (under `mutex`).
  // Set under `mutex`; also read without it by spinning workers.
  std::atomic<bool> stopping{false};
  // Runs in flight (beginRun/endRun); changed without `mutex` but for the
  // first begin's wake-up, read by spinning and sleeping workers.
  std::atomic<int> runs{0};
  // Bumped (under `mutex`) whenever a job is posted or a slot frees: what a
  // spinning worker watches.
  std::atomic<uint64_t> posted{0};
  std::atomic<uint64_t> shared{0};
  const std::chrono::microseconds spin;
};

/// DLC_SPIN_US's value: microseconds, 0 to 1000000; nullopt when it is not
/// one. The process's pool spins that long (default 50; 0 suits a machine
/// whose cores are shared with other busy processes).
std::optional<std::chrono::microseconds> parseSpinMicros(const char *text);

/// Threads a parallel_for on this thread may use: the running session's
/// thread_count, set by the executor around each device's program; 1
/// (serial) elsewhere.
int threadLimit();
class ThreadLimitScope {
public:
  explicit ThreadLimitScope(int limit);
  ~ThreadLimitScope();

private:
  int saved;
};

/// The table handed to kernel libraries' dlc_set_parallel_runtime: the
/// process pool, limited by threadLimit().
const dlc_parallel_api *parallelApi();

/// What thread_count 0 means: every core this process may run on.
int defaultThreadCount();

} // namespace dlc::rt

#endif // DLC_RUNTIME_THREADPOOL_H
