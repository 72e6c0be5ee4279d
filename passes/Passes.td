//===- Passes.td - dlc graph passes ---------------------------------------===//

#ifndef DLC_PASSES_TD
#define DLC_PASSES_TD

include "mlir/Pass/PassBase.td"

def ReportCost : Pass<"dlc-report-cost", "mlir::func::FuncOp"> {
  let summary = "Reports each op's FLOPs, bytes and fp16 policy as remarks";
  let description = [{
    Emits one remark per dlc op with what the cost model and the
    mixed-precision pass will see of it, and one remark per function with the
    totals. It changes nothing; it is how the cost and fp16-policy interfaces
    are inspected and tested.

    ```mlir
    %y = dlc.matmul %a, %b : (tensor<32x784xf32>, tensor<784x1024xf32>) -> tensor<32x1024xf32>
    // remark: dlc.matmul: 51380224 flops, 3436544 bytes, fp16 allow
    ```
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def LinearToMatmul : Pass<"dlc-linear-to-matmul", "mlir::func::FuncOp"> {
  let summary = "Rewrites constant-weight linear ops as matmul with Wᵀ and a bias add";
  let description = [{
    `linear(x, W, b)` with a constant `W [N, K]` becomes
    `reshape(add(matmul(reshape(x), Wᵀ), b))`, with `Wᵀ [K, N]` computed at
    compile time, so that the CPU's matmul streams B along rows. The old
    weight constant stays for other users and is erased when unused. Pins are
    kept on every new op.
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

#endif // DLC_PASSES_TD
