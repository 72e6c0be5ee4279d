//===- Passes.td - lowering passes of the CPU path ------------------------===//

#ifndef DLC_LOWERING_PASSES_TD
#define DLC_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerDlcToLinalg : Pass<"dlc-lower-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lowers every dlc op to linalg, tensor, arith and math on tensors";
  let description = [{
    The first step of the CPU path (see CpuPipeline.cpp for the whole path).
    Named linalg ops where they exist (matmul, transpose, fill), linalg.generic
    otherwise; f16 and bf16 are computed in f32 and rounded once per op. No dlc
    op remains afterwards.

    ```mlir
    %y = dlc.add %a, %b : tensor<4x8xf32>
    // becomes
    %e = tensor.empty() : tensor<4x8xf32>
    %y = linalg.generic {...} ins(%a, %b : ...) outs(%e : ...) { arith.addf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
  ];
}

def ApproximateMath : Pass<"dlc-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replaces math ops by polynomial approximations";
  let description = [{
    exp, log, tanh, erf, ... become arithmetic that vectorises, instead of
    scalar libm calls; what has no approximation is left for libm.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect", "::mlir::x86vector::X86VectorDialect"];
}

#endif // DLC_LOWERING_PASSES_TD
