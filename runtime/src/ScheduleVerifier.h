//===- ScheduleVerifier.h - proves a schedule right without running it ----===//
//
// What the ordering checker (OrderingChecker.h) checks while a session runs,
// proved once for every interleaving of the streams, from the artifact alone:
//
//   - every read (a Call's inputs, a Copy's source) is ordered after the
//     write of the bytes it reads, on the same stream or through a chain of
//     events, and no step wrote other data over those bytes in between (an
//     arena range reused while still in use);
//   - every write is ordered after every earlier access, on any device, to
//     the bytes it overwrites, and after the other writes there;
//   - every read reads bytes written in the same run (inputs and constants
//     by the host; nothing left over from the previous run in the slot);
//   - constants are never written;
//   - each output holds its value when the run ends (no later step writes
//     over it).
//
// Happens-before is static: program order on each list plus record -> wait
// edges, which the artifact states. The lists are run once symbolically (a
// wait blocks until its record ran) with vector clocks, and every access is
// checked against a shadow of the bytes it touches, kept per elementary
// interval of each arena (the ranges between all buffer boundaries). Since
// each conflicting pair is checked against its clocks, not against the order
// the symbolic run happened to take, one run covers every interleaving.
//
// Which buffers are the same bytes: Buffer.view_of (0.5); before it, buffers
// of equal device, offset and size count as views of each other (which hides
// a reuse of exactly one range by an unrelated value of the same size).
//
// In-flight runs (max_in_flight > 1) each get their own arenas and events from
// the session, and constants are never written: a schedule proved for one
// run is right for every slot. Each run depends on nothing of the previous
// one in its slot, which the "written in the same run" rule checks.
//
// Cost: linear in the steps times the intervals a buffer spans, times the
// devices (measured in test/bench: README.md there).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_SCHEDULEVERIFIER_H
#define DLC_RUNTIME_SCHEDULEVERIFIER_H

#include "Artifact.h"

namespace dlc::rt {

/// Checks the schedule of an artifact that passed Artifact::verify. A
/// violation is DLC_STATUS_DATA_LOSS naming the step(s), their devices and
/// kernels' ops, and the buffer.
dlc_status_t verifySchedule(const Artifact &artifact);

} // namespace dlc::rt

#endif // DLC_RUNTIME_SCHEDULEVERIFIER_H
