//===- LoweringUtils.h - shared helpers of the dlc-to-linalg patterns ----===//
//
// Element-type policy of the lowering: f16 and bf16 values are extended to
// f32 inside every linalg body and rounded back once, when stored; integer and
// f32 values are computed in their own type. Every helper builds on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_COMPILER_TARGET_CPU_LOWERINGUTILS_H
#define DLC_COMPILER_TARGET_CPU_LOWERINGUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace dlc {

/// Builds the body of an elementwise generic: the input block arguments in,
/// the value to store out.
using BodyFn = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                              mlir::ValueRange)>;

/// f32 for f16/bf16 (the compute type), the type itself otherwise.
mlir::Type computeType(mlir::Type elementType);
/// Extends an f16/bf16 scalar to f32; other values pass through.
mlir::Value toCompute(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
/// Rounds a compute-type scalar back to `elementType` (truncf when narrower).
mlir::Value fromCompute(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                        mlir::Type elementType);
/// A scalar constant of float or integer type `type`.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// tensor.empty of `shape` and `elementType`.
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::ArrayRef<int64_t> shape, mlir::Type elementType);
/// linalg.fill of a new tensor with `value`.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<int64_t> shape, mlir::Type elementType,
                         double value);

/// The map reading an operand of `shape` inside a loop nest of `outShape`
/// (NumPy broadcasting): aligned from the right, size-1 dims broadcast via a
/// constant 0, missing leading dims dropped.
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx,
                             llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> outShape);

/// An all-parallel linalg.generic producing a new tensor of `resultType`,
/// reading `inputs` with broadcast maps; `body` gets the raw block arguments.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ValueRange inputs,
                             mlir::RankedTensorType resultType, BodyFn body);
/// Same, with explicit input maps (the output map is the identity).
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ValueRange inputs,
                             llvm::ArrayRef<mlir::AffineMap> inputMaps,
                             mlir::RankedTensorType resultType, BodyFn body);

/// Pads the H and W dims of an NCHW tensor with `value`: pads are (top,
/// left, bottom, right); returns `input` itself when all are 0.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                       llvm::ArrayRef<int64_t> pads, double value);

/// The KHxKW windows of a (padded) NCHW input as KH*KW strided views of
/// `outShape`, tap (i, j) at rows i*d0 + s0*oh and columns j*d1 + s1*ow, in
/// row-major tap order: a sliding-window op becomes one elementwise generic
/// over the output that combines its taps (depthwise convolution, pooling),
/// vectorised along ow instead of running the window loops innermost.
llvm::SmallVector<mlir::Value> windowTaps(mlir::OpBuilder &b, mlir::Location loc,
                                          mlir::Value input,
                                          llvm::ArrayRef<int64_t> outShape,
                                          llvm::ArrayRef<int64_t> kernel,
                                          llvm::ArrayRef<int64_t> strides,
                                          llvm::ArrayRef<int64_t> dilations);

/// Normalises a possibly negative axis against `rank`.
inline int64_t normalizedAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Reshapes `v` to `type` with tensor.collapse_shape / tensor.expand_shape
/// (through a 1-D tensor when no single reassociation exists).
/// The tensor.pad `v` comes from when it pads a static rank-4 NCHW tensor in
/// its spatial dims (2, 3) only, by static amounts, with a constant value
/// (what padSpatial makes); null otherwise.
mlir::tensor::PadOp spatialConstantPad(mlir::Value v);

/// The sum of `values` (at least one) added pairwise, as a tree: a chain of
/// additions would wait on each one's latency.
mlir::Value addPairwise(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::SmallVector<mlir::Value> values);

/// An empty `paddedType` ([N, C, H, W]) with its borders (`low`/`high` in
/// dims 2 and 3) filled with `value` and its interior left for the caller
/// to write.
mlir::Value fillBorders(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType paddedType,
                        llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                        mlir::Value value);

/// `planes` ([N, C, H, W]) padded by `low`/`high` in dims 2 and 3 to
/// `paddedType` with `value`: the four borders filled and the interior
/// copied (a tensor.pad fills the whole buffer first). With
/// `bordersAtStartOf`, the padded buffer and its border fills are made at
/// the start of that block (`value` a constant): when `planes` is computed
/// in the same function, empty-tensor elimination can then have its
/// producer write straight into the interior, and no copy is left.
mlir::Value padByBorderFills(mlir::OpBuilder &b, mlir::Location loc, mlir::Value planes,
                             mlir::RankedTensorType paddedType, llvm::ArrayRef<int64_t> low,
                             llvm::ArrayRef<int64_t> high, mlir::Value value,
                             mlir::Block *bordersAtStartOf = nullptr);

/// The elementwise op that updates `result` in place (ReuseProducerBuffer):
/// the result's only use, as the init of an all-parallel linalg.generic over
/// its dims with an identity map, reading its other operands through
/// projected permutations (a bias by channel, a residual at the same place,
/// scalars), with no lookups or index arithmetic in its body. It can then
/// run region by region right after the producer's tiles (ConvToMatmul,
/// TileAndVectorize). Null otherwise.
mlir::linalg::GenericOp inPlaceEpilogue(mlir::Value result);

/// A copy of `epilogue` (see inPlaceEpilogue) on one region of its iteration
/// space (an offset and a size per loop), updating `init`, that region of the
/// value it updates; the other operands are sliced through their maps.
mlir::Value epilogueOnRegion(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::linalg::GenericOp epilogue,
                             llvm::ArrayRef<mlir::OpFoldResult> offsets,
                             llvm::ArrayRef<mlir::OpFoldResult> sizes, mlir::Value init);

mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                      mlir::RankedTensorType type);

// The pattern sets, one per op family.
/// The columns of a vector<T x N> register tile (T <= 8 rows, N = 16k), as
/// N vector<T>s: the classic 8x16 in-register transpose per 16 columns
/// (interleave pairs of rows as floats, then as float pairs, then join each
/// column's two 4-float halves), rows beyond T being zeros that are dropped.
/// MLIR's generic transpose lowerings left LLVM about 400 instructions with
/// spills for a 7x32 tile: a third of a small 1x1 convolution's time.
llvm::SmallVector<mlir::Value> tileColumns(mlir::OpBuilder &b, mlir::Location loc,
                                          mlir::Value tile);

void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
void populateContractionPatterns(mlir::RewritePatternSet &patterns);
void populatePoolingNormPatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns);
void populateSelectionPatterns(mlir::RewritePatternSet &patterns);
/// Every dlc.loop of `func` as an scf.for on tensors, its body's dlc ops
/// moved into it as they are (LowerLoops.cpp), for the conversion to lower.
void lowerLoopsToScf(mlir::func::FuncOp func);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_LOWERINGUTILS_H
