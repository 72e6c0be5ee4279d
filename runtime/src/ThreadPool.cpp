//===- ThreadPool.cpp - a shared pool, callers participating -------------===//

#include "ThreadPool.h"
#include "ScratchCache.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sched.h>

namespace dlc::rt {

namespace {
constexpr int kMaxThreads = 256;
thread_local int tlLimit = 1;

/// How long an idle worker, or a caller waiting for its helpers, spins
/// before it blocks, and how much of it is busy (the rest yields the core
/// at each turn, so that threads preempted on a loaded machine get it).
/// MobileNetV2 at 2 threads: 2.6 ms without spinning, 2.24-2.31 ms with;
/// with a CPU hog beside it, busy spinning all the way cost 5.0 ms against
/// 3.7 ms yielding after 10 us.
constexpr std::chrono::microseconds kSpin = ThreadPool::kDefaultSpin, kBusySpin{10};
constexpr int64_t kMaxSpinMicros = 1000000;
constexpr int64_t kClaimsPerThread = 16;

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Spins until `ready()`, or until `spin` has passed and `longer()` is
/// false; whether it became ready.
template <typename Ready, typename Longer>
bool spinUntil(std::chrono::microseconds spin, Ready ready, Longer longer) {
  if (spin.count() == 0 && !longer())
    return ready();
  auto start = std::chrono::steady_clock::now();
  bool yielding = false;
  for (int i = 0;; ++i) {
    if (ready())
      return true;
    if (yielding)
      sched_yield();
    else
      cpuRelax();
    if (i % 64 == 63) {
      auto spent = std::chrono::steady_clock::now() - start;
      if (spent > spin && !longer())
        return ready();
      yielding = spent > kBusySpin;
    }
  }
}

template <typename Ready> bool spinUntil(std::chrono::microseconds spin, Ready ready) {
  return spinUntil(spin, ready, [] { return false; });
}

void parallelForEntry(void *ctx, int64_t n, dlc_parallel_body_t body,
                      void *closure) {
  static_cast<ThreadPool *>(ctx)->parallelFor(n, body, closure, threadLimit());
}

void *scratchAllocEntry(uint64_t bytes) {
  void *block = ScratchCache::process().allocate(bytes);
  // A kernel has no way to report failure: like malloc's null in its code,
  // this ends the process, but with a message.
  if (!block) {
    std::fprintf(stderr, "dlc runtime: out of memory allocating %llu bytes of kernel scratch\n",
                 static_cast<unsigned long long>(bytes));
    std::abort();
  }
  return block;
}

void scratchFreeEntry(void *block) { ScratchCache::process().release(block); }
} // namespace

std::optional<std::chrono::microseconds> parseSpinMicros(const char *text) {
  if (!text || !*text)
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (errno || *end || v < 0 || v > kMaxSpinMicros)
    return std::nullopt;
  return std::chrono::microseconds(v);
}

static std::chrono::microseconds spinFromEnvironment() {
  const char *text = std::getenv("DLC_SPIN_US");
  if (!text)
    return kSpin;
  if (std::optional<std::chrono::microseconds> spin = parseSpinMicros(text))
    return *spin;
  std::fprintf(stderr,
               "dlc runtime: ignoring DLC_SPIN_US='%s' (microseconds an idle worker spins: "
               "0 to %lld); spinning %lld us\n",
               text, static_cast<long long>(kMaxSpinMicros),
               static_cast<long long>(kSpin.count()));
  return kSpin;
}

ThreadPool::ThreadPool(int workers, std::chrono::microseconds spin) : spin(spin) {
  reserve(workers + 1);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping.store(true, std::memory_order_relaxed);
  }
  wake.notify_all();
  for (std::thread &t : threads)
    t.join();
}

ThreadPool &ThreadPool::process() {
  static ThreadPool *pool = new ThreadPool(0, spinFromEnvironment());
  return *pool;
}

void ThreadPool::reserve(int wanted) {
  wanted = std::min(wanted, kMaxThreads);
  std::lock_guard<std::mutex> lock(mutex);
  while (static_cast<int>(threads.size()) + 1 < wanted)
    threads.emplace_back([this] { workerMain(); });
}

int ThreadPool::workerCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return static_cast<int>(threads.size());
}

bool ThreadPool::Job::hasWork() const {
  for (int r = 0; r < rangeCount; ++r)
    if (ranges[r].next.load(std::memory_order_relaxed) < ranges[r].end)
      return true;
  return false;
}

// Each thread works through a contiguous share of the indices before it
// helps with the others': neighbouring indices usually write neighbouring
// memory (a convolution's output rows), and threads taking turns along the
// loop shared the cache lines where the rows meet (a 3x3 64-channel 56x56
// convolution on a 2-core Xeon: 1.31x faster on two threads than on one
// when indices were claimed in turn, 1.5x with contiguous shares).
void ThreadPool::work(Job &job, int id) {
  for (int k = 0; k < job.rangeCount; ++k) {
    Range &range = job.ranges[(id + k) % job.rangeCount];
    for (int64_t begin;
         (begin = range.next.fetch_add(job.grain, std::memory_order_relaxed)) < range.end;) {
      int64_t end = std::min(begin + job.grain, range.end);
      for (int64_t i = begin; i < end; ++i)
        job.body(job.closure, i);
    }
  }
}

ThreadPool::Job *ThreadPool::findJob() {
  // Capacity counts the callers too: a worker joins only while fewer than
  // workers + 1 threads are busy in loops.
  if (active >= static_cast<int>(threads.size()) + 1)
    return nullptr;
  for (Job *job : jobs)
    if (job->helpers < job->maxHelpers && job->hasWork())
      return job;
  return nullptr;
}

void ThreadPool::workerMain() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    Job *job = nullptr;
    if (!stopping && !(job = findJob())) {
      // Spin while loops keep being posted (or slots freed), then sleep
      // until one is.
      uint64_t seen = posted.load(std::memory_order_acquire);
      lock.unlock();
      bool moved = spinUntil(
          spin,
          [&] {
            return posted.load(std::memory_order_acquire) != seen ||
                   stopping.load(std::memory_order_relaxed);
          },
          [&] { return runs.load(std::memory_order_relaxed) > 0; });
      lock.lock();
      if (moved)
        continue;
      ++sleeping;
      wake.wait(lock, [&] {
        return stopping || (job = findJob()) != nullptr ||
               runs.load(std::memory_order_relaxed) > 0;
      });
      --sleeping;
      if (!stopping && !job)
        continue; // A run began: spin through it.
    }
    if (stopping)
      return;
    int id = job->helpers.fetch_add(1, std::memory_order_relaxed) + 1;
    if (id == 1)
      shared.fetch_add(1, std::memory_order_relaxed);
    ++active;
    lock.unlock();
    work(*job, id);
    lock.lock();
    --active;
    if (job->helpers.fetch_sub(1, std::memory_order_release) == 1)
      done.notify_all();
    // A slot freed: another loop may now take a worker.
    posted.fetch_add(1, std::memory_order_release);
    if (sleeping > 0)
      wake.notify_one();
  }
}

void ThreadPool::parallelFor(int64_t n, dlc_parallel_body_t body,
                             void *closure, int maxThreads) {
  if (n <= 0)
    return;
  int helpers = static_cast<int>(
      std::min<int64_t>(std::max(maxThreads, 1) - 1, n - 1));
  if (helpers > 0) {
    std::lock_guard<std::mutex> lock(mutex);
    helpers = std::min(helpers, static_cast<int>(threads.size()));
  }
  if (helpers == 0) {
    for (int64_t i = 0; i < n; ++i)
      body(closure, i);
    return;
  }
  Job job;
  job.n = n;
  job.body = body;
  job.closure = closure;
  job.maxHelpers = helpers;
  // Indices are claimed a few at a time: each claim moves the counter's
  // cache line between cores (MobileNetV2's last pointwise kernel, 256 tiny
  // chunks: 6.4 us on one thread, 43 us on two claiming one at a time, on a
  // 2-core Xeon VM), and a loop still splits into kClaimsPerThread claims
  // per thread, enough to even out a late helper.
  job.grain = std::max<int64_t>(1, n / (kClaimsPerThread * (helpers + 1)));
  job.rangeCount = std::min(helpers + 1, kMaxRanges);
  for (int r = 0; r < job.rangeCount; ++r) {
    job.ranges[r].next.store(n * r / job.rangeCount, std::memory_order_relaxed);
    job.ranges[r].end = n * (r + 1) / job.rangeCount;
  }
  bool wakeSleepers;
  {
    std::lock_guard<std::mutex> lock(mutex);
    jobs.push_back(&job);
    ++active;
    posted.fetch_add(1, std::memory_order_release);
    wakeSleepers = sleeping > 0;
  }
  if (wakeSleepers)
    wake.notify_all();
  work(job, 0);
  std::unique_lock<std::mutex> lock(mutex);
  --active;
  jobs.erase(std::find(jobs.begin(), jobs.end(), &job));
  // Every index is claimed, and no worker joins the job any more: wait for
  // the helpers still running theirs, spinning first.
  if (job.helpers.load(std::memory_order_acquire) > 0) {
    lock.unlock();
    spinUntil(spin, [&] { return job.helpers.load(std::memory_order_acquire) == 0; });
    lock.lock();
    done.wait(lock, [&] { return job.helpers.load(std::memory_order_acquire) == 0; });
  }
  // A slot freed: another loop may now take a worker.
  posted.fetch_add(1, std::memory_order_release);
  bool wakeOne = sleeping > 0;
  lock.unlock();
  if (wakeOne)
    wake.notify_one();
}

int ThreadPool::sleepingWorkers() {
  std::lock_guard<std::mutex> lock(mutex);
  return sleeping;
}

void ThreadPool::beginRun() {
  if (runs.fetch_add(1, std::memory_order_relaxed) > 0)
    return;
  // Under `mutex`: a worker checks `runs` under it before it sleeps.
  std::lock_guard<std::mutex> lock(mutex);
  if (sleeping > 0)
    wake.notify_all();
}

void ThreadPool::endRun() { runs.fetch_sub(1, std::memory_order_relaxed); }

int threadLimit() { return tlLimit; }

ThreadLimitScope::ThreadLimitScope(int limit) : saved(tlLimit) {
  tlLimit = limit;
}
ThreadLimitScope::~ThreadLimitScope() { tlLimit = saved; }

const dlc_parallel_api *parallelApi() {
  static const dlc_parallel_api api = {DLC_PARALLEL_API_VERSION,
                                       &ThreadPool::process(),
                                       parallelForEntry, scratchAllocEntry,
                                       scratchFreeEntry};
  return &api;
}

int defaultThreadCount() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace dlc::rt
