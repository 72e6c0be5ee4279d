//===- OrderingChecker.h - --check-ordering: reads after their writes -----===//
//
// Verifies, while a session runs, that the step lists order every access to
// device memory: each read after the write it reads, each write after the
// reads and writes of the memory it overwrites. Streams run concurrently, so
// real time proves nothing; the checker tracks happens-before instead, with
// vector clocks: device d's clock counts its steps, a RecordEvent stores the
// recorder's clock in the event, a WaitEvent joins it into the waiter's.
// Step (d, i) is ordered before whatever device e does once e's clock holds
// d's entry >= i + 1. Every buffer keeps its last writer (device, step,
// clock) and the clock of its latest read per device; a write also checks
// (and invalidates) the buffers whose arena ranges overlap it, which is how
// reuse of a freed range is checked. The verdicts do not depend on how the
// threads interleave: an unordered pair is reported whichever runs first.
//
// Which buffers a Call reads and writes: Step.output_count (0.2). When an
// artifact does not state it (0), an argument that no step has written in
// this run counts as written, any other as read.
//
// Cost: a mutex and O(overlapping buffers x devices) per step; a checking
// mode, off by default.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_ORDERINGCHECKER_H
#define DLC_RUNTIME_ORDERINGCHECKER_H

#include "Model.h"

#include <mutex>
#include <vector>

namespace dlc::rt {

class OrderingChecker {
public:
  explicit OrderingChecker(const dlc_model_s &model);
  /// Before each run, with no device running.
  void reset();
  /// Device `device` is about to run step `index` (a Call or a Copy) of its
  /// list: checks its reads and writes; an error names the step, the buffer
  /// and both devices.
  dlc_status_t step(uint32_t device, uint32_t index, const fb::Step &step);
  /// Before the event is published to waiters (and on the recorder's thread).
  void record(uint32_t device, uint32_t index, uint32_t event);
  /// After the wait returned (on the waiter's thread).
  void wait(uint32_t device, uint32_t index, uint32_t event);

private:
  enum class State : uint8_t { Unwritten, Host, Written, Clobbered };
  struct Shadow {
    State state = State::Unwritten;
    uint32_t writerDevice = 0, writerStep = 0, writerBuffer = 0;
    uint64_t writerClock = 0;
    std::vector<uint64_t> readClock; // By device: latest read's clock.
    std::vector<uint32_t> readStep;  // By device: that read's step.
  };
  void tick(uint32_t device, uint32_t index);
  bool ordered(uint32_t device, uint32_t otherDevice, uint64_t clock) const;
  dlc_status_t read(uint32_t device, uint32_t index, uint32_t buffer);
  dlc_status_t write(uint32_t device, uint32_t index, uint32_t buffer);
  std::string stepName(uint32_t device, uint32_t index) const;
  /// Whether two buffers are the same bytes (one a view of the other).
  bool sameRange(uint32_t a, uint32_t b) const;
  std::string bufferName(uint32_t buffer) const;

  const dlc_model_s &model;
  size_t deviceCount;
  std::vector<bool> hostWritten;              // Inputs and constants.
  std::vector<std::vector<uint32_t>> overlaps; // By buffer, itself included.
  // clocks[d] is touched by device d's thread only; eventClocks[e] is
  // written before the event is published and read after it was observed.
  std::vector<std::vector<uint64_t>> clocks, eventClocks;
  std::mutex mutex; // Guards shadows.
  std::vector<Shadow> shadows;
};

} // namespace dlc::rt

#endif // DLC_RUNTIME_ORDERINGCHECKER_H
