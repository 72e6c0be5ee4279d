//===- LoopBody.h - building a dlc.loop's body while importing ------------===//
//
// Recurrences (OnnxRecurrent.cpp) and ONNX Loop (OnnxControlFlow.cpp) build
// their body with the importer's ordinary ops, reading outer values freely;
// finish() then makes the body isolated from above, as dlc.loop requires:
// constants are cloned in (weights laid out at compile time), every other
// outer value becomes an invariant operand. Initializers first used inside the body are
// materialised before the loop (GraphImporter::outerInsertion), so that
// later uses outside it still see them.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_COMPILER_IMPORT_ONNX_LOOPBODY_H
#define DLC_COMPILER_IMPORT_ONNX_LOOPBODY_H

#include "compiler/Import/ONNX/GraphImporter.h"
#include "dialects/dlc/DlcOps.h"

namespace dlc::onnx_import {

class LoopBody {
public:
  /// Opens a body for carried values like `carried` and slices of `scans`;
  /// the importer's builder then inserts into it until finish().
  LoopBody(GraphImporter &g, mlir::ValueRange carried, mlir::ValueRange scans);
  ~LoopBody();

  /// The iteration's position, tensor<1xi64>.
  mlir::Value position();
  mlir::Value carriedArg(size_t i);
  /// Scan input i's row at the position (its type less dim 0).
  mlir::Value scanArg(size_t i);

  /// Ends the body with `yielded` (next carried values, then one row per
  /// scan output) and builds the loop before the body was opened: `trips`
  /// iterations, or `count`'s at run time. Returns the loop's results.
  mlir::SmallVector<mlir::Value> finish(mlir::ValueRange yielded, std::optional<int64_t> trips,
                                        mlir::Value count, bool reverse);

private:
  void isolate(llvm::SmallVectorImpl<mlir::Value> &invariants);

  GraphImporter &g;
  mlir::SmallVector<mlir::Value> carried, scans;
  mlir::Block *block;
  mlir::OpBuilder::InsertPoint outer;
  bool ownsOuterInsertion;
};

} // namespace dlc::onnx_import

#endif // DLC_COMPILER_IMPORT_ONNX_LOOPBODY_H
