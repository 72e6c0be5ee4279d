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

def PartitionKernels : Pass<"dlc-partition-kernels", "mlir::func::FuncOp"> {
  let summary = "Groups connected same-device ops into kernels, the unit of launch";
  let description = [{
    Writes `dlc.kernel = N` on every op that belongs to a kernel: an op starts
    a new kernel unless it is elementwise, on the open kernel's device, and
    consumes one of its values (so bias adds and activations join the matmul
    or convolution before them). Constants, reshapes and copies get none.
    Both code generators start from these groups. See PartitionKernels.cpp.
  }];
}

def BatchRows : Pass<"dlc-batch-rows", "mlir::func::FuncOp"> {
  let summary = "Marks how many rows per unit of the batch each value's dim 0 holds";
  let description = [{
    Every argument's dim 0 is a batch of `bound` units; each op whose results
    depend on it gets `dlc.rows_per_unit` (per result: dim 0 / bound, 0 for a
    result that does not depend on the batch), and an op that mixes the units
    (a reduction over the batch, a transpose moving it, ...) is an error
    naming it. The analysis a symbolic batch rests on; see BatchRows.h.
  }];
  let options = [
    Option<"bound", "bound", "int64_t", "1", "the batch's size (every argument's dim 0)">,
  ];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def SinkReshapes : Pass<"dlc-sink-reshapes", "mlir::func::FuncOp"> {
  let summary = "Rewrites elementwise ops on a reshape's source, so that they join its producer's kernel";
  let description = [{
    `op(reshape(x), ...)` for a fusable elementwise op becomes
    `reshape(op(x, ...))`: operands of the op's shape are viewed in x's
    shape, operands that broadcast along kept dimensions stay. A reshape ends
    the open kernel, so the op (a GELU or residual add after a 3-D linear)
    becomes the producer's epilogue instead of a kernel of its own. See
    SinkReshapes.cpp.
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def FoldBatchNorm : Pass<"dlc-fold-batch-norm", "mlir::func::FuncOp"> {
  let summary = "Folds an inference batch_norm into the constant weight and bias of its conv2d";
  let description = [{
    `batch_norm(conv2d(x, W, b))` with f32 constants, the batch norm as the
    convolution's only user and both on one device becomes
    `conv2d(x, W * s, (b - mean) * s + beta)`, `s = gamma / sqrt(var + eps)`,
    computed at compile time. See FoldBatchNorm.cpp.
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def PlaceDevices : Pass<"dlc-place", "mlir::ModuleOp"> {
  let summary = "Places every op on a logical device (pins, policy, cost model, memory)";
  let description = [{
    Writes `device` and `dlc.reason` (pinned, unsupported, capacity, cost,
    default, view) on every op of every function, and `dlc.order`, the execution
    order the placer assumed (a topological order; the memory estimate and the
    makespan are computed over it). Constants follow their consumers: one
    constant per device that uses it (weights are loaded once, not copied per
    run). Views (reshapes) a policy places follow their source's device
    (reason `view`): they have no step of their own. Policies: `cost` (HEFT-style list scheduling with per-device memory
    capacity as a hard constraint), `cpu`, `gpu` (the first GPU in `devices`),
    `pipeline:N` (N contiguous stages on N GPUs, minimising the slowest),
    `data-parallel:N` (the batch split over N replicas on N GPUs, sliced and
    concatenated on the CPU). `placement-from` reuses a JSON placement dump.

    ```mlir
    %y = dlc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    // after --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu})':
    %y = dlc.matmul %a, %b {device = #dlc.device<cuda:0>, dlc.order = 0 : i64,
                            dlc.reason = "default"} : ...
    ```

    Copies are not inserted here (see dlc-insert-copies); the estimates and
    dumps already count the ones it will insert.
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
  let options = [
    ListOption<"devices", "devices", "std::string",
               "Logical devices to place on: cpu, cuda:N (default: cpu, or every device of the spec)">,
    Option<"policy", "policy", "std::string", /*default=*/"\"cost\"",
           "cost | cpu | gpu | pipeline:N | data-parallel:N">,
    ListOption<"pins", "pins", "std::string",
               "REGEX=DEVICE: ops whose name the regex matches anywhere go to DEVICE (first match wins)">,
    Option<"deviceSpec", "device-spec", "std::string", /*default=*/"\"\"",
           "A JSON device spec (passes/README.md); default: the built-in profiles">,
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"native\"",
           "The CPU the built-in cpu profile describes (dlc compile's --cpu)">,
    Option<"fallback", "fallback", "std::string", /*default=*/"\"cpu\"",
           "What to do with an op its device cannot run: cpu (fall back, reason unsupported) | error">,
    Option<"placementFrom", "placement-from", "std::string", /*default=*/"\"\"",
           "Reuse a placement dump (JSON, possibly edited) as the placement, checked like pins">,
    Option<"dump", "dump", "std::string", /*default=*/"\"\"",
           "Write the placement to FILE.txt, FILE.json or FILE.dot">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the placement as a text table on stderr">,
  ];
}

def PrepareEntry : Pass<"dlc-prepare-entry", "mlir::ModuleOp"> {
  let summary = "Names every unnamed op and keeps only the function to compile";
  let description = [{
    The first stage of `dlc compile`: every op without a location name gets
    `<op>_<n>` (its kind and position) as its name, before any pass adds or
    removes ops, so that the artifact's buffers, the placement dump and
    `dlc run --compare-reference` agree on names. When the module has a
    function named `entry`, every other function is erased: only the entry
    is placed and compiled (the other functions' errors are not this
    compile's). Without one, nothing is erased and the artifact stage reports
    the missing entry.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to compile">,
  ];
}

def ReportPlacement : Pass<"dlc-report-placement", "mlir::ModuleOp"> {
  let summary = "Writes the placement of every function as a table, JSON or DOT";
  let description = [{
    After dlc-place (and dlc-mixed-precision, dlc-insert-copies): the
    placement report of each function (passes/PlacementReport.h) over the
    device spec dlc-place recorded on the module (`dlc.device_spec`), printed on stderr (`print`) and/or written to
    `dump` (`.txt`, `.json` or `.dot`). It changes nothing. `dlc compile
    --dump-placement/--print-placement` run it.
  }];
  let options = [
    Option<"dump", "dump", "std::string", /*default=*/"\"\"",
           "Write the placement to FILE.txt, FILE.json or FILE.dot">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the placement as a text table on stderr">,
  ];
}

def InsertCopies : Pass<"dlc-insert-copies", "mlir::func::FuncOp"> {
  let summary = "Inserts one dlc.copy per (value, destination device)";
  let description = [{
    After dlc-place: every use of a value on another device than the one it
    lives on reads it through a `dlc.copy` to the consumer's device, one per
    (value, device), shared by every consumer there and placed right after the
    value's definition. Function arguments and results live on the CPU.

    ```mlir
    %h = dlc.relu %x {device = #dlc.device<cuda:0>} : tensor<4xf32>
    return %h : tensor<4xf32>
    // becomes
    %xc = dlc.copy %x to cuda:0 : tensor<4xf32>
    %h = dlc.relu %xc {device = #dlc.device<cuda:0>} : tensor<4xf32>
    %hc = dlc.copy %h to cpu : tensor<4xf32>
    return %hc : tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def MixedPrecision : Pass<"dlc-mixed-precision", "mlir::func::FuncOp"> {
  let summary = "Paints GPU ops fp16 by their fp16 policy; casts where regions meet";
  let description = [{
    After dlc-place, before dlc-insert-copies. `mixed` paints GPU ops as
    TensorFlow's auto-mixed-precision does (allow ops; infer and clear ops
    between allow ops; clear ops next to painted ones; deny spreading forward
    through infer ops), `fp16` every GPU op but deny ones. Painted ops get f16
    results (matmul, linear, conv2d `accumulator = f32`); one `dlc.cast` per
    (value, device, dtype) where painted and unpainted ops meet, narrowing
    casts before the copy; constants converted at compile time; cast chains
    folded unless high -> low -> high. `dlc.precision = "fp16"|"fp32"` on an
    op pins it. Prints `converted N of M ops using K casts`.

    ```mlir
    %h = dlc.linear %x, %w {device = #dlc.device<cuda:0>} : ... -> tensor<4x8xf32>
    // becomes
    %xh = dlc.cast %x {device = #dlc.device<cpu>} : tensor<4x16xf32> -> tensor<4x16xf16>
    %h = dlc.linear %xh, %wh {accumulator = f32, device = #dlc.device<cuda:0>} : ... -> tensor<4x8xf16>
    ```
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "fp32 (only pinned ops) | mixed (by op policy) | fp16 (every GPU op not deny)">,
    Option<"ioPrecision", "io-precision", "std::string", /*default=*/"\"fp32\"",
           "fp32 | fp16: the element type of the function's f32 inputs and outputs">,
    ListOption<"fp16Allow", "fp16-allow", "std::string",
               "Op kinds treated as allow (e.g. add,gelu)">,
    ListOption<"fp16Deny", "fp16-deny", "std::string",
               "Op kinds treated as deny">,
  ];
}

#endif // DLC_PASSES_TD
