//===- DlcInterfaces.td - cost and fp16-policy op interfaces ---------------===//
//
// Cross-op behaviour the passes need, asked through interfaces rather than
// isa<> chains: the cost model (FLOPs and bytes for the op's shapes) and the
// mixed-precision policy (allow / deny / infer / clear, as in TensorFlow's
// auto-mixed-precision).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_INTERFACES_TD
#define DLC_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Dlc_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::dlc";
  let description = [{
    The work an op does for its (static) shapes, for the placement cost model.
    The defaults suit elementwise ops: `kFlopsPerElement` operations per result
    element, and every operand and result read or written once.
  }];
  let methods = [
    InterfaceMethod<
      "Arithmetic operations (multiply-add counts as two) for the op's shapes.",
      "int64_t", "getFlops", (ins), [{}],
      [{ return ::dlc::detail::elementwiseFlops($_op.getOperation(),
                                                      ConcreteOp::kFlopsPerElement); }]>,
    InterfaceMethod<
      "Bytes read from and written to memory: operands plus results.",
      "int64_t", "getBytesAccessed", (ins), [{}],
      [{ return ::dlc::detail::operandAndResultBytes($_op.getOperation()); }]>,
  ];
}

def Dlc_Fp16PolicyOpInterface : OpInterface<"Fp16PolicyOpInterface"> {
  let cppNamespace = "::dlc";
  let description = [{
    How the mixed-precision pass treats an op: `Allow` (worth computing in
    fp16: matmul, linear, conv2d), `Deny` (numerically unsafe in fp16:
    softmax, normalisations, reductions, exp, log, pow), `Infer` (follows its
    inputs: add, mul, gelu, ...), `Clear` (moves data without arithmetic:
    reshape, transpose, relu, slice, concat, pooling, copy).
  }];
  let methods = [
    InterfaceMethod<"The op kind's fp16 policy.", "::dlc::Fp16Policy",
      "getFp16Policy", (ins), [{}], [{ return ConcreteOp::kFp16Policy; }]>,
  ];
}

#endif // DLC_INTERFACES_TD
