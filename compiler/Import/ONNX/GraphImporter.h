//===- GraphImporter.h - state shared by the importer's files ---*- C++ -*-===//
//
// Private to compiler/Import/ONNX. OnnxImporter.cpp walks the graph; each
// node is converted by a function of OnnxOps.cpp that reads its inputs and
// attributes through this class and builds dlc ops with make<OpT>(...),
// which folds an op whose operands are all known constants.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H
#define DLC_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H

#include "Interpreter/RefTensor.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/BatchRows.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h" // defines ONNX_API, then includes onnx-ml.pb.h

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlc::onnx_import {

using ref::Tensor;

/// Which elements of a small constant hold the size of the symbolic batch
/// (SymbolicSizes.cpp); one flag for a large one; empty: none.
using SizeMask = std::vector<bool>;

/// Results of a folded op larger than this stay ops (folding runs in doubles).
constexpr int64_t kMaxFoldElements = 1 << 16;

class GraphImporter {
public:
  GraphImporter(mlir::MLIRContext *context, int64_t opset)
      : builder(context), opset(opset) {}

  mlir::OpBuilder builder;
  int64_t opset;
  mlir::Location loc = builder.getUnknownLoc();
  const onnx::NodeProto *node = nullptr;
  /// The first error; the walk stops at it.
  std::string error;

  // --- the current node's inputs ---------------------------------------
  size_t numInputs() const { return node->input_size(); }
  /// Input i is present (optional inputs may be missing or named "").
  bool has(size_t i) const { return i < numInputs() && !node->input(i).empty(); }
  mlir::Value input(size_t i);
  mlir::RankedTensorType type(size_t i) { return typeOf(input(i)); }
  static mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  /// The value of input i when it is known at import time.
  std::optional<Tensor> constInput(size_t i);
  /// The value of input i; sets an error naming `what` and the input (and
  /// suggesting --bind) when it is not known at import time.
  std::optional<Tensor> requireConst(size_t i, const char *what);
  /// Input i as integers (axes, shapes, starts), like requireConst.
  std::optional<std::vector<int64_t>> constInts(size_t i, const char *what);

  // --- attributes ---------------------------------------------------------
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t attrInt(llvm::StringRef name, int64_t dflt) const;
  double attrFloat(llvm::StringRef name, double dflt) const;
  std::string attrString(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<std::vector<int64_t>> attrInts(llvm::StringRef name) const;

  // --- building -----------------------------------------------------------
  /// Builds OpT at the node's location and folds it when every operand is a
  /// known constant and the result is small.
  template <typename OpT, typename... Args> mlir::Value make(Args &&...args) {
    auto op = builder.create<OpT>(loc, std::forward<Args>(args)...);
    return foldOrKeep(op.getOperation(), 0);
  }
  /// Folds `op` if possible; returns result `index` (or its constant).
  mlir::Value foldOrKeep(mlir::Operation *op, unsigned index);
  /// Folds a multi-result op when every operand is a known constant: its
  /// results, or the constants that replaced them (the op is then erased).
  llvm::SmallVector<mlir::Value> foldAll(mlir::Operation *op);
  mlir::Value constant(const Tensor &t);
  /// A constant of `like`'s element type, every dimension 1 (rank of `like`).
  mlir::Value scalarLike(mlir::Value like, double value);
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::Value castTo(mlir::Value v, mlir::Type elementType);
  mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> shape, mlir::Type element) {
    return mlir::RankedTensorType::get(shape, element);
  }

  /// Records an error about the current node; returns failure.
  mlir::LogicalResult fail(const llvm::Twine &message);
  /// "unsupported op 'X' (node 'n', opset N)" plus an optional reason.
  mlir::LogicalResult unsupported(const llvm::Twine &reason = "");

  /// Values by ONNX name.
  llvm::StringMap<mlir::Value> values;

  // --- a symbolic batch's size (SymbolicSizes.cpp) ------------------------
  /// The symbolic batch's name and bound; empty when there is none.
  std::string symbolicBatch;
  int64_t symbolicBatchBound = 0;
  /// Constants computed from the batch's size (Shape and Size fold to the
  /// bound), by element.
  llvm::DenseMap<mlir::Value, SizeMask> sizeMasks;
  /// After the current node's conversion: its outputs' masks; an error
  /// when it computes with the batch's size or uses it in a shape other
  /// than as dim 0.
  mlir::LogicalResult trackSymbolicSizes(llvm::ArrayRef<mlir::Value> outputs);
  SizeMask sizeMaskOf(mlir::Value v) const;
  /// A Reshape of a symbolic batch's value by an ONNX shape: kept as an op
  /// (even when it changes nothing at the bound) that records where its
  /// shape lets the batch land, for checkReshapesOfBatch.
  mlir::Value reshapeWithBatchPositions(mlir::Value v, llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> positions);
  mlir::LogicalResult refuseSizeUse(const llvm::Twine &use);

private:
  std::optional<SizeMask> sizesOfBatch(mlir::Value result);
  std::optional<int64_t> batchDimOf(mlir::Value x);
  /// The batch rules' answer on the function as imported so far, and its
  /// op count then (re-run when ops were added).
  std::optional<SymbolicBatch> layouts;
  size_t layoutsAnalysedAt = size_t(-1);
  mlir::LogicalResult checkSizeAsShape(size_t input, const SizeMask &mask);
  SizeMask propagateSizeMask(mlir::Value result);
  /// Constants indexed by position along the symbol (`arange(t)`, a mask
  /// sliced to `[:t, :t]`, what folds from them): the dims of the result
  /// that have the symbol's extent (dlc.symbol_dims); std::nullopt when the
  /// node makes none; an error when it computes one dlc cannot follow.
  mlir::FailureOr<std::optional<SymbolDims>> positionDimsOf(mlir::Value result);
  SymbolDims positionDimsOfInput(size_t i);
  std::optional<SymbolDims> positionsOfRange();
  mlir::FailureOr<SymbolDims> positionsOfSlice(mlir::Value result);
  std::optional<SymbolDims> positionsMoved(mlir::Value result);
  std::optional<SymbolDims> positionsBroadcast(mlir::Value result);

public:

  // --- walking graphs ------------------------------------------------------
  /// Makes an outer graph's name available in `values` (an initializer is
  /// materialised on first use); set by the model importer. Fails naming it
  /// when nothing produces it.
  std::function<mlir::LogicalResult(const std::string &)> materialize;
  /// Set while a loop's body is built (LoopBody.h): where `materialize`
  /// puts initializers, before the loop, so that uses after it see them.
  mlir::OpBuilder::InsertPoint outerInsertion;
  /// Converts `nodes` in order at the insertion point: each node's inputs
  /// materialised, the node converted, its outputs named in `values`.
  mlir::LogicalResult importNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes);
  /// Inlines a subgraph (If's branches, Loop's body) at the insertion point:
  /// its inputs bound by position to `inputs`, its initializers constants,
  /// outer names visible; fills `outputs` with its outputs. The names it
  /// defines are forgotten afterwards and the current node is restored.
  mlir::LogicalResult importSubgraph(const onnx::GraphProto &graph, llvm::ArrayRef<mlir::Value> inputs,
                                     llvm::SmallVectorImpl<mlir::Value> &outputs);
};

/// Converts the current node (importer.node): fills `outputs`, one per node
/// output (a null Value for an output the node does not produce).
mlir::LogicalResult convertNode(GraphImporter &importer,
                                llvm::SmallVectorImpl<mlir::Value> &outputs);

/// After a symbolic batch's import: every Reshape by an ONNX shape puts
/// the batch where its shape had a -1, a 0 or the batch's size, not a
/// number fixed at export (which another batch would not match). Sets
/// `error` naming the node otherwise; the batch rules' own refusals are
/// left to the compile.
mlir::LogicalResult checkReshapesOfBatch(mlir::func::FuncOp func, std::string &error);

/// Whether convertNode knows the op type (for messages and the conformance
/// runner's "unsupported" column).
bool isSupportedOpType(llvm::StringRef opType);

/// ONNX element type -> MLIR type; null when dlc has no such type.
mlir::Type elementTypeOf(mlir::MLIRContext *context, int32_t onnxType);
const char *onnxTypeName(int32_t onnxType);

/// The values of a TensorProto (raw_data or typed fields); error on external
/// data, unsupported types or a size that does not match the dims.
std::optional<Tensor> tensorFromProto(const onnx::TensorProto &proto, std::string &error);

/// The dense attribute of a reference tensor, element type `type`.
mlir::DenseElementsAttr denseFromTensor(mlir::RankedTensorType type, const Tensor &t);

} // namespace dlc::onnx_import

#endif // DLC_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H
