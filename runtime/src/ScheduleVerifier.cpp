//===- ScheduleVerifier.cpp - vector clocks over a symbolic run -----------===//

#include "ScheduleVerifier.h"
#include "Error.h"
#include "FlatUtil.h"

#include <algorithm>
#include <map>
#include <sstream>

using namespace dlc::rt;

namespace {

constexpr uint32_t kNone = UINT32_MAX;

/// The last write of one elementary interval of an arena, and the latest read
/// of it per device since.
struct Shadow {
  uint32_t writer = kNone; // The buffer written; kNone: not yet in this run.
  bool host = false;       // Written by the host before the run (an input).
  uint32_t writerDevice = 0, writerStep = 0;
  uint64_t writerClock = 0;
  std::vector<uint64_t> readClock; // By device: 0 when none since the write.
  std::vector<uint32_t> readStep, readBuffer;
};

class Verifier {
public:
  explicit Verifier(const Artifact &artifact)
      : artifact(artifact), m(artifact.model()), devices(count(m.devices())) {}
  dlc_status_t run();

private:
  void planIntervals();
  dlc_status_t runStep(uint32_t device, uint32_t index, const fb::Step &step);
  dlc_status_t read(uint32_t device, uint32_t index, uint32_t buffer);
  dlc_status_t write(uint32_t device, uint32_t index, uint32_t buffer);
  dlc_status_t checkOutputs();
  bool ordered(uint32_t device, uint32_t other, uint64_t clock) const {
    return device == other || clocks[device][other] >= clock;
  }
  const fb::Buffer &buf(uint32_t b) const { return *m.buffers()->Get(b); }
  std::string stepName(uint32_t device, uint32_t index) const;
  std::string bufferName(uint32_t buffer) const;
  Error fail(uint32_t device, uint32_t index, const char *verb, uint32_t buffer) const;

  const Artifact &artifact;
  const fb::Model &m;
  uint32_t devices;
  std::vector<const fb::DeviceSchedule *> scheduleOf; // By device; may be null.
  std::vector<uint32_t> owner;                      // By buffer: whose bytes.
  std::vector<uint32_t> firstInterval, endInterval; // By buffer.
  std::vector<Shadow> shadows;                      // By interval.
  std::vector<std::vector<uint64_t>> clocks, eventClocks;
};

/// Splits each device's arena at every buffer boundary; buffer b covers the
/// intervals [firstInterval[b], endInterval[b]).
void Verifier::planIntervals() {
  uint32_t n = count(m.buffers());
  owner.resize(n);
  bool statesViews = m.version_major() > 0 || m.version_minor() >= 5;
  std::map<std::tuple<uint32_t, uint64_t, uint64_t, int32_t>, uint32_t> byRange;
  for (uint32_t b = 0; b < n; ++b) {
    const fb::Buffer &x = buf(b);
    auto key = std::make_tuple(x.device(), x.constant_segment() >= 0 ? 0 : x.offset(),
                               x.size(), x.constant_segment());
    if (statesViews)
      owner[b] = x.view_of() >= 0 ? uint32_t(x.view_of()) : b;
    else
      owner[b] = byRange.emplace(key, b).first->second;
  }
  std::vector<std::vector<uint64_t>> cuts(devices);
  for (uint32_t b = 0; b < n; ++b)
    if (buf(b).constant_segment() < 0 && buf(b).size()) {
      cuts[buf(b).device()].push_back(buf(b).offset());
      cuts[buf(b).device()].push_back(buf(b).offset() + buf(b).size());
    }
  std::vector<uint32_t> base(devices, 0);
  uint32_t total = 0;
  for (uint32_t d = 0; d < devices; ++d) {
    std::sort(cuts[d].begin(), cuts[d].end());
    cuts[d].erase(std::unique(cuts[d].begin(), cuts[d].end()), cuts[d].end());
    base[d] = total;
    total += cuts[d].empty() ? 0 : uint32_t(cuts[d].size() - 1);
  }
  firstInterval.assign(n, 0);
  endInterval.assign(n, 0);
  for (uint32_t b = 0; b < n; ++b) {
    const fb::Buffer &x = buf(b);
    if (x.constant_segment() >= 0 || !x.size())
      continue;
    const auto &c = cuts[x.device()];
    auto at = [&](uint64_t offset) {
      return base[x.device()] +
             uint32_t(std::lower_bound(c.begin(), c.end(), offset) - c.begin());
    };
    firstInterval[b] = at(x.offset());
    endInterval[b] = at(x.offset() + x.size());
  }
  shadows.resize(total);
  for (Shadow &s : shadows) {
    s.readClock.assign(devices, 0);
    s.readStep.assign(devices, 0);
    s.readBuffer.assign(devices, 0);
  }
  // Inputs hold the host's bytes when the run starts, and persistent buffers
  // what the last run (or the session's start) left in them.
  auto startsWritten = [&](uint32_t b) {
    for (uint32_t k = firstInterval[b]; k < endInterval[b]; ++k) {
      shadows[k].writer = owner[b];
      shadows[k].host = true;
    }
  };
  for (uint32_t i = 0; i < count(m.inputs()); ++i)
    startsWritten(m.inputs()->Get(i)->buffer());
  for (uint32_t b = 0; b < n; ++b)
    if (buf(b).persistent())
      startsWritten(b);
}

std::string Verifier::stepName(uint32_t device, uint32_t index) const {
  std::ostringstream os;
  os << "step " << index;
  const fb::Step &step = *scheduleOf[device]->steps()->Get(index);
  if (step.kind() == fb::StepKind::Copy) {
    os << " (copy)";
  } else if (step.kind() == fb::StepKind::Call) {
    const fb::Kernel &k = *m.kernels()->Get(step.kernel());
    os << " (call '" << str(k.name()) << "'";
    uint32_t ops = count(k.ops());
    for (uint32_t i = 0; i < ops && i < 3; ++i)
      os << (i ? ", " : ": ") << str(k.ops()->Get(i));
    if (ops > 3)
      os << ", ... (" << ops << " ops)";
    os << ")";
  }
  os << " of " << deviceName(*m.devices()->Get(device));
  return os.str();
}

std::string Verifier::bufferName(uint32_t buffer) const {
  const fb::Buffer &b = buf(buffer);
  return "buffer " + std::to_string(buffer) + " ('" + str(b.name()) + "', " +
         deviceName(*m.devices()->Get(b.device())) + ")";
}

Error Verifier::fail(uint32_t device, uint32_t index, const char *verb,
                     uint32_t buffer) const {
  Error e(DLC_STATUS_DATA_LOSS);
  e << "artifact '" << artifact.name() << "': schedule: " << stepName(device, index)
    << " " << verb << " " << bufferName(buffer);
  return e;
}

dlc_status_t Verifier::read(uint32_t device, uint32_t index, uint32_t buffer) {
  if (buf(buffer).constant_segment() >= 0)
    return nullptr;
  for (uint32_t k = firstInterval[buffer]; k < endInterval[buffer]; ++k) {
    Shadow &s = shadows[k];
    if (s.writer == kNone)
      return fail(device, index, "reads", buffer)
             << " before any step writes it in the run (a missing WaitEvent, a "
                "step out of order, or bytes left from an earlier run)";
    if (!s.host && !ordered(device, s.writerDevice, s.writerClock))
      return fail(device, index, "reads", buffer)
             << " but " << stepName(s.writerDevice, s.writerStep) << " writes "
             << bufferName(s.writer) << " there and no event orders the read after "
             << "the write (a missing WaitEvent)";
    if (s.writer != owner[buffer])
      return fail(device, index, "reads", buffer)
             << ", whose bytes "
             << (s.host ? std::string("the host")
                        : stepName(s.writerDevice, s.writerStep))
             << " overwrote with " << bufferName(s.writer)
             << " (a range reused while still in use)";
    s.readClock[device] = clocks[device][device];
    s.readStep[device] = index;
    s.readBuffer[device] = buffer;
  }
  return nullptr;
}

dlc_status_t Verifier::write(uint32_t device, uint32_t index, uint32_t buffer) {
  if (buf(buffer).constant_segment() >= 0)
    return fail(device, index, "writes", buffer)
           << ", a constant (constants are shared by every run and never written)";
  for (uint32_t k = firstInterval[buffer]; k < endInterval[buffer]; ++k) {
    Shadow &s = shadows[k];
    if (s.writer != kNone && !s.host && !ordered(device, s.writerDevice, s.writerClock))
      return fail(device, index, "writes", buffer)
             << " while " << stepName(s.writerDevice, s.writerStep) << " writes "
             << bufferName(s.writer) << " there and no event orders the two writes";
    for (uint32_t e = 0; e < devices; ++e)
      if (e != device && s.readClock[e] > clocks[device][e])
        return fail(device, index, "writes", buffer)
               << " while " << stepName(e, s.readStep[e]) << " may still read "
               << bufferName(s.readBuffer[e])
               << " there: no event orders the write after that read";
    s.writer = owner[buffer];
    s.host = false;
    s.writerDevice = device;
    s.writerStep = index;
    s.writerClock = clocks[device][device];
    std::fill(s.readClock.begin(), s.readClock.end(), 0);
  }
  return nullptr;
}

dlc_status_t Verifier::runStep(uint32_t device, uint32_t index, const fb::Step &step) {
  clocks[device][device] = uint64_t(index) + 1;
  uint32_t n = count(step.buffers());
  auto arg = [&](uint32_t j) { return step.buffers()->Get(j); };
  switch (step.kind()) {
  case fb::StepKind::Copy:
    DLC_RETURN_IF_ERROR(read(device, index, arg(0)));
    return write(device, index, arg(1));
  case fb::StepKind::Call: {
    if (step.output_count() == 0)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << artifact.name() << "': schedule: "
             << stepName(device, index)
             << " does not state which buffers it writes (Step.output_count, "
                "format 0.2): the schedule cannot be verified";
    uint32_t firstOutput = n - step.output_count();
    for (uint32_t j = 0; j < firstOutput; ++j)
      DLC_RETURN_IF_ERROR(read(device, index, arg(j)));
    for (uint32_t j = firstOutput; j < n; ++j)
      DLC_RETURN_IF_ERROR(write(device, index, arg(j)));
    return nullptr;
  }
  case fb::StepKind::RecordEvent:
    eventClocks[step.event()] = clocks[device];
    return nullptr;
  case fb::StepKind::WaitEvent:
    for (uint32_t d = 0; d < devices; ++d)
      clocks[device][d] = std::max(clocks[device][d], eventClocks[step.event()][d]);
    return nullptr;
  }
  return nullptr;
}

/// When the run ends the host reads each output: its bytes must still be its.
dlc_status_t Verifier::checkOutputs() {
  for (uint32_t i = 0; i < count(m.outputs()); ++i) {
    uint32_t b = m.outputs()->Get(i)->buffer();
    for (uint32_t k = firstInterval[b]; k < endInterval[b]; ++k) {
      const Shadow &s = shadows[k];
      Error e(DLC_STATUS_DATA_LOSS);
      e << "artifact '" << artifact.name() << "': schedule: output " << i << " ('"
        << str(m.outputs()->Get(i)->name()) << "', " << bufferName(b) << ") ";
      if (s.writer == kNone)
        return e << "is never written in the run";
      if (s.writer != owner[b])
        return e << "is overwritten by " << stepName(s.writerDevice, s.writerStep)
                 << " with " << bufferName(s.writer) << " before the run ends";
    }
  }
  return nullptr;
}

dlc_status_t Verifier::run() {
  planIntervals();
  clocks.assign(devices, std::vector<uint64_t>(devices, 0));
  eventClocks.assign(m.event_count(), std::vector<uint64_t>(devices, 0));
  scheduleOf.assign(devices, nullptr);
  const auto *schedules = m.schedules();
  for (uint32_t s = 0; s < count(schedules); ++s)
    scheduleOf[schedules->Get(s)->device()] = schedules->Get(s);
  // The symbolic run: each list until a wait whose record has not run; the
  // record wakes its waiters. Artifact::verify proved that every list ends.
  std::vector<uint32_t> position(devices, 0), ready;
  std::vector<bool> recorded(m.event_count(), false);
  std::vector<std::vector<uint32_t>> waiters(m.event_count());
  for (uint32_t d = 0; d < devices; ++d)
    if (scheduleOf[d])
      ready.push_back(d);
  while (!ready.empty()) {
    uint32_t d = ready.back();
    ready.pop_back();
    const auto *steps = scheduleOf[d]->steps();
    for (uint32_t &i = position[d]; i < count(steps); ++i) {
      const fb::Step &step = *steps->Get(i);
      if (step.kind() == fb::StepKind::WaitEvent && !recorded[step.event()]) {
        waiters[step.event()].push_back(d);
        break;
      }
      DLC_RETURN_IF_ERROR(runStep(d, i, step));
      if (step.kind() == fb::StepKind::RecordEvent) {
        recorded[step.event()] = true;
        ready.insert(ready.end(), waiters[step.event()].begin(),
                     waiters[step.event()].end());
        waiters[step.event()].clear();
      }
    }
  }
  for (uint32_t d = 0; d < devices; ++d)
    if (scheduleOf[d] && position[d] != count(scheduleOf[d]->steps()))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << artifact.name() << "': schedule: "
             << stepName(d, position[d]) << " waits for an event no step records "
             << "before it (the step lists cannot finish)";
  return checkOutputs();
}

} // namespace

dlc_status_t dlc::rt::verifySchedule(const Artifact &artifact) {
  return guard([&] { return Verifier(artifact).run(); });
}
