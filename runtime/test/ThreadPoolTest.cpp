//===- ThreadPoolTest.cpp - the kernels' parallel_for pool ---------------===//
//
// Run under ThreadSanitizer by tools/test.sh: every index once, the callers'
// participation, workers joining loops whether spinning or asleep, several
// callers sharing the workers, limits, and a session
// whose kernel library uses the pool through dlc_set_parallel_runtime.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "ThreadPool.h"
#include "dlc/runtime.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <set>
#include <thread>
#include <vector>

using namespace dlc::rt;
using namespace dlc::test;

namespace {

struct Counts {
  std::vector<std::atomic<int>> hits;
  explicit Counts(int64_t n) : hits(n) {}
};

void countBody(void *closure, int64_t i) {
  static_cast<Counts *>(closure)->hits[i].fetch_add(1);
}

TEST(ThreadPool, EveryIndexOnce) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.workerCount(), 3);
  for (int64_t n : {0, 1, 2, 7, 1000}) {
    Counts c(n);
    pool.parallelFor(n, countBody, &c, 4);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(c.hits[i].load(), 1) << "n " << n << " index " << i;
  }
}

// Two indices that each wait for the other: only done when a worker joins
// the caller, so this fails (times out) if the pool never runs in parallel.
struct Rendezvous {
  std::atomic<int> arrived{0};
  std::atomic<bool> met{false};
  std::mutex m;
  std::set<std::thread::id> ids;
};
void rendezvousBody(void *closure, int64_t) {
  auto *r = static_cast<Rendezvous *>(closure);
  {
    std::lock_guard<std::mutex> lock(r->m);
    r->ids.insert(std::this_thread::get_id());
  }
  r->arrived.fetch_add(1);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (r->arrived.load() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  if (r->arrived.load() >= 2)
    r->met = true;
}

TEST(ThreadPool, CallerAndWorkerRunTogether) {
  ThreadPool pool(1);
  Rendezvous r;
  pool.parallelFor(2, rendezvousBody, &r, 2);
  EXPECT_TRUE(r.met.load());
  EXPECT_EQ(r.ids.size(), 2u);
  EXPECT_EQ(pool.sharedLoops(), 1u);
}

// Each thread starts on its own contiguous share: the caller at index 0,
// the helper at n / 2, not at the next index after the caller's (threads
// taking turns along a loop share the cache lines where neighbouring rows
// meet). Index 0 holds the caller until the helper has run an index.
struct FirstIndices {
  std::thread::id caller;
  std::atomic<int64_t> helperFirst{-1};
  std::atomic<int> helperRan{0};
};
void firstIndexBody(void *closure, int64_t i) {
  auto *f = static_cast<FirstIndices *>(closure);
  if (std::this_thread::get_id() != f->caller) {
    int64_t none = -1;
    f->helperFirst.compare_exchange_strong(none, i);
    f->helperRan.fetch_add(1);
    return;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (i == 0 && f->helperRan.load() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
}

TEST(ThreadPool, ThreadsStartOnContiguousShares) {
  ThreadPool pool(1);
  FirstIndices f;
  f.caller = std::this_thread::get_id();
  pool.parallelFor(64, firstIndexBody, &f, 2);
  EXPECT_EQ(f.helperFirst.load(), 32);
  Counts c(64);
  pool.parallelFor(64, countBody, &c, 2);
  for (int64_t i = 0; i < 64; ++i)
    ASSERT_EQ(c.hits[i].load(), 1) << "index " << i;
}

// Loops back to back (a worker still spinning from the last one picks the
// next up) and after an idle gap well past the spin (the worker has gone to
// sleep and is woken): each needs the worker to join, so a lost wake-up
// times out here.
TEST(ThreadPool, WorkersJoinWhetherSpinningOrAsleep) {
  ThreadPool pool(1);
  for (int round = 0; round < 6; ++round) {
    if (round % 2)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Rendezvous r;
    pool.parallelFor(2, rendezvousBody, &r, 2);
    EXPECT_TRUE(r.met.load()) << "round " << round;
  }
  EXPECT_EQ(pool.sharedLoops(), 6u);
}

// DLC_SPIN_US=0: workers and callers block at once instead of spinning;
// loops still get their worker, asleep every time.
TEST(ThreadPool, NoSpinStillShares) {
  ThreadPool pool(1, std::chrono::microseconds(0));
  for (int round = 0; round < 4; ++round) {
    Rendezvous r;
    pool.parallelFor(2, rendezvousBody, &r, 2);
    EXPECT_TRUE(r.met.load()) << "round " << round;
  }
  EXPECT_EQ(pool.sharedLoops(), 4u);
}

// A run in flight keeps the workers awake (ThreadPool::beginRun): with no
// spin at all a worker sleeps at once; a run's start wakes it, it stays
// awake through the run and through loops in it, and sleeps again after.
bool eventually(const std::function<bool()> &condition) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST(ThreadPool, WorkersStayAwakeThroughARun) {
  ThreadPool pool(1, std::chrono::microseconds(0));
  ASSERT_TRUE(eventually([&] { return pool.sleepingWorkers() == 1; }));
  {
    ThreadPool::RunScope run(&pool);
    ASSERT_TRUE(eventually([&] { return pool.sleepingWorkers() == 0; }));
    Rendezvous r;
    pool.parallelFor(2, rendezvousBody, &r, 2);
    EXPECT_TRUE(r.met.load());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(pool.sleepingWorkers(), 0);
    // A nested run (another device's) ends; the outer one keeps them awake.
    { ThreadPool::RunScope inner(&pool); }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(pool.sleepingWorkers(), 0);
  }
  EXPECT_TRUE(eventually([&] { return pool.sleepingWorkers() == 1; }));
  Rendezvous r;
  pool.parallelFor(2, rendezvousBody, &r, 2);
  EXPECT_TRUE(r.met.load());
}

TEST(ThreadPool, SpinSetting) {
  EXPECT_EQ(parseSpinMicros("0"), std::chrono::microseconds(0));
  EXPECT_EQ(parseSpinMicros("200"), std::chrono::microseconds(200));
  EXPECT_EQ(parseSpinMicros("1000000"), std::chrono::microseconds(1000000));
  for (const char *bad : {"", "-1", "1000001", "50us", "x"})
    EXPECT_EQ(parseSpinMicros(bad), std::nullopt) << bad;
  EXPECT_EQ(parseSpinMicros(nullptr), std::nullopt);
}

void idBody(void *closure, int64_t) {
  auto *r = static_cast<Rendezvous *>(closure);
  std::lock_guard<std::mutex> lock(r->m);
  r->ids.insert(std::this_thread::get_id());
}

TEST(ThreadPool, OneThreadIsSerialOnTheCaller) {
  ThreadPool pool(2);
  Rendezvous r;
  pool.parallelFor(100, idBody, &r, 1);
  EXPECT_EQ(r.ids, std::set<std::thread::id>{std::this_thread::get_id()});
  EXPECT_EQ(pool.sharedLoops(), 0u);
}

TEST(ThreadPool, ManyCallersShareTheWorkers) {
  ThreadPool pool(2);
  constexpr int kCallers = 4, kLoops = 200, kN = 64;
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&] {
      for (int l = 0; l < kLoops; ++l) {
        Counts c(kN);
        pool.parallelFor(kN, countBody, &c, 3);
        for (int i = 0; i < kN; ++i)
          if (c.hits[i].load() != 1)
            wrong.fetch_add(1);
      }
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadPool, ApiUsesTheThreadsLimit) {
  const dlc_parallel_api *api = parallelApi();
  ASSERT_EQ(api->version, unsigned(DLC_PARALLEL_API_VERSION));
  EXPECT_EQ(threadLimit(), 1); // Outside a session's stream: serial.
  {
    ThreadLimitScope scope(3);
    EXPECT_EQ(threadLimit(), 3);
    Counts c(50);
    ThreadPool::process().reserve(3);
    api->parallel_for(api->ctx, 50, countBody, &c);
    for (int i = 0; i < 50; ++i)
      ASSERT_EQ(c.hits[i].load(), 1);
  }
  EXPECT_EQ(threadLimit(), 1);
  EXPECT_GE(defaultThreadCount(), 1);
}

// The toy model's add kernel runs its 6 elements through parallel_for (the
// test library exports dlc_set_parallel_runtime): same results at 1 and 4
// threads, and the pool grows to the session's thread_count.
TEST(ThreadPool, SessionsRunKernelsOnThePool) {
  dlc::Model model;
  std::string bytes = buildArtifact(toy());
  DLC_ASSERT_OK(
      dlc::Model::loadMemory(bytes.data(), bytes.size(), model).release());
  for (int threads : {1, 4}) {
    dlc_session_options_t options;
    dlc_session_options_initialize(&options);
    options.thread_count = threads;
    dlc::Session session;
    DLC_ASSERT_OK(dlc::Session::create(model, session, &options).release());
    std::vector<float> x(6), y(6), sum;
    for (int i = 0; i < 6; ++i)
      x[i] = float(i), y[i] = float(10 * i);
    DLC_ASSERT_OK(session.setInput(0, x).release());
    DLC_ASSERT_OK(session.setInput(1, y).release());
    DLC_ASSERT_OK(session.setInput(2, std::vector<int32_t>{1, 2, 3, 4}).release());
    for (int r = 0; r < 20; ++r)
      DLC_ASSERT_OK(session.run().release());
    DLC_ASSERT_OK(session.output(1, sum).release());
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(sum[i], float(11 * i)) << threads << " threads";
  }
  EXPECT_GE(ThreadPool::process().workerCount(), 3);
}

} // namespace
