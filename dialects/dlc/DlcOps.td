//===- DlcOps.td - the ops of the dlc dialect -------------------------------===//
//
// Every op: a summary, a description with an IR example, traits over C++,
// hasVerifier only for what ODS cannot say (shapes), an fp16 policy and a cost.
// Shape rules live in DlcShapes.cpp and are shared by the verifiers and the
// result-type-inferring builders.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_OPS_TD
#define DLC_OPS_TD

include "dialects/dlc/DlcBase.td"
include "dialects/dlc/DlcInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Elementwise ops: each result element depends on the operand elements at the
// same (broadcast) index only. Kernel formation fuses them into the open
// kernel; the backends and data-parallel splitting ask for this trait rather
// than keeping op lists (dlc::isElementwise in DlcOps.h).
def Dlc_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::dlc::OpTrait";
}

// Base of every dlc op. `customFlops` ops implement getFlops in DlcCost.cpp;
// the rest count `flopsPerElement` operations per result element.
class Dlc_Op<string mnemonic, list<Trait> traits = [], bit customFlops = 0>
    : Op<Dlc_Dialect, mnemonic, !listconcat(traits, [Pure,
          Dlc_Fp16PolicyOpInterface,
          !if(customFlops,
              DeclareOpInterfaceMethods<Dlc_CostOpInterface, ["getFlops"]>,
              Dlc_CostOpInterface)])> {
  string fp16Policy = "Infer";
  int flopsPerElement = 1;
  code extraDecl = "";
  let extraClassDeclaration =
      "static constexpr ::dlc::Fp16Policy kFp16Policy = "
      "::dlc::Fp16Policy::" # fp16Policy # ";\n"
      "static constexpr int64_t kFlopsPerElement = "
      # !cast<string>(flopsPerElement) # ";\n" # extraDecl;
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

def Dlc_ConstantOp : Dlc_Op<"constant", [ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "A tensor constant: a weight, a bias, a literal";
  let description = [{
    A constant tensor. Small values are written inline with `dense<...>`;
    large weights as `dense_resource<name>`, whose bytes live in the file's
    `dialect_resources` section (no text blow-up).

    ```mlir
    %b = dlc.constant dense<[0.5, -1.0]> : tensor<2xf32>
    %w = dlc.constant dense_resource<fc1_weight> : tensor<1024x784xf32>
    ```
  }];
  let arguments = !con((ins ElementsAttr:$value), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops (NumPy broadcasting)
//===----------------------------------------------------------------------===//

class Dlc_BinaryOp<string mnemonic, string policy, string math,
                   Type operandType = Dlc_NumericTensor>
    : Dlc_Op<mnemonic, [Dlc_Elementwise, AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "Elementwise " # math # " with NumPy broadcasting";
  let description = [{
    Computes `}] # math # [{` element by element. The operand shapes broadcast
    like NumPy's: aligned from the right, each pair of sizes equal or one of
    them 1. When all three types are equal the type is written once.

    ```mlir
    %c = dlc.}] # mnemonic # [{ %a, %b : tensor<4x8xf32>
    %d = dlc.}] # mnemonic # [{ %a, %row : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins operandType:$lhs, operandType:$rhs), DevicePin);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<BroadcastTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let fp16Policy = policy;
  let builders = [OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs), [{
    build($_builder, $_state,
          ::dlc::inferBroadcastType(lhs.getType(), rhs.getType()), lhs, rhs,
          ::dlc::DeviceAttr());
  }]>];
}

def Dlc_AddOp : Dlc_BinaryOp<"add", "Infer", "lhs + rhs">;
def Dlc_SubOp : Dlc_BinaryOp<"sub", "Infer", "lhs - rhs">;
def Dlc_MulOp : Dlc_BinaryOp<"mul", "Infer", "lhs * rhs">;
def Dlc_DivOp : Dlc_BinaryOp<"div", "Infer", "lhs / rhs">;
def Dlc_PowOp : Dlc_BinaryOp<"pow", "Deny", "lhs ^ rhs", Dlc_FloatTensor> {
  let flopsPerElement = 8;
}
def Dlc_MaxOp : Dlc_BinaryOp<"max", "Infer", "max(lhs, rhs)">;
// The remainders of lhs / rhs: `rem` truncated (C's fmod and %: the sign of
// lhs), `mod` floored (Python's %: the sign of rhs). An integer rhs of 0 is
// undefined behaviour on the CPU, as C's %.
def Dlc_RemOp : Dlc_BinaryOp<"rem", "Deny", "lhs - trunc(lhs / rhs) * rhs">;
def Dlc_ModOp : Dlc_BinaryOp<"mod", "Deny", "lhs - floor(lhs / rhs) * rhs">;
def Dlc_MinOp : Dlc_BinaryOp<"min", "Infer", "min(lhs, rhs)">;
// Bit shifts of integers by rhs bits. A shift by the width or more (or by a
// negative amount, read as unsigned) gives 0, except a right shift of a
// signed value, which fills with its sign (arithmetic).
def Dlc_ShiftLeftOp : Dlc_BinaryOp<"shift_left", "Deny", "lhs << rhs", Dlc_IntegerTensor>;
def Dlc_ShiftRightOp : Dlc_BinaryOp<"shift_right", "Deny", "lhs >> rhs", Dlc_IntegerTensor>;

//===----------------------------------------------------------------------===//
// compare and select (ONNX Equal/Less/.../Where/And/Or/Xor/Not)
//===----------------------------------------------------------------------===//

def Dlc_CompareOp : Dlc_Op<"compare", [Dlc_Elementwise, AllElementTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Elementwise comparison with NumPy broadcasting; an i1 result";
  let description = [{
    `lhs <predicate> rhs` element by element, one of `eq`, `ne`, `lt`, `le`,
    `gt`, `ge`. Operands of one element type (i1 too: `ne` of two masks is
    their xor), broadcast like the binary ops; the result is i1. Floats compare
    ordered (any NaN gives false) except `ne`, true for NaN; i1 compares as
    0/1.

    ```mlir
    %m = dlc.compare "lt", %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
    ```
  }];
  let arguments = !con((ins StrAttr:$predicate, Dlc_Tensor:$lhs, Dlc_Tensor:$rhs),
                       DevicePin);
  let results = (outs StaticShapeTensorOf<[I1]>:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` custom<BroadcastTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  // Rounding operands to fp16 can flip a comparison. (Its i1 result is never
  // f32, so the mixed-precision pass does not convert it anyway.)
  let fp16Policy = "Deny";
  let builders = [OpBuilder<(ins "::llvm::StringRef":$predicate, "::mlir::Value":$lhs,
                                 "::mlir::Value":$rhs), [{
    // Shapes that do not broadcast keep lhs's shape; the verifier reports them.
    ::mlir::RankedTensorType type = ::dlc::inferBroadcastType(lhs.getType(), rhs.getType());
    auto shape = (type ? type : ::mlir::cast<::mlir::RankedTensorType>(lhs.getType())).getShape();
    build($_builder, $_state,
          ::mlir::RankedTensorType::get(shape, $_builder.getI1Type()),
          $_builder.getStringAttr(predicate), lhs, rhs, ::dlc::DeviceAttr());
  }]>];
}

def Dlc_SelectOp : Dlc_Op<"select", [Dlc_Elementwise, AllElementTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "Elementwise `condition ? true_value : false_value`, broadcasting";
  let description = [{
    Picks `true_value` where the i1 `condition` is set, `false_value`
    elsewhere (ONNX Where). The three shapes broadcast like NumPy's; the
    values and the result share one element type.

    ```mlir
    %y = dlc.select %mask, %x, %zero : tensor<4x8xi1>, tensor<4x8xf32>, tensor<1x1xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins StaticShapeTensorOf<[I1]>:$condition, Dlc_Tensor:$true_value,
                            Dlc_Tensor:$false_value), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` type($condition) `,`
    type($true_value) `,` type($false_value) `->` type($result)
  }];
  let hasVerifier = 1;
  let fp16Policy = "Infer";
  let builders = [OpBuilder<(ins "::mlir::Value":$condition, "::mlir::Value":$trueValue,
                                 "::mlir::Value":$falseValue), [{
    ::mlir::RankedTensorType type = ::dlc::inferBroadcastType(condition.getType(), trueValue.getType());
    type = type ? ::dlc::inferBroadcastType(type, falseValue.getType()) : type;
    auto shape = (type ? type : ::mlir::cast<::mlir::RankedTensorType>(trueValue.getType())).getShape();
    auto element = ::mlir::cast<::mlir::RankedTensorType>(trueValue.getType()).getElementType();
    build($_builder, $_state, ::mlir::RankedTensorType::get(shape, element),
          condition, trueValue, falseValue, ::dlc::DeviceAttr());
  }]>];
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Dlc_UnaryOp<string mnemonic, string policy, string math, int flops = 1,
                  Type operandType = Dlc_FloatTensor>
    : Dlc_Op<mnemonic, [Dlc_Elementwise, SameOperandsAndResultType]> {
  let summary = "Elementwise " # math;
  let description = [{
    Computes `}] # math # [{` element by element.

    ```mlir
    %y = dlc.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins operandType:$input), DevicePin);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let fp16Policy = policy;
  let flopsPerElement = flops;
  let builders = [OpBuilder<(ins "::mlir::Value":$input), [{
    build($_builder, $_state, input.getType(), input, ::dlc::DeviceAttr());
  }]>];
}

def Dlc_NegOp : Dlc_UnaryOp<"neg", "Infer", "-x", 1, Dlc_NumericTensor>;
def Dlc_AbsOp : Dlc_UnaryOp<"abs", "Infer", "|x|", 1, Dlc_NumericTensor>;
def Dlc_ExpOp : Dlc_UnaryOp<"exp", "Deny", "e^x", 4>;
def Dlc_LogOp : Dlc_UnaryOp<"log", "Deny", "ln(x)", 4>;
def Dlc_SqrtOp : Dlc_UnaryOp<"sqrt", "Infer", "sqrt(x)", 2>;
def Dlc_RsqrtOp : Dlc_UnaryOp<"rsqrt", "Infer", "1 / sqrt(x)", 2>;
def Dlc_TanhOp : Dlc_UnaryOp<"tanh", "Infer", "tanh(x)", 6>;
def Dlc_SigmoidOp : Dlc_UnaryOp<"sigmoid", "Infer", "1 / (1 + e^-x)", 6>;
def Dlc_ErfOp : Dlc_UnaryOp<"erf", "Infer", "erf(x)", 8>;
def Dlc_ReluOp : Dlc_UnaryOp<"relu", "Clear", "max(x, 0)", 1, Dlc_NumericTensor>;
// The trigonometric and hyperbolic functions and their inverses (NaN outside
// their domains); fp32 under mixed precision: few models use them, and those
// that do (positional encodings) need the digits.
def Dlc_SinOp : Dlc_UnaryOp<"sin", "Deny", "sin(x)", 8>;
def Dlc_CosOp : Dlc_UnaryOp<"cos", "Deny", "cos(x)", 8>;
def Dlc_TanOp : Dlc_UnaryOp<"tan", "Deny", "tan(x)", 8>;
def Dlc_AsinOp : Dlc_UnaryOp<"asin", "Deny", "asin(x)", 8>;
def Dlc_AcosOp : Dlc_UnaryOp<"acos", "Deny", "acos(x)", 8>;
def Dlc_AtanOp : Dlc_UnaryOp<"atan", "Deny", "atan(x)", 8>;
def Dlc_SinhOp : Dlc_UnaryOp<"sinh", "Deny", "sinh(x)", 8>;
def Dlc_CoshOp : Dlc_UnaryOp<"cosh", "Deny", "cosh(x)", 8>;
def Dlc_AsinhOp : Dlc_UnaryOp<"asinh", "Deny", "asinh(x)", 8>;
def Dlc_AcoshOp : Dlc_UnaryOp<"acosh", "Deny", "acosh(x)", 8>;
def Dlc_AtanhOp : Dlc_UnaryOp<"atanh", "Deny", "atanh(x)", 8>;
// Rounding: to the integers toward +inf, toward -inf, and to the nearest with
// ties to even (ONNX's Round).
def Dlc_CeilOp : Dlc_UnaryOp<"ceil", "Infer", "ceil(x)", 1>;
def Dlc_FloorOp : Dlc_UnaryOp<"floor", "Infer", "floor(x)", 1>;
def Dlc_RoundOp : Dlc_UnaryOp<"round", "Infer", "x rounded to the nearest integer, ties to even", 1>;
def Dlc_SignOp : Dlc_UnaryOp<"sign", "Infer", "-1, 0 or 1 by the sign of x (NaN stays NaN)", 1,
                             Dlc_NumericTensor>;

def Dlc_GeluOp : Dlc_Op<"gelu", [Dlc_Elementwise, SameOperandsAndResultType]> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `0.5 x (1 + erf(x / sqrt(2)))`, or with `tanh_approximation` the tanh
    form `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` that PyTorch calls
    `approximate='tanh'`.

    ```mlir
    %y = dlc.gelu %x : tensor<32x1024xf32>
    %z = dlc.gelu %x {tanh_approximation = true} : tensor<32x1024xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input,
                        DefaultValuedAttr<BoolAttr, "false">:$tanh_approximation),
                       DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let fp16Policy = "Infer";
  let flopsPerElement = 10;
}

def Dlc_ClipOp : Dlc_Op<"clip", [Dlc_Elementwise, SameOperandsAndResultType]> {
  let summary = "Clamps every element to [min, max]";
  let description = [{
    `min(max(x, min), max)`; ReLU6 is `clip` to [0, 6].

    ```mlir
    %y = dlc.clip %x {min = 0.0, max = 6.0} : tensor<4x32x16x16xf32>
    ```
  }];
  let arguments = !con((ins Dlc_NumericTensor:$input, F64Attr:$min, F64Attr:$max),
                       DevicePin);
  let results = (outs Dlc_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let fp16Policy = "Infer";
  let flopsPerElement = 2;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

// The type the products are summed in (f32 only), rounded once to the
// result's type at the end; absent: f32 for f16/bf16 operands, else the
// operands' type.
// dlc-mixed-precision writes `accumulator = f32` on the contractions it paints.
defvar Accumulator = (ins OptionalAttr<TypeAttrOf<AnyFloat>>:$accumulator);

def Dlc_MatmulOp : Dlc_Op<"matmul", [AllElementTypesMatch<["lhs", "rhs", "result"]>],
                          /*customFlops=*/1> {
  let summary = "Batched matrix product with broadcasting batch dimensions";
  let description = [{
    NumPy's `matmul` on operands of rank 2 or more: `[..., M, K] x [..., K, N]
    -> [..., M, N]`, the batch dimensions broadcasting.

    ```mlir
    %c = dlc.matmul %a, %b : (tensor<2x4x128x64xf32>, tensor<2x4x64x128xf32>) -> tensor<2x4x128x128xf32>
    ```
  }];
  let arguments = !con((ins Dlc_NumericTensor:$lhs, Dlc_NumericTensor:$rhs), DevicePin,
                       Accumulator);
  let results = (outs Dlc_NumericTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs,
                                 "::mlir::Value":$rhs, "::dlc::DeviceAttr":$device), [{
    build($_builder, $_state, result, lhs, rhs, device, ::mlir::TypeAttr());
  }]>];
  let hasVerifier = 1;
  let fp16Policy = "Allow";
}

def Dlc_LinearOp : Dlc_Op<"linear", [AllElementTypesMatch<["input", "weight", "result"]>],
                          /*customFlops=*/1> {
  let summary = "Fully connected layer: x * weight^T + bias";
  let description = [{
    PyTorch's `nn.Linear`: `input [..., K]`, `weight [N, K]`, optional
    `bias [N]`, result `[..., N]`.

    ```mlir
    %y = dlc.linear %x, %w, %b : (tensor<32x784xf32>, tensor<1024x784xf32>, tensor<1024xf32>) -> tensor<32x1024xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$weight,
                        Optional<Dlc_FloatTensor>:$bias), DevicePin, Accumulator);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let fp16Policy = "Allow";
}

def Dlc_Conv2dOp : Dlc_Op<"conv2d", [AllElementTypesMatch<["input", "filter", "result"]>],
                          /*customFlops=*/1> {
  let summary = "2-D convolution, NCHW";
  let description = [{
    `input [N, C, H, W]`, `filter [O, C / groups, KH, KW]`, optional
    `bias [O]`; `pads` are `[top, left, bottom, right]`. The result is
    `[N, O, OH, OW]` with `OH = (H + top + bottom - dilation (KH - 1) - 1) /
    stride + 1` (and likewise OW).

    ```mlir
    %y = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
        : (tensor<4x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<4x16x16x16xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$filter,
                        Optional<Dlc_FloatTensor>:$bias,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                        DefaultValuedAttr<I64Attr, "1">:$groups), DevicePin,
                       Accumulator);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let fp16Policy = "Allow";
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Dlc_MaxPool2dOp : Dlc_Op<"max_pool2d", [AllElementTypesMatch<["input", "result"]>],
                             /*customFlops=*/1> {
  let summary = "2-D max pooling, NCHW";
  let description = [{
    The maximum over each `kernel_shape` window; padding never wins.

    ```mlir
    %y = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
        : tensor<4x16x32x32xf32> -> tensor<4x16x16x16xf32>
    ```
  }];
  let arguments = !con((ins Dlc_NumericTensor:$input,
                        DenseI64ArrayAttr:$kernel_shape,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations),
                       DevicePin);
  let results = (outs Dlc_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
}

def Dlc_AvgPool2dOp : Dlc_Op<"avg_pool2d", [AllElementTypesMatch<["input", "result"]>],
                             /*customFlops=*/1> {
  let summary = "2-D average pooling, NCHW";
  let description = [{
    The mean over each `kernel_shape` window; padded positions count only with
    `count_include_pad`.

    ```mlir
    %y = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
        : tensor<4x16x15x15xf32> -> tensor<4x16x15x15xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input,
                        DenseI64ArrayAttr:$kernel_shape,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                        DefaultValuedAttr<BoolAttr, "false">:$count_include_pad),
                       DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
}

def Dlc_GlobalAvgPoolOp : Dlc_Op<"global_avg_pool",
    [AllElementTypesMatch<["input", "result"]>], /*customFlops=*/1> {
  let summary = "Mean over the spatial dimensions, NCHW";
  let description = [{
    `[N, C, H, W] -> [N, C, 1, 1]`: the mean of every channel's plane. A
    reduction, so it stays in fp32 under mixed precision.

    ```mlir
    %y = dlc.global_avg_pool %x : tensor<4x64x8x8xf32> -> tensor<4x64x1x1xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input), DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let fp16Policy = "Deny";
}

//===----------------------------------------------------------------------===//
// Normalisation and softmax
//===----------------------------------------------------------------------===//

def Dlc_BatchNormOp : Dlc_Op<"batch_norm", [
    AllElementTypesMatch<["input", "scale", "bias", "mean", "variance", "result"]>,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "Batch normalisation (inference) over channel axis 1";
  let description = [{
    `(x - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + bias[c]` with
    `c` the index along axis 1; the four parameters have shape `[C]`.

    ```mlir
    %y = dlc.batch_norm %x, %gamma, %beta, %mean, %var {epsilon = 1.0e-05 : f64}
        : (tensor<4x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$scale,
                        Dlc_FloatTensor:$bias, Dlc_FloatTensor:$mean,
                        Dlc_FloatTensor:$variance,
                        DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon), DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let fp16Policy = "Deny";
  let flopsPerElement = 2;
}

def Dlc_LayerNormOp : Dlc_Op<"layer_norm", [
    AllElementTypesMatch<["input", "scale", "result"]>,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "Layer normalisation over the trailing dimensions";
  let description = [{
    Normalises over dimensions `[axis, rank)`: `(x - mean) / sqrt(var +
    epsilon) * scale + bias`, with `scale` and the optional `bias` shaped like
    those trailing dimensions. A negative axis counts from the end.

    ```mlir
    %y = dlc.layer_norm %x, %gamma, %beta {axis = -1 : i64, epsilon = 1.0e-05 : f64}
        : (tensor<2x128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<2x128x256xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$scale,
                        Optional<Dlc_FloatTensor>:$bias,
                        DefaultValuedAttr<I64Attr, "-1">:$axis,
                        DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon), DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let fp16Policy = "Deny";
  let flopsPerElement = 8;
}

def Dlc_SoftmaxOp : Dlc_Op<"softmax", [SameOperandsAndResultType]> {
  let summary = "Softmax along one axis";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis` (negative counts from the
    end).

    ```mlir
    %p = dlc.softmax %logits {axis = -1 : i64} : tensor<32x10xf32>
    ```
  }];
  let arguments = !con((ins Dlc_FloatTensor:$input,
                        DefaultValuedAttr<I64Attr, "-1">:$axis), DevicePin);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let fp16Policy = "Deny";
  let flopsPerElement = 5;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Dlc_ReduceOp<string mnemonic, string math>
    : Dlc_Op<mnemonic, [AllElementTypesMatch<["input", "result"]>], /*customFlops=*/1> {
  let summary = "The " # math # " over the given axes";
  let description = [{
    Reduces `axes` (negative count from the end; empty means all) by }] #
    math # [{. With `keepdims` the reduced dimensions stay as size 1.

    ```mlir
    %s = dlc.}] # mnemonic # [{ %x {axes = array<i64: -1>, keepdims = true} : tensor<2x128x256xf32> -> tensor<2x128x1xf32>
    ```
  }];
  let arguments = !con((ins Dlc_NumericTensor:$input,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
                        DefaultValuedAttr<BoolAttr, "false">:$keepdims), DevicePin);
  let results = (outs Dlc_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let fp16Policy = "Deny";
}

def Dlc_ReduceSumOp : Dlc_ReduceOp<"reduce_sum", "sum">;
def Dlc_ReduceMeanOp : Dlc_ReduceOp<"reduce_mean", "mean">;
def Dlc_ReduceMaxOp : Dlc_ReduceOp<"reduce_max", "maximum">;
def Dlc_ReduceProdOp : Dlc_ReduceOp<"reduce_prod", "product">;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Dlc_TransposeOp : Dlc_Op<"transpose", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Permutes the dimensions";
  let description = [{
    Result dimension `i` is input dimension `perm[i]`.

    ```mlir
    %t = dlc.transpose %x {perm = array<i64: 0, 2, 1, 3>} : tensor<2x128x4x64xf32> -> tensor<2x4x128x64xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$input, DenseI64ArrayAttr:$perm), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_ReshapeOp : Dlc_Op<"reshape", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Reinterprets the elements in a new shape";
  let description = [{
    Same elements in row-major order, a new static shape with the same number
    of elements.

    ```mlir
    %r = dlc.reshape %x : tensor<2x128x256xf32> -> tensor<2x128x4x64xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$input), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_ConcatOp : Dlc_Op<"concat", [SameOperandsAndResultElementType]> {
  let summary = "Joins tensors along one axis";
  let description = [{
    All inputs agree on every dimension but `axis` (negative counts from the
    end); the result's `axis` is their sum.

    ```mlir
    %c = dlc.concat %a, %b {axis = 1 : i64} : (tensor<4x16x8x8xf32>, tensor<4x8x8x8xf32>) -> tensor<4x24x8x8xf32>
    ```
  }];
  let arguments = !con((ins Variadic<Dlc_Tensor>:$inputs, I64Attr:$axis), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_SliceOp : Dlc_Op<"slice", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "A strided window of a tensor";
  let description = [{
    One `starts`, `ends` and `steps` entry per dimension, `0 <= start <= end
    <= size` and `step >= 1`; result dimension `ceil((end - start) / step)`.

    ```mlir
    %s = dlc.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 4, 8>, steps = array<i64: 1, 2>}
        : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$input, DenseI64ArrayAttr:$starts,
                        DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_SplitOp : Dlc_Op<"split", []> {
  let summary = "Cuts a tensor into pieces along one axis";
  let description = [{
    The pieces' sizes along `axis` are `sizes`, which sum to the input's.

    ```mlir
    %q, %k, %v = dlc.split %qkv {axis = 2 : i64, sizes = array<i64: 256, 256, 256>}
        : tensor<2x128x768xf32> -> tensor<2x128x256xf32>, tensor<2x128x256xf32>, tensor<2x128x256xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$input, I64Attr:$axis,
                        DenseI64ArrayAttr:$sizes), DevicePin);
  let results = (outs Variadic<Dlc_Tensor>:$results);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($results)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_GatherOp : Dlc_Op<"gather", [AllElementTypesMatch<["data", "result"]>]> {
  let summary = "Picks slices of `data` along `axis` by index (ONNX Gather)";
  let description = [{
    The result is `data.shape[:axis] + indices.shape + data.shape[axis+1:]`;
    negative indices count from the end. An embedding lookup is a gather on
    axis 0.

    ```mlir
    %e = dlc.gather %table, %ids {axis = 0 : i64} : (tensor<1000x256xf32>, tensor<2x128xi64>) -> tensor<2x128x256xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$data, Dlc_IndexTensor:$indices,
                        DefaultValuedAttr<I64Attr, "0">:$axis), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_GatherElementsOp : Dlc_Op<"gather_elements", [AllElementTypesMatch<["data", "result"]>]> {
  let summary = "Picks one element of `data` per index, along `axis` (ONNX GatherElements)";
  let description = [{
    `result[i..., j, k...] = data[i..., indices[i..., j, k...], k...]` with
    the index at `axis`: the result has the indices' shape, which is the
    data's rank and no larger than the data's on the other axes. Negative
    indices count from the end.

    ```mlir
    %p = dlc.gather_elements %logits, %ids {axis = 1 : i64} : (tensor<8x10xf32>, tensor<8x1xi64>) -> tensor<8x1xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$data, Dlc_IndexTensor:$indices,
                        DefaultValuedAttr<I64Attr, "0">:$axis), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

def Dlc_ScatterElementsOp : Dlc_Op<"scatter_elements",
    [AllTypesMatch<["data", "result"]>, AllElementTypesMatch<["data", "updates"]>],
    /*customFlops=*/1> {
  let summary = "Writes or combines `updates` into a copy of `data` at the indices along `axis` (ONNX ScatterElements)";
  let description = [{
    The result is `data` with, for every element of `updates` in row-major
    order, `result[i..., indices[i..., j, k...], k...] = combine(that element,
    updates[i..., j, k...])`: the inverse of `gather_elements`. `reduction`
    is `none` (the update replaces the element; a later duplicate wins),
    `add`, `mul`, `max` or `min`. `indices` has the updates' rank; a
    dimension of size 1 broadcasts over the updates' (ScatterND's rows
    become `scatter_elements` on axis 0 with an `Nx1` index). `updates` is
    no larger than `data` off the axis. Negative indices count from the end;
    one outside `[-dim, dim)` is an error in the interpreter and writes
    nothing in compiled code.

    ```mlir
    %r = dlc.scatter_elements %cache, %pos, %new {axis = 1 : i64, reduction = "none"}
        : (tensor<2x16x64xf32>, tensor<2x1x64xi64>, tensor<2x1x64xf32>) -> tensor<2x16x64xf32>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$data, Dlc_IndexTensor:$indices, Dlc_Tensor:$updates,
                        DefaultValuedAttr<I64Attr, "0">:$axis,
                        DefaultValuedAttr<StrAttr, "\"none\"">:$reduction), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  // Sums and products of updates round differently in fp16.
  let fp16Policy = "Deny";
}

def Dlc_TopKOp : Dlc_Op<"top_k", [AllElementTypesMatch<["input", "values"]>],
                        /*customFlops=*/1> {
  let summary = "The `k` largest (or smallest) elements along `axis` and their indices (ONNX TopK)";
  let description = [{
    Along `axis`, the `k` largest elements (`largest = false`: smallest) in
    order, best first, and their positions (i64). Equal elements keep their
    order (the lower index first); NaN is larger than every number (as
    `torch.topk`). The results have the input's shape with `k` at `axis`.
    Always sorted (ONNX's `sorted = 0` leaves the order open).

    ```mlir
    %v, %i = dlc.top_k %logits {axis = -1 : i64, k = 5 : i64, largest = true}
        : tensor<8x1000xf32> -> tensor<8x5xf32>, tensor<8x5xi64>
    ```
  }];
  let arguments = !con((ins Dlc_NumericTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis,
                        I64Attr:$k, DefaultValuedAttr<BoolAttr, "true">:$largest), DevicePin);
  let results = (outs Dlc_NumericTensor:$values, StaticShapeTensorOf<[I64]>:$indices);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($values) `,` type($indices)";
  let hasVerifier = 1;
  // Rounding to fp16 can make distinct elements equal and change the indices.
  let fp16Policy = "Deny";
}

def Dlc_CastOp : Dlc_Op<"cast", [Dlc_Elementwise, SameOperandsAndResultShape]> {
  let summary = "Converts the element type";
  let description = [{
    Between f32, f16, bf16, i32, i64 and i1. Float to narrower float rounds
    to nearest even, as the hardware does; float to integer truncates toward
    zero; anything to i1 is `x != 0`.

    ```mlir
    %h = dlc.cast %x : tensor<32x1024xf32> -> tensor<32x1024xf16>
    ```
  }];
  let arguments = !con((ins Dlc_Tensor:$input), DevicePin);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let fp16Policy = "Clear";
}

def Dlc_CopyOp : Dlc_Op<"copy", [SameOperandsAndResultType]> {
  let summary = "Moves a value to another device";
  let description = [{
    The value on `device`, the destination. Placement inserts one copy per
    (value, destination device); GPU to GPU goes peer to peer.

    ```mlir
    %y = dlc.copy %x to cuda:1 : tensor<32x1024xf16>
    ```

    A dimension may be known only at run time (`tensor<?x4xf32>`, a bound on
    the entry argument it comes from): the copy moves the buffer's bound.
  }];
  let arguments = (ins Dlc_RankedTensor:$input, Dlc_DeviceAttr:$device);
  let results = (outs Dlc_RankedTensor:$result);
  let assemblyFormat =
      "$input `to` custom<DeviceKeyword>($device) attr-dict `:` type($input)";
  let fp16Policy = "Clear";
  let flopsPerElement = 0;
}

//===----------------------------------------------------------------------===//
// kernel, yield: the unit of launch (dlc-partition-kernels)
//===----------------------------------------------------------------------===//

def Dlc_KernelOp : Op<Dlc_Dialect, "kernel", [SingleBlock, RecursiveMemoryEffects]> {
  let summary = "Ops on one device that run as one launch";
  let description = [{
    A kernel: the ops of its body run as one launch on `device` (absent: the
    CPU), and its results are the values the body yields, the ones read
    outside it. The body reads values from above directly (as `gpu.launch`
    does before outlining): the values it reads are the kernel's inputs, in
    the order of first use, except small dense constants, which the code
    generators clone in. dlc-partition-kernels forms kernels;
    dlc-schedule's Call steps name kernel K, the K-th `dlc.kernel` of the
    function.

    ```mlir
    %y = dlc.kernel on cuda:0 -> tensor<4x8xf32> {
      %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : ...
      %r = dlc.relu %m {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
      dlc.yield %r : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = DevicePin;
  let results = (outs Variadic<Dlc_RankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "(`on` custom<DeviceKeyword>($device)^)? (`->` type($results)^)? $body attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The body's ops, without its yield.
    auto getComputeOps() { return getBody().front().without_terminator(); }
    /// The body's yield.
    YieldOp getYield();
  }];
}

def Dlc_YieldOp : Op<Dlc_Dialect, "yield",
    [Pure, Terminator, ParentOneOf<["KernelOp", "LoopOp"]>]> {
  let summary = "The values a kernel's or a loop's body makes for its results";
  let arguments = (ins Variadic<Dlc_RankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}


//===----------------------------------------------------------------------===//
// loop: a recurrence or an ONNX Loop, one node to the graph passes
//===----------------------------------------------------------------------===//

def Dlc_LoopOp : Dlc_Op<"loop", [IsolatedFromAbove, SingleBlock,
    AttrSizedOperandSegments], /*customFlops=*/1> {
  let summary = "A body run a number of times, carrying values between runs";
  let description = [{
    Runs its body `trips` times (an attribute), or as many times as the
    one-element integer `count` says at run time (none when it is 0 or
    less). The body is isolated from above: what it reads comes in as
    operands. Its block arguments, in order:
      - the position, `tensor<1xi64>`: the iteration number, counted down
        from `trips - 1` when `reverse` is set;
      - the carried values, `carried` on the first iteration, then what the
        previous iteration yielded in their place;
      - the row of each `scan` input at the position (scan inputs are
        `[trips, rest...]`, their rows `[rest...]`);
      - the `invariant` operands, the same every iteration.
    The body yields the next carried values, then one row per scan output,
    written at the position. The results: the final carried
    values, then the scan outputs `[trips, ...]`. Scan inputs and outputs
    need a `trips` attribute (dlc has no dims sized by a loop). Every shape
    is static.

    ```mlir
    %h, %ys = dlc.loop carried(%h0 : tensor<4x8xf32>)
        scan(%xs : tensor<16x4x8xf32>) invariant(%r : tensor<8x8xf32>)
        -> tensor<4x8xf32>, tensor<16x4x8xf32> {
    ^bb0(%t: tensor<1xi64>, %h: tensor<4x8xf32>, %x: tensor<4x8xf32>, %r: tensor<8x8xf32>):
      %hr = dlc.linear %h, %r : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      %s = dlc.add %x, %hr : tensor<4x8xf32>
      %n = dlc.tanh %s : tensor<4x8xf32>
      dlc.yield %n, %n : tensor<4x8xf32>, tensor<4x8xf32>
    } {trips = 16 : i64}
    ```
  }];
  let arguments = !con((ins Optional<Dlc_RankedTensor>:$count,
                            Variadic<Dlc_RankedTensor>:$carried,
                            Variadic<Dlc_RankedTensor>:$scans,
                            Variadic<Dlc_RankedTensor>:$invariants,
                            OptionalAttr<I64Attr>:$trips,
                            UnitAttr:$reverse), DevicePin);
  let results = (outs Variadic<Dlc_RankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`count` `(` $count^ `:` type($count) `)`)?
    (`carried` `(` $carried^ `:` type($carried) `)`)?
    (`scan` `(` $scans^ `:` type($scans) `)`)?
    (`invariant` `(` $invariants^ `:` type($invariants) `)`)?
    (`->` type($results)^)? $body attr-dict
  }];
  let hasVerifier = 1;
  let fp16Policy = "Deny";
  let extraDecl = [{
    /// The body's yield.
    YieldOp getYield();
    /// `trips` as a signed count (ODS reads I64Attr unsigned).
    std::optional<int64_t> getStaticTrips() {
      if (mlir::IntegerAttr a = getTripsAttr())
        return a.getInt();
      return std::nullopt;
    }
    /// A row `[rest...]` of a scanned `[n, rest...]` type, and rows stacked.
    static mlir::RankedTensorType rowType(mlir::RankedTensorType stacked);
    static mlir::RankedTensorType stackedType(mlir::RankedTensorType row, int64_t n);
    /// The body's block arguments by role.
    mlir::Value getPositionArg() { return getBody().front().getArgument(0); }
    mlir::Block::BlockArgListType getCarriedArgs() {
      return getBody().front().getArguments().slice(1, getCarried().size());
    }
    mlir::Block::BlockArgListType getScanArgs() {
      return getBody().front().getArguments().slice(1 + getCarried().size(), getScans().size());
    }
    mlir::Block::BlockArgListType getInvariantArgs() {
      return getBody().front().getArguments().drop_front(1 + getCarried().size() + getScans().size());
    }
    /// The results that stack per-iteration slices.
    mlir::ResultRange getScanOutputs() { return getResults().drop_front(getCarried().size()); }
    mlir::ResultRange getFinalCarried() { return getResults().take_front(getCarried().size()); }
  }];
}

#endif // DLC_OPS_TD
