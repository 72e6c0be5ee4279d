//===- BatchRows.h - which values carry a batch, and how many rows per unit ===//
//
// A batch is the dim 0 of a function's inputs. It is split over GPUs by
// data-parallel placement (DataParallel.cpp, where dim 0 stays the batch),
// and it is what a symbolic batch leaves to run time (compiler/README.md,
// "dimensions known at run time"), where a value's dim 0 may hold several
// rows per unit of the batch: a reshape of [B, S, H] to [B*S, H] keeps the
// batch with S rows per unit. Either way every op that reads a batched value
// must keep the units apart: unit b of its results depends only on unit b of
// its batched operands. The rules, per op (whyOpMixesBatchRows):
//
//   elementwise (broadcasting,  batched operands of the result's rank; the
//   compare, select)            others of lower rank or dim 0 = 1
//   unary, gelu, clip, cast,    always
//   copy, batch_norm, conv2d,
//   pools, global_avg_pool
//   matmul                      batched operands of the result's rank (rank 2:
//                               only lhs, whose rows are the batch)
//   linear                      input of rank >= 2, weight and bias unbatched
//   softmax, layer_norm         axis != 0
//   reduce_*                    axes given, none of them 0
//   transpose                   perm[0] == 0
//   reshape                     the caller's dim 0 check (rows stay rows)
//   concat, split               axis != 0
//   gather                      batched data: axis != 0, indices unbatched;
//                               batched indices: a table gathered on axis 0
//   scatter_elements, top_k     axis != 0, rows of data and updates alike
//   slice                       the whole of dim 0, step 1
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_BATCHROWS_H
#define DLC_PASSES_BATCHROWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace dlc {

/// Shape helpers the batch rules share (BatchRows.cpp, BatchDims.cpp,
/// SymbolExtents.cpp).
namespace batch_rules {
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
}
inline int64_t rankOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getRank();
}
inline int64_t normAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }
/// Whether `v` is a splat constant (or a reshape of one): alike in every
/// unit along any dim.
bool isSplatConstant(mlir::Value v);
} // namespace batch_rules

/// Dim 0 of a ranked tensor value, or -1 for a scalar.
int64_t dim0Of(mlir::Value v);

/// Where a value carries a symbolic batch (BatchDims.cpp): its dim `dim`
/// is `outer` x the batch x `rows`, unit u holding indices p x bound x rows
/// + u x rows + r (p < outer, r < rows). Dim 0 with outer 1 unless a
/// transpose or a reshape moved it (a sequence-first [S, B, E] merged to
/// [S*B, E] has dim 0 with outer S).
struct BatchLayout {
  int64_t dim = 0;
  int64_t rows = 1;
  int64_t outer = 1;
  bool operator==(const BatchLayout &o) const {
    return dim == o.dim && rows == o.rows && outer == o.outer;
  }
  bool operator!=(const BatchLayout &o) const { return !(*this == o); }
  /// Dim 0 with outer 1: contiguous units, the plain per-unit layout.
  bool onDim0() const { return dim == 0 && outer == 1; }
};
using BatchLayouts = llvm::DenseMap<mlir::Value, BatchLayout>;

/// Why `op` would mix the units of the batch, given which values are
/// batched, or "" when it keeps them apart. Dim 0 sizes are the caller's
/// to check (data-parallel: the batch itself; a symbolic batch: a multiple).
std::string whyOpMixesBatchRows(mlir::Operation *op, const llvm::DenseSet<mlir::Value> &batched);

/// Dims of a value whose run-time extent is the symbol's size (the bound's
/// at compile time; the run's value is their leading part), sorted.
using SymbolDims = llvm::SmallVector<int64_t, 2>;
using SymbolDimsOf = llvm::function_ref<SymbolDims(mlir::Value)>;

/// Which dims of `op`'s results have the symbol's extent, given its
/// operands' (`dimsOf`), for an op that reads them whole (SymbolExtents.cpp:
/// attention's scores over a symbolic sequence); "" or why dlc cannot.
std::string symbolDimsThrough(mlir::Operation *op, int64_t bound, const SymbolDimsOf &dimsOf,
                              llvm::SmallVectorImpl<SymbolDims> &results);

/// Kernels sized at run time: an op that would mix the symbol's units but
/// reads its dims whole (symbolDimsThrough) makes its kernel one, compiled
/// once and called once per run with the run's size. `dims`: the symbol
/// dims of every value such a kernel reads or writes, and of every value
/// with the symbol on more than one dim (which only they touch).
struct SizedKernels {
  llvm::DenseMap<mlir::Value, SymbolDims> dims;
  /// dlc.kernel ops (or ops outside any kernel) sized at run time.
  llvm::DenseSet<mlir::Operation *> kernels;
};

/// Rows per unit of the batch for every value that depends on `batchedArgs`
/// (each of dim 0 = `bound`): its dim 0 is that many times the batch. Ops
/// are read in model order, into kernels (a kernel's result carries what
/// its yield does). An op that mixes the units, or a batched result whose
/// dim 0 is not a multiple of `bound`, is an error on the op naming it and
/// the rule, prefixed with `what`. With `dims`, the batch may move off
/// dim 0 (batchDimsThrough): each value whose layout is not dim 0 with
/// outer 1 is recorded there (its rows are along its dim).
/// With `sized`, an op the unit rules refuse may read the symbol's dims
/// whole (SizedKernels); a value with it on one whole dim has both.
mlir::FailureOr<llvm::DenseMap<mlir::Value, int64_t>>
analyseBatchRows(mlir::func::FuncOp func, llvm::ArrayRef<mlir::BlockArgument> batchedArgs,
                 int64_t bound, llvm::StringRef what, BatchLayouts *moved = nullptr,
                 SizedKernels *sized = nullptr);

/// Where `op`'s results carry the batch when it may sit on any dimension
/// (each unit a strided slice of the bound's buffer), given its operands'
/// `layouts`: fills `results` (and `carried`: splat constants spanning the
/// batch, alike in every unit, that carry it there) and returns "", or
/// returns why the op mixes the units.
/// Where a reshape from `from` to `to` puts the batch of an input with
/// `layout` (the flat order is kept); std::nullopt when no single dim of
/// the result holds each unit as such a layout (test/BatchDimsTest.cpp
/// checks it against every unit's elements on random shapes).
std::optional<BatchLayout> reshapeBatchLayout(llvm::ArrayRef<int64_t> from,
                                              llvm::ArrayRef<int64_t> to, BatchLayout layout,
                                              int64_t bound);

/// Splat constants that carry the batch through an op (their layouts).
using CarriedSplats = llvm::SmallVector<std::pair<mlir::Value, BatchLayout>>;
std::string batchDimsThrough(mlir::Operation *op, const BatchLayouts &layouts, int64_t bound,
                             llvm::SmallVectorImpl<BatchLayout> &results,
                             CarriedSplats &carried);

/// A function's symbolic batch (dlc.symbolic_batch): its name, its bound
/// (the inputs' dim 0, state arguments aside) and rows per unit of every
/// value carrying it. Codegen outlines kernels at one unit with it; the
/// artifact stage marks the buffers (format 0.8).
struct SymbolicBatch {
  std::string name;
  int64_t bound = 0;
  llvm::DenseMap<mlir::Value, int64_t> unitRows;
  /// The layout of each value whose batch is not on dim 0 with outer 1.
  BatchLayouts moved;
  /// Kernels that read the symbol's dims whole, sized at run time.
  SizedKernels sized;
};

/// The dim of entry argument `arg` that carries the symbol: its
/// dlc.symbol_dims (one dim, after dims of 1: token ids [1, t]), else 0.
int64_t symbolDimOfInput(mlir::func::FuncOp func, unsigned arg);

/// `func`'s symbolic batch; std::nullopt when it has none; an error (on the
/// function or the op that mixes units) when the batch rules refuse it.
mlir::FailureOr<std::optional<SymbolicBatch>> analyseSymbolicBatch(mlir::func::FuncOp func);

} // namespace dlc

#endif // DLC_PASSES_BATCHROWS_H
