//===- ImportPasses.td - passes of the ONNX importer ---------------------===//

#ifndef DLC_IMPORT_PASSES_TD
#define DLC_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def RaiseOnnxPatterns : Pass<"dlc-raise-onnx-patterns", "mlir::func::FuncOp"> {
  let summary = "Raises exporter decompositions back to layer_norm, gelu and linear";
  let description = [{
    PyTorch writes at opset 13 what dlc has as one op as chains of small ops;
    fusion and the fp16 policy want the one op back. Runs right after import
    (`dlc import` and `dlc compile model.onnx` run it).

    ```mlir
    // mean = reduce_mean(x); d = x - mean; var = reduce_mean(d ^ 2)
    // y = d / sqrt(var + eps) * gamma + beta
    %y = dlc.layer_norm %x, %gamma, %beta {axis = 2, epsilon = 1e-5}
    // x * (erf(x / sqrt(2)) + 1) * 0.5
    %g = dlc.gelu %x
    // matmul(x, W [K, N]) + b, W and b constants
    %l = dlc.linear %x, %WT, %b     // WT [N, K], transposed at import
    ```
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

#endif // DLC_IMPORT_PASSES_TD
