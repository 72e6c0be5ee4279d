//===- Passes.h - lowering passes of the CPU path -------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_PASSES_H
#define DLC_COMPILER_TARGET_CPU_PASSES_H

#include "compiler/Target/CPU/CpuTiles.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace dlc {

#define GEN_PASS_DECL
#include "compiler/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Target/CPU/Passes.h.inc"

/// Marks an scf.for LLVM should neither unroll nor vectorise (a unit
/// attribute; ConvertScfToCf turns it into `llvm.loop` metadata).
inline constexpr llvm::StringLiteral kKeptLoopAttr = "dlc.kept_loop";
/// That metadata: unroll and vectorize disabled.
mlir::LLVM::LoopAnnotationAttr keptLoopAnnotation(mlir::MLIRContext *ctx);
/// Marks an scf.for of run-time trip count (SizeLoopsAtRunTime.cpp) that
/// LLVM may vectorise but should neither unroll nor interleave: its
/// unrolled copies and remainders doubled the compile's machine code.
inline constexpr llvm::StringLiteral kRunTimeLoopAttr = "dlc.run_time_loop";
mlir::LLVM::LoopAnnotationAttr runTimeLoopAnnotation(mlir::MLIRContext *ctx);
/// Marks an scf.for LLVM should unroll by the attribute's count (an i64: a
/// register tile's K loop, UnrollTileLoops.cpp); ConvertScfToCf makes it
/// `llvm.loop.unroll.count`.
inline constexpr llvm::StringLiteral kUnrollCountAttr = "dlc.unroll_count";
mlir::LLVM::LoopAnnotationAttr unrollCountAnnotation(mlir::MLIRContext *ctx, int64_t count);

/// Kernels sized at run time (SizeLoopsAtRunTime.cpp): their loops over
/// the symbol's extent run to the run's size; `inner` (the tiling and
/// vectorising passes, which bake sizes in) runs on every other function.
std::unique_ptr<mlir::Pass> createSizeLoopsAtRunTime();
std::unique_ptr<mlir::Pass> createOrderSizedLoops();
/// dlc-order-sized-loops and dlc-size-loops-at-run-time, for dlc-opt.
void registerSizedKernelPasses();
std::unique_ptr<mlir::Pass> createUnlessSizedAtRunTime(mlir::OpPassManager inner);

/// Patterns lowering every dlc op to linalg/tensor/arith/math on tensors.
void populateDlcToLinalgPatterns(RewritePatternSet &patterns);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_PASSES_H
