//===- LlvmPassTimes.cpp - LLVM's own pass timing, summed over the parts --===//
//
// See LlvmPassTimes.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LlvmPassTimes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRPrintingPasses.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Timer.h"

#include <chrono>

using namespace dlc::cpu;

namespace {
using Clock = std::chrono::steady_clock;

/// One pipeline's running passes, innermost last: each accrues the time
/// between its start (or its last inner pass's end) and its end or its
/// next inner pass's start, so a pass's time is its own.
struct ExclusiveClock {
  struct Running {
    std::string name;
    Clock::time_point since;
  };
  std::vector<Running> stack;
  llvm::StringMap<LlvmPassTimes::Total> totals;

  void accrue(Clock::time_point now) {
    totals[stack.back().name].seconds +=
        std::chrono::duration<double>(now - stack.back().since).count();
  }
  void start(llvm::StringRef name) {
    Clock::time_point now = Clock::now();
    if (!stack.empty())
      accrue(now);
    stack.push_back({name.str(), now});
  }
  void stop() {
    if (stack.empty())
      return;
    Clock::time_point now = Clock::now();
    accrue(now);
    ++totals[stack.back().name].runs;
    stack.pop_back();
    if (!stack.empty())
      stack.back().since = now;
  }
};
} // namespace

LlvmPassTimes::LlvmPassTimes() {
  llvm::TimePassesIsEnabled = true;
  // LLVM makes its timer table on the first timed pass, unguarded: once
  // here, before the parts' threads start.
  auto first = std::make_unique<llvm::legacy::PassManager>();
  first->add(llvm::createPrintModulePass(llvm::nulls()));
  llvm::LLVMContext context;
  llvm::Module empty("dlc-timing", context);
  first->run(empty);
  keep(std::move(first));
  llvm::TimerGroup::clearAll();
}

LlvmPassTimes::~LlvmPassTimes() {
  // Cleared timers print nothing at exit (LLVM would print its own report).
  llvm::TimerGroup::clearAll();
  llvm::TimePassesIsEnabled = false;
}

void LlvmPassTimes::instrument(llvm::PassInstrumentationCallbacks &callbacks) {
  auto clock = std::make_shared<ExclusiveClock>();
  // When the pipeline's outermost pass ends, its times join the totals.
  auto stop = [this, clock] {
    clock->stop();
    if (!clock->stack.empty())
      return;
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &entry : clock->totals) {
      Total &total = optimization[entry.getKey()];
      total.seconds += entry.getValue().seconds;
      total.runs += entry.getValue().runs;
    }
    clock->totals.clear();
  };
  callbacks.registerBeforeNonSkippedPassCallback(
      [clock](llvm::StringRef pass, llvm::Any) { clock->start(pass); });
  callbacks.registerAfterPassCallback(
      [stop](llvm::StringRef, llvm::Any, const llvm::PreservedAnalyses &) { stop(); });
  callbacks.registerAfterPassInvalidatedCallback(
      [stop](llvm::StringRef, const llvm::PreservedAnalyses &) { stop(); });
  callbacks.registerBeforeAnalysisCallback(
      [clock](llvm::StringRef analysis, llvm::Any) { clock->start(analysis); });
  callbacks.registerAfterAnalysisCallback([stop](llvm::StringRef, llvm::Any) { stop(); });
}

void LlvmPassTimes::keep(std::unique_ptr<llvm::legacy::PassManager> codegen) {
  std::lock_guard<std::mutex> lock(mutex);
  kept.push_back(std::move(codegen));
}

/// LLVM's legacy timers as JSON lines `"time.pass.NAME.wall": SECONDS`.
void LlvmPassTimes::collectLegacyTimers() {
  std::string json;
  llvm::raw_string_ostream os(json);
  llvm::TimerGroup::printAllJSONValues(os, "");
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(json).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim().rtrim(',');
    llvm::StringRef key, value;
    std::tie(key, value) = line.split(": ");
    if (!key.consume_front("\"time.pass.") || !key.consume_back(".wall\""))
      continue;
    double seconds = 0;
    if (value.trim().getAsDouble(seconds))
      continue;
    Total &total = codegen[key];
    total.seconds += seconds;
    ++total.runs;
  }
  llvm::TimerGroup::clearAll();
}

namespace {
/// `runs` names what Total::runs counts: O3's runs of a pass, machine
/// code's pass managers (one per part) that ran it.
void printTable(llvm::raw_ostream &os, llvm::StringRef title,
                const llvm::StringMap<LlvmPassTimes::Total> &totals, unsigned top,
                llvm::StringRef runs) {
  std::vector<std::pair<double, llvm::StringRef>> rows;
  double sum = 0;
  for (const auto &entry : totals) {
    rows.push_back({entry.getValue().seconds, entry.getKey()});
    sum += entry.getValue().seconds;
  }
  llvm::sort(rows, [](const auto &a, const auto &b) { return a.first > b.first; });
  os << "  " << title << ": " << llvm::format("%.4f", sum)
     << " s (the threads' times added)\n";
  for (size_t i = 0; i < rows.size() && i < top; ++i)
    os << llvm::format("    %8.4f s %5.1f%%  ", rows[i].first,
                       sum > 0 ? 100 * rows[i].first / sum : 0.0)
       << rows[i].second << " (" << totals.lookup(rows[i].second).runs << " " << runs << ")\n";
}
} // namespace

void LlvmPassTimes::print(llvm::raw_ostream &os, unsigned top) {
  std::lock_guard<std::mutex> lock(mutex);
  collectLegacyTimers();
  os << "LLVM's passes, summed over the parts of the kernels' code (top " << top << "):\n";
  printTable(os, "O3 (passes and analyses)", optimization, top, "runs");
  printTable(os, "machine code", codegen, top, "parts");
  os.flush();
}
