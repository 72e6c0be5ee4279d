//===- LlvmPassTimes.h - LLVM's own pass timing, summed over the parts ----===//
//
// `dlc compile --time-stages` shows where LLVM's time goes inside "O3 and
// machine code": the kernels are optimised and emitted in parts on several
// threads, so LLVM's -time-passes report (one timer per pass instance, a
// line per instance) would list each pass once per part. This sums them by
// pass name across the parts:
//
//   - O3 (the new pass manager): exclusive wall time per pass and analysis,
//     from pass-instrumentation callbacks (a pass's time excludes the passes
//     it runs, so adaptors do not count their contents twice);
//   - machine code (the legacy pass manager, which has no callbacks):
//     LLVM's own pass timers (TimePassesIsEnabled), read back as JSON.
//     Their pass managers are kept alive until the timers are read: the
//     timers are keyed by the pass's address, which a later part's pass
//     could otherwise reuse.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_COMPILER_TARGET_CPU_LLVMPASSTIMES_H
#define DLC_COMPILER_TARGET_CPU_LLVMPASSTIMES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <vector>

namespace dlc::cpu {

class LlvmPassTimes {
public:
  /// Starts LLVM's legacy pass timers; the report stops them.
  LlvmPassTimes();
  ~LlvmPassTimes();

  /// Times the passes `callbacks` sees (one new-PM pipeline, on one thread).
  void instrument(llvm::PassInstrumentationCallbacks &callbacks);
  /// Keeps a finished machine-code pass manager until the report.
  void keep(std::unique_ptr<llvm::legacy::PassManager> codegen);

  /// The `top` passes by time, summed over every part, as a table; reads and
  /// clears LLVM's timers.
  void print(llvm::raw_ostream &os, unsigned top);

  struct Total {
    double seconds = 0;
    unsigned runs = 0;
  };

private:
  void collectLegacyTimers();

  std::mutex mutex;
  /// Seconds by pass name: O3's passes and analyses, machine code's passes.
  llvm::StringMap<Total> optimization, codegen;
  std::vector<std::unique_ptr<llvm::legacy::PassManager>> kept;
};

} // namespace dlc::cpu

#endif // DLC_COMPILER_TARGET_CPU_LLVMPASSTIMES_H
