//===- CompareReference.h - dlc run --compare-reference --------------------===//
//
// Finds the first step of an artifact's run whose output differs from the
// reference interpreter's value of the same op: the tool for a user who
// meets a wrong number. The run's outputs come from `dlc-run --dump-steps`
// (every buffer each kernel call and copy wrote, in an order consistent with
// the dataflow); the reference is the interpreter over the model as written,
// before placement, copies and fp16 casts.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_COMPILER_COMPAREREFERENCE_H
#define DLC_COMPILER_COMPAREREFERENCE_H

#include "Interpreter/RefTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace dlc {

struct CompareReferenceOptions {
  /// A step output matches when max|dlc - ref| <= tolerance * max|ref|
  /// (+ 1e-7 for all-zero references) and it is finite wherever the
  /// reference is. <= 0: 1e-4, or 3e-2 when the run holds f16/bf16 values.
  double tolerance = 0;
};

/// Interprets `source` on `inputs`, compares every output listed in
/// `dumpDir`/steps.jsonl with the reference value of the op that names it
/// (casts dlc inserted, "X/to_f16", compare with X; "input:N" with input N),
/// and prints the first divergence (its step, device, kernel, ops, buffer,
/// element and both values) and a summary on `os`. Returns 0 when every
/// output compared matches, 1 when one diverges or on an error (printed on
/// `errs`).
int compareWithReference(mlir::func::FuncOp source, const std::vector<ref::Tensor> &inputs,
                         const std::string &dumpDir, const CompareReferenceOptions &options,
                         llvm::raw_ostream &os, llvm::raw_ostream &errs);

} // namespace dlc

#endif // DLC_COMPILER_COMPAREREFERENCE_H
