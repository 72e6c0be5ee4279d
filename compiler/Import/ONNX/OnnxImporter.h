//===- OnnxImporter.h - ONNX ModelProto -> dlc dialect ----------------------===//
//
// Reads an ONNX model (opsets 11 to 17) with the protobuf classes of Debian's
// libonnx and builds `func.func @main` of dlc ops: initializers become
// constants (large ones as dense_resource blobs), node names become op
// locations (NameLoc), graph input/output names become `dlc.name` attributes.
// Shape computations on values known at import time (Shape, Gather of a
// shape, Concat, Cast...) are folded with the reference kernels, so that a
// Reshape's target or a Slice's starts end up as attributes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H
#define DLC_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H

#include "Interpreter/RefTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace dlc {

struct OnnxImportOptions {
  /// NAME -> full static shape, for graph inputs with dynamic dimensions.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// dim_param NAME -> its bound (--max-dim): inputs whose dim 0 is NAME
  /// are imported at the bound, and the function is a symbolic batch NAME
  /// (dlc.symbolic_batch; compiler/README.md, "dimensions known at run time").
  std::map<std::string, int64_t> maxDims;
  /// NAME -> value: the graph input becomes a constant (--bind).
  std::map<std::string, ref::Tensor> bindings;
  /// Raise exporter decompositions (LayerNorm, GELU, Linear) back to dlc ops.
  bool raisePatterns = true;
};

/// Imports the ONNX file at `path`. On failure returns null and sets `error`
/// to a one-line message (without the "error: PATH: " prefix).
mlir::OwningOpRef<mlir::ModuleOp> importOnnxFile(mlir::MLIRContext &context,
                                                 llvm::StringRef path,
                                                 const OnnxImportOptions &options,
                                                 std::string &error);

/// The same from the bytes of a ModelProto; `path` only names the source.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxBytes(mlir::MLIRContext &context,
                                                  llvm::StringRef bytes,
                                                  llvm::StringRef path,
                                                  const OnnxImportOptions &options,
                                                  std::string &error);

/// Parses "1x3x224x224" (also "1,3,224,224"); false on bad syntax.
bool parseShapeSpec(llvm::StringRef spec, std::vector<int64_t> &shape);

/// The raise-patterns pass (RaiseOnnxPatterns.cpp): exporter decompositions
/// back to layer_norm, gelu and linear. Registered as dlc-raise-onnx-patterns.
void registerOnnxImportPasses();
mlir::LogicalResult raiseOnnxPatterns(mlir::ModuleOp module);

} // namespace dlc

#endif // DLC_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H
