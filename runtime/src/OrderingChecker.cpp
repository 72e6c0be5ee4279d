//===- OrderingChecker.cpp - vector clocks over the step lists ------------===//

#include "OrderingChecker.h"
#include "Error.h"
#include "FlatUtil.h"

#include <algorithm>

using namespace dlc::rt;

OrderingChecker::OrderingChecker(const dlc_model_s &model)
    : model(model), deviceCount(model.deviceNames.size()) {
  const fb::Model &m = model.artifact->model();
  uint32_t n = count(m.buffers());
  hostWritten.assign(n, false);
  for (uint32_t i = 0; i < count(m.inputs()); ++i)
    hostWritten[m.inputs()->Get(i)->buffer()] = true;
  // Overlapping arena ranges, by a sweep over each device's buffers sorted
  // by offset.
  overlaps.resize(n);
  std::vector<uint32_t> order;
  for (uint32_t b = 0; b < n; ++b) {
    overlaps[b].push_back(b);
    // Constants, and state the last run (or the session's start) wrote
    // (which, in an arena, may have views).
    hostWritten[b] = hostWritten[b] || m.buffers()->Get(b)->persistent();
    if (m.buffers()->Get(b)->constant_segment() >= 0)
      hostWritten[b] = true;
    else if (m.buffers()->Get(b)->size())
      order.push_back(b);
  }
  auto key = [&](uint32_t b) {
    const fb::Buffer &x = *m.buffers()->Get(b);
    return std::make_pair(x.device(), x.offset());
  };
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  for (size_t i = 0; i < order.size(); ++i) {
    const fb::Buffer &a = *m.buffers()->Get(order[i]);
    for (size_t j = i + 1; j < order.size(); ++j) {
      const fb::Buffer &b = *m.buffers()->Get(order[j]);
      if (b.device() != a.device() || b.offset() >= a.offset() + a.size())
        break;
      overlaps[order[i]].push_back(order[j]);
      overlaps[order[j]].push_back(order[i]);
    }
  }
  // A buffer with exactly another's bytes is a view of it (the compiler makes
  // reshapes, and copies within a device, views): writing one writes both, and
  // a view of an input holds the input.
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t other : overlaps[b])
      if (sameRange(b, other) && hostWritten[other])
        hostWritten[b] = true;
  clocks.assign(deviceCount, std::vector<uint64_t>(deviceCount, 0));
  eventClocks.assign(m.event_count(), std::vector<uint64_t>(deviceCount, 0));
  shadows.resize(n);
  for (Shadow &s : shadows) {
    s.readClock.assign(deviceCount, 0);
    s.readStep.assign(deviceCount, 0);
  }
}

void OrderingChecker::reset() {
  for (auto &c : clocks)
    std::fill(c.begin(), c.end(), 0);
  for (size_t b = 0; b < shadows.size(); ++b) {
    Shadow &s = shadows[b];
    s.state = hostWritten[b] ? State::Host : State::Unwritten;
    std::fill(s.readClock.begin(), s.readClock.end(), 0);
  }
}

void OrderingChecker::tick(uint32_t device, uint32_t index) {
  clocks[device][device] = uint64_t(index) + 1;
}

bool OrderingChecker::ordered(uint32_t device, uint32_t otherDevice,
                              uint64_t clock) const {
  return device == otherDevice || clocks[device][otherDevice] >= clock;
}

std::string OrderingChecker::stepName(uint32_t device, uint32_t index) const {
  const fb::Model &m = model.artifact->model();
  std::string what;
  for (uint32_t s = 0; s < count(m.schedules()); ++s) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(s);
    if (sched.device() != device)
      continue;
    const fb::Step &step = *sched.steps()->Get(index);
    if (step.kind() == fb::StepKind::Call)
      what = " (call '" + str(m.kernels()->Get(step.kernel())->name()) + "')";
    else if (step.kind() == fb::StepKind::Copy)
      what = " (copy)";
  }
  return "step " + std::to_string(index) + what + " of " +
         model.deviceNames[device];
}

bool OrderingChecker::sameRange(uint32_t a, uint32_t b) const {
  const fb::Buffer &x = *model.artifact->model().buffers()->Get(a);
  const fb::Buffer &y = *model.artifact->model().buffers()->Get(b);
  return x.device() == y.device() && x.offset() == y.offset() &&
         x.size() == y.size() && x.constant_segment() == y.constant_segment();
}

std::string OrderingChecker::bufferName(uint32_t buffer) const {
  const fb::Buffer &b = *model.artifact->model().buffers()->Get(buffer);
  return "buffer " + std::to_string(buffer) + " ('" + str(b.name()) + "', " +
         model.deviceNames[b.device()] + ")";
}

dlc_status_t OrderingChecker::read(uint32_t device, uint32_t index,
                                   uint32_t buffer) {
  Shadow &s = shadows[buffer];
  auto fail = [&] {
    Error e(DLC_STATUS_DATA_LOSS);
    e << "model '" << model.artifact->name() << "': check-ordering: "
      << stepName(device, index) << " reads " << bufferName(buffer);
    return e;
  };
  switch (s.state) {
  case State::Unwritten:
    return fail() << " before any step wrote it in this run (a missing "
                     "WaitEvent, or a step out of order)";
  case State::Clobbered:
    return fail() << ", whose memory " << stepName(s.writerDevice, s.writerStep)
                  << " overwrote with " << bufferName(s.writerBuffer)
                  << " (a range reused while still in use)";
  case State::Written:
    if (!ordered(device, s.writerDevice, s.writerClock))
      return fail() << " written by " << stepName(s.writerDevice, s.writerStep)
                    << ", but no event orders the read after the write (a "
                       "missing WaitEvent)";
    break;
  case State::Host:
    break;
  }
  s.readClock[device] = clocks[device][device];
  s.readStep[device] = index;
  return nullptr;
}

dlc_status_t OrderingChecker::write(uint32_t device, uint32_t index,
                                    uint32_t buffer) {
  auto fail = [&] {
    Error e(DLC_STATUS_DATA_LOSS);
    e << "model '" << model.artifact->name() << "': check-ordering: "
      << stepName(device, index) << " writes " << bufferName(buffer);
    return e;
  };
  for (uint32_t other : overlaps[buffer]) {
    Shadow &s = shadows[other];
    if ((s.state == State::Written || s.state == State::Clobbered) &&
        !ordered(device, s.writerDevice, s.writerClock))
      return fail() << ", but " << stepName(s.writerDevice, s.writerStep)
                    << " writes " << bufferName(s.writerBuffer)
                    << " there and no event orders the two writes";
    for (uint32_t e = 0; e < deviceCount; ++e)
      if (e != device && s.readClock[e] > clocks[device][e])
        return fail() << " while " << stepName(e, s.readStep[e])
                      << " may still read " << bufferName(other)
                      << ": no event orders the write after that read";
  }
  for (uint32_t other : overlaps[buffer]) {
    Shadow &s = shadows[other];
    s.state = sameRange(other, buffer) ? State::Written : State::Clobbered;
    s.writerDevice = device;
    s.writerStep = index;
    s.writerBuffer = buffer;
    s.writerClock = clocks[device][device];
    std::fill(s.readClock.begin(), s.readClock.end(), 0);
  }
  return nullptr;
}

dlc_status_t OrderingChecker::step(uint32_t device, uint32_t index,
                                   const fb::Step &step) {
  tick(device, index);
  std::lock_guard<std::mutex> lock(mutex);
  uint32_t n = count(step.buffers());
  auto arg = [&](uint32_t j) { return step.buffers()->Get(j); };
  if (step.kind() == fb::StepKind::Copy) {
    DLC_RETURN_IF_ERROR(read(device, index, arg(0)));
    return write(device, index, arg(1));
  }
  if (step.output_count() == 0) {
    // Not stated: what is unwritten is an output.
    for (uint32_t j = 0; j < n; ++j) {
      State st = shadows[arg(j)].state;
      if (st == State::Unwritten || st == State::Clobbered)
        DLC_RETURN_IF_ERROR(write(device, index, arg(j)));
      else
        DLC_RETURN_IF_ERROR(read(device, index, arg(j)));
    }
    return nullptr;
  }
  uint32_t firstOutput = n - step.output_count();
  for (uint32_t j = 0; j < firstOutput; ++j)
    DLC_RETURN_IF_ERROR(read(device, index, arg(j)));
  for (uint32_t j = firstOutput; j < n; ++j)
    DLC_RETURN_IF_ERROR(write(device, index, arg(j)));
  return nullptr;
}

void OrderingChecker::record(uint32_t device, uint32_t index, uint32_t event) {
  tick(device, index);
  eventClocks[event] = clocks[device];
}

void OrderingChecker::wait(uint32_t device, uint32_t index, uint32_t event) {
  tick(device, index);
  for (size_t d = 0; d < deviceCount; ++d)
    clocks[device][d] = std::max(clocks[device][d], eventClocks[event][d]);
}
