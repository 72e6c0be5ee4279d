//===- StepDump.h - dlc-run --dump-steps: every step's output on disk ------===//
//
// A step observer (dlc_session_options_t.step_observer) that writes what
// each kernel call and copy of the first run wrote: DIR/NNNNNN.npy per
// buffer, in observation order, and DIR/steps.jsonl with one JSON object
// per file (sequence, device, step, kind, kernel, ops, buffer, name, copied_from,
// dtype and file). `dlc run --compare-reference` reads it; so can any script.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TOOLS_STEPDUMP_H
#define DLC_RUNTIME_TOOLS_STEPDUMP_H

#include "dlc/runtime.h"

#include <cstdio>
#include <string>

namespace dlc::tools {

class StepDump {
public:
  /// Creates `dir` (and its parents' last level) and opens its manifest;
  /// returns the error, or "".
  std::string open(const std::string &dir);
  ~StepDump();

  /// The observer: `user` is a StepDump. Stops the run (non-zero) when a
  /// file cannot be written; error() says why.
  static int32_t observe(void *user, const dlc_step_output_t *output);
  const std::string &error() const { return error_; }
  size_t written() const { return written_; }

private:
  std::string dir_, error_;
  std::FILE *manifest_ = nullptr;
  size_t written_ = 0;
};

} // namespace dlc::tools

#endif // DLC_RUNTIME_TOOLS_STEPDUMP_H
