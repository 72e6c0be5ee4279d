//===- OnnxOpsCommon.h - shared by the op converters ---------*- C++ -*-===//
//
// Private to compiler/Import/ONNX: OnnxOps.cpp (arithmetic, activations,
// contractions, normalisation, reductions), OnnxShapeOps.cpp (shapes,
// constants, comparisons folded at import time), OnnxLossOps.cpp (losses,
// ArgMax/ArgMin/Hardmax), OnnxResize.cpp (Resize, Upsample),
// OnnxConvTranspose.cpp, OnnxEinsum.cpp, OnnxNormOps.cpp (MVN, LRN),
// OnnxGatherND.cpp and OnnxRecurrent.cpp (LSTM, GRU, RNN).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_IMPORT_ONNX_ONNXOPSCOMMON_H
#define DLC_COMPILER_IMPORT_ONNX_ONNXOPSCOMMON_H

#include "compiler/Import/ONNX/GraphImporter.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <numeric>

namespace dlc::onnx_import {

using Outputs = llvm::SmallVectorImpl<mlir::Value>;
using Converter = std::function<mlir::LogicalResult(GraphImporter &, Outputs &)>;

inline int64_t normAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

inline int64_t product(llvm::ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t(1), std::multiplies<int64_t>());
}

/// Adds the converters of OnnxShapeOps.cpp to `table`.
void addShapeConverters(llvm::StringMap<Converter> &table);
/// Adds the converters of OnnxLossOps.cpp (losses, ArgMax/ArgMin/Hardmax) to `table`.
void addLossConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxResize.cpp's Resize and Upsample to `table`.
void addResizeConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxConvTranspose.cpp's ConvTranspose to `table`.
void addConvTransposeConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxEinsum.cpp's Einsum to `table`.
void addEinsumConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxNormOps.cpp's MeanVarianceNormalization and LRN to `table`.
void addNormConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxGatherND.cpp's GatherND and ScatterND to `table`.
void addGatherNDConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxRecurrent.cpp's LSTM, GRU and RNN to `table`.
void addRecurrentConverters(llvm::StringMap<Converter> &table);
/// Adds OnnxControlFlow.cpp's If and Loop (inlined at import time) to `table`.
void addControlFlowConverters(llvm::StringMap<Converter> &table);

/// A recurrent cell's activation by ONNX name (Relu, Tanh, Sigmoid, Affine,
/// LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign,
/// Softplus) with its alpha and beta; null for another name.
mlir::Value activationByName(GraphImporter &g, llvm::StringRef name, mlir::Value x, double alpha,
                             double beta);

/// dlc.reduce_{sum,mean,prod,max} ("sum", "mean", "prod", anything else: max) of `x`;
/// "min" as the max of an order-reversing map (neg for floats, -1 - x for
/// integers), mapped back.
mlir::Value reduce(GraphImporter &g, llvm::StringRef kind, mlir::Value x,
                   llvm::ArrayRef<int64_t> axes, bool keep);
/// Softmax, LogSoftmax and Hardmax before opset 13: `x` coerced to 2-D at
/// `axis` (normalised over all trailing dimensions), `axis` then 1; as it is
/// when `axis` is already the last.
mlir::Value coerceTo2D(GraphImporter &g, mlir::Value x, int64_t &axis);
/// `v` transposed by `perm` (OnnxShapeOps.cpp, like the three below).
mlir::Value transposed(GraphImporter &g, mlir::Value v, llvm::ArrayRef<int64_t> perm);
/// A constant block of zeros shaped like `like` with `length` along `axis`.
mlir::Value zerosLike(GraphImporter &g, mlir::Value like, int64_t axis, int64_t length);
/// `pieces` concatenated along `axis`.
mlir::Value concatAlong(GraphImporter &g, llvm::ArrayRef<mlir::Value> pieces, int64_t axis);
/// `v` with [from, to) kept along `axis`.
mlir::Value sliceAlong(GraphImporter &g, mlir::Value v, int64_t axis, int64_t from, int64_t to);
/// log(softmax(x)) along `axis`, shifted by the maximum against overflow.
mlir::Value logSoftmax(GraphImporter &g, mlir::Value x, int64_t axis);

} // namespace dlc::onnx_import

#endif // DLC_COMPILER_IMPORT_ONNX_ONNXOPSCOMMON_H
