// RUN: dlc-opt %s | FileCheck %s
// Printing is stable: the printed form parses back to the same text.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s
// The generic form parses back to the same ops.
// RUN: dlc-opt %s --mlir-print-op-generic | dlc-opt | FileCheck %s

// Round trip of every dlc op in its custom assembly format.

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// Inline dense (list and splat), an i1 and an i64 constant, a pinned constant
// and two dense_resource blobs whose bytes live in dialect_resources. The
// value is a typed attribute, so a pin follows the type.
// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2xi64>, tensor<4xbf16>, tensor<2xf32>, tensor<2xi64>) {
  // CHECK: %[[D:.*]] = dlc.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
  %d = dlc.constant dense<[0.5, -1.0]> : tensor<2xf32>
  // CHECK: %[[S:.*]] = dlc.constant dense<1.500000e+00> : tensor<2x3xf16>
  %s = dlc.constant dense<1.5> : tensor<2x3xf16>
  // CHECK: %[[B:.*]] = dlc.constant dense<[true, false, true]> : tensor<3xi1>
  %b = dlc.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK: %[[I:.*]] = dlc.constant dense<[7, -3]> : tensor<2xi64>
  %i = dlc.constant dense<[7, -3]> : tensor<2xi64>
  // CHECK: %[[P:.*]] = dlc.constant dense<0.000000e+00> : tensor<4xbf16> {device = #dlc.device<cuda:1>}
  %p = dlc.constant dense<0.0> : tensor<4xbf16> {device = #dlc.device<cuda:1>}
  // CHECK: %[[R:.*]] = dlc.constant dense_resource<fc_weight> : tensor<2xf32>
  %r = dlc.constant dense_resource<fc_weight> : tensor<2xf32>
  // CHECK: %[[RI:.*]] = dlc.constant dense_resource<token_ids> : tensor<2xi64> {device = #dlc.device<cpu>}
  %ri = dlc.constant dense_resource<token_ids> : tensor<2xi64> {device = #dlc.device<cpu>}
  // CHECK: return %[[D]], %[[S]], %[[B]], %[[I]], %[[P]], %[[R]], %[[RI]]
  return %d, %s, %b, %i, %p, %r, %ri : tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2xi64>, tensor<4xbf16>, tensor<2xf32>, tensor<2xi64>
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

// Same types: the short form `: T` is kept.
// CHECK-LABEL: func.func @binary_same_type
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
func.func @binary_same_type(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: %[[ADD:.*]] = dlc.add %[[A]], %[[B]] : tensor<4x8xf32>
  %0 = dlc.add %a, %b : tensor<4x8xf32>
  // CHECK: %[[SUB:.*]] = dlc.sub %[[ADD]], %[[B]] : tensor<4x8xf32>
  %1 = dlc.sub %0, %b : tensor<4x8xf32>
  // CHECK: %[[MUL:.*]] = dlc.mul %[[SUB]], %[[B]] : tensor<4x8xf32>
  %2 = dlc.mul %1, %b : tensor<4x8xf32>
  // CHECK: %[[DIV:.*]] = dlc.div %[[MUL]], %[[B]] : tensor<4x8xf32>
  %3 = dlc.div %2, %b : tensor<4x8xf32>
  // CHECK: %[[POW:.*]] = dlc.pow %[[DIV]], %[[B]] : tensor<4x8xf32>
  %4 = dlc.pow %3, %b : tensor<4x8xf32>
  // CHECK: %[[MAX:.*]] = dlc.max %[[POW]], %[[B]] : tensor<4x8xf32>
  %5 = dlc.max %4, %b : tensor<4x8xf32>
  // CHECK: %[[MIN:.*]] = dlc.min %[[MAX]], %[[B]] : tensor<4x8xf32>
  %6 = dlc.min %5, %b : tensor<4x8xf32>
  // CHECK: %[[REM:.*]] = dlc.rem %[[MIN]], %[[B]] : tensor<4x8xf32>
  %7 = dlc.rem %6, %b : tensor<4x8xf32>
  // CHECK: %[[MOD:.*]] = dlc.mod %[[REM]], %[[B]] : tensor<4x8xf32>
  %8 = dlc.mod %7, %b : tensor<4x8xf32>
  // CHECK: return %[[MOD]]
  return %8 : tensor<4x8xf32>
}

// Broadcasting operands: the long form `(A, B) -> C`, both ways round, with
// size-1 dimensions on either side and a scalar operand.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[ROW:.*]]: tensor<8xf32>, %[[COL:.*]]: tensor<4x1xf32>, %[[S:.*]]: tensor<f32>)
func.func @binary_broadcast(%a: tensor<4x8xf32>, %row: tensor<8xf32>, %col: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  // CHECK: %[[ADD:.*]] = dlc.add %[[A]], %[[ROW]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = dlc.add %a, %row : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[SUB:.*]] = dlc.sub %[[ROW]], %[[ADD]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = dlc.sub %row, %0 : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MUL:.*]] = dlc.mul %[[COL]], %[[ROW]] : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = dlc.mul %col, %row : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[DIV:.*]] = dlc.div %[[MUL]], %[[S]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = dlc.div %2, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  // CHECK: %[[POW:.*]] = dlc.pow %[[DIV]], %[[COL]] : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %4 = dlc.pow %3, %col : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MAX:.*]] = dlc.max %[[S]], %[[POW]] : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = dlc.max %s, %4 : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MIN:.*]] = dlc.min %[[MAX]], %[[ROW]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %6 = dlc.min %5, %row : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: return %[[MIN]]
  return %6 : tensor<4x8xf32>
}

// Integer and half-precision element types; the long form written for equal
// types prints back in the short form.
// CHECK-LABEL: func.func @binary_element_types
// CHECK-SAME: (%[[I:.*]]: tensor<3xi32>, %[[L:.*]]: tensor<2x3xi64>, %[[H:.*]]: tensor<3xf16>, %[[BF:.*]]: tensor<3xbf16>)
func.func @binary_element_types(%i: tensor<3xi32>, %l: tensor<2x3xi64>, %h: tensor<3xf16>, %bf: tensor<3xbf16>) -> (tensor<3xi32>, tensor<2x3xi64>, tensor<3xf16>, tensor<3xbf16>) {
  // CHECK: %[[ADD:.*]] = dlc.add %[[I]], %[[I]] : tensor<3xi32>
  %0 = dlc.add %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: %[[MAX:.*]] = dlc.max %[[L]], %[[L]] : tensor<2x3xi64>
  %1 = dlc.max %l, %l : tensor<2x3xi64>
  // CHECK: %[[POW:.*]] = dlc.pow %[[H]], %[[H]] : tensor<3xf16>
  %2 = dlc.pow %h, %h : tensor<3xf16>
  // CHECK: %[[MUL:.*]] = dlc.mul %[[BF]], %[[BF]] : tensor<3xbf16>
  %3 = dlc.mul %bf, %bf : tensor<3xbf16>
  // CHECK: return %[[ADD]], %[[MAX]], %[[POW]], %[[MUL]]
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<2x3xi64>, tensor<3xf16>, tensor<3xbf16>
}

//===----------------------------------------------------------------------===//
// compare and select
//===----------------------------------------------------------------------===//

// Every predicate; broadcasting operands; i1 operands (two masks, written
// once when all three types are equal); select with broadcast branches.
// CHECK-LABEL: func.func @compare_select
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[ROW:.*]]: tensor<8xf32>, %[[I:.*]]: tensor<3xi64>, %[[M:.*]]: tensor<4x8xi1>)
func.func @compare_select(%a: tensor<4x8xf32>, %row: tensor<8xf32>, %i: tensor<3xi64>, %m: tensor<4x8xi1>)
    -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xf32>) {
  // CHECK: %[[EQ:.*]] = dlc.compare "eq", %[[A]], %[[ROW]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  %0 = dlc.compare "eq", %a, %row : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  // CHECK: dlc.compare "ne", %[[A]], %[[A]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %1 = dlc.compare "ne", %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: dlc.compare "lt", %[[I]], %[[I]] : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  %2 = dlc.compare "lt", %i, %i : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  // CHECK: dlc.compare "le", %[[I]], %[[I]] {device = #dlc.device<cuda:0>}
  %3 = dlc.compare "le", %i, %i {device = #dlc.device<cuda:0>} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  // CHECK: dlc.compare "gt", %[[I]], %[[I]]
  %4 = dlc.compare "gt", %i, %i : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  // CHECK: dlc.compare "ge", %[[ROW]], %[[A]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %5 = dlc.compare "ge", %row, %a : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: %[[XOR:.*]] = dlc.compare "ne", %[[M]], %[[EQ]] : tensor<4x8xi1>
  %6 = dlc.compare "ne", %m, %0 : tensor<4x8xi1>
  // CHECK: dlc.select %[[XOR]], %[[A]], %[[ROW]] : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %7 = dlc.select %6, %a, %row : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[NEG:.*]] = dlc.neg %[[X]] : tensor<2x3xf32>
  %0 = dlc.neg %x : tensor<2x3xf32>
  // CHECK: %[[ABS:.*]] = dlc.abs %[[NEG]] : tensor<2x3xf32>
  %1 = dlc.abs %0 : tensor<2x3xf32>
  // CHECK: %[[EXP:.*]] = dlc.exp %[[ABS]] : tensor<2x3xf32>
  %2 = dlc.exp %1 : tensor<2x3xf32>
  // CHECK: %[[LOG:.*]] = dlc.log %[[EXP]] : tensor<2x3xf32>
  %3 = dlc.log %2 : tensor<2x3xf32>
  // CHECK: %[[SQRT:.*]] = dlc.sqrt %[[LOG]] : tensor<2x3xf32>
  %4 = dlc.sqrt %3 : tensor<2x3xf32>
  // CHECK: %[[RSQRT:.*]] = dlc.rsqrt %[[SQRT]] : tensor<2x3xf32>
  %5 = dlc.rsqrt %4 : tensor<2x3xf32>
  // CHECK: %[[TANH:.*]] = dlc.tanh %[[RSQRT]] : tensor<2x3xf32>
  %6 = dlc.tanh %5 : tensor<2x3xf32>
  // CHECK: %[[SIG:.*]] = dlc.sigmoid %[[TANH]] : tensor<2x3xf32>
  %7 = dlc.sigmoid %6 : tensor<2x3xf32>
  // CHECK: %[[ERF:.*]] = dlc.erf %[[SIG]] : tensor<2x3xf32>
  %8 = dlc.erf %7 : tensor<2x3xf32>
  // CHECK: %[[RELU:.*]] = dlc.relu %[[ERF]] : tensor<2x3xf32>
  %9 = dlc.relu %8 : tensor<2x3xf32>
  // CHECK: return %[[RELU]]
  return %9 : tensor<2x3xf32>
}

// neg, abs and relu take integers; the float-only ops take f16 and bf16.
// CHECK-LABEL: func.func @unary_element_types
// CHECK-SAME: (%[[I:.*]]: tensor<5xi32>, %[[L:.*]]: tensor<5xi64>, %[[H:.*]]: tensor<5xf16>, %[[BF:.*]]: tensor<5xbf16>)
func.func @unary_element_types(%i: tensor<5xi32>, %l: tensor<5xi64>, %h: tensor<5xf16>, %bf: tensor<5xbf16>) -> (tensor<5xi32>, tensor<5xi64>, tensor<5xi32>, tensor<5xf16>, tensor<5xbf16>) {
  // CHECK: %[[NEG:.*]] = dlc.neg %[[I]] : tensor<5xi32>
  %0 = dlc.neg %i : tensor<5xi32>
  // CHECK: %[[ABS:.*]] = dlc.abs %[[L]] : tensor<5xi64>
  %1 = dlc.abs %l : tensor<5xi64>
  // CHECK: %[[RELU:.*]] = dlc.relu %[[NEG]] : tensor<5xi32>
  %2 = dlc.relu %0 : tensor<5xi32>
  // CHECK: %[[EXP:.*]] = dlc.exp %[[H]] : tensor<5xf16>
  %3 = dlc.exp %h : tensor<5xf16>
  // CHECK: %[[ERF:.*]] = dlc.erf %[[BF]] : tensor<5xbf16>
  %4 = dlc.erf %bf : tensor<5xbf16>
  // CHECK: return %[[NEG]], %[[ABS]], %[[RELU]], %[[EXP]], %[[ERF]]
  return %0, %1, %2, %3, %4 : tensor<5xi32>, tensor<5xi64>, tensor<5xi32>, tensor<5xf16>, tensor<5xbf16>
}

// The trigonometric, hyperbolic and rounding functions (floats); sign also
// on integers.
// CHECK-LABEL: func.func @functions
// CHECK: dlc.sin %{{.*}} : tensor<4xf32>
// CHECK: dlc.cos %{{.*}} : tensor<4xf32>
// CHECK: dlc.tan %{{.*}} : tensor<4xf32>
// CHECK: dlc.asin %{{.*}} : tensor<4xf32>
// CHECK: dlc.acos %{{.*}} : tensor<4xf32>
// CHECK: dlc.atan %{{.*}} : tensor<4xf32>
// CHECK: dlc.sinh %{{.*}} : tensor<4xf32>
// CHECK: dlc.cosh %{{.*}} : tensor<4xf32>
// CHECK: dlc.asinh %{{.*}} : tensor<4xf32>
// CHECK: dlc.acosh %{{.*}} : tensor<4xf16>
// CHECK: dlc.atanh %{{.*}} : tensor<4xbf16>
// CHECK: dlc.ceil %{{.*}} : tensor<4xf32>
// CHECK: dlc.floor %{{.*}} : tensor<4xf32>
// CHECK: dlc.round %{{.*}} : tensor<4xf32>
// CHECK: dlc.sign %{{.*}} : tensor<4xf32>
// CHECK: dlc.sign %{{.*}} : tensor<4xi64>
func.func @functions(%x: tensor<4xf32>, %h: tensor<4xf16>, %b: tensor<4xbf16>, %l: tensor<4xi64>) {
  %0 = dlc.sin %x : tensor<4xf32>
  %1 = dlc.cos %x : tensor<4xf32>
  %2 = dlc.tan %x : tensor<4xf32>
  %3 = dlc.asin %x : tensor<4xf32>
  %4 = dlc.acos %x : tensor<4xf32>
  %5 = dlc.atan %x : tensor<4xf32>
  %6 = dlc.sinh %x : tensor<4xf32>
  %7 = dlc.cosh %x : tensor<4xf32>
  %8 = dlc.asinh %x : tensor<4xf32>
  %9 = dlc.acosh %h : tensor<4xf16>
  %10 = dlc.atanh %b : tensor<4xbf16>
  %11 = dlc.ceil %x : tensor<4xf32>
  %12 = dlc.floor %x : tensor<4xf32>
  %13 = dlc.round %x : tensor<4xf32>
  %14 = dlc.sign %x : tensor<4xf32>
  %15 = dlc.sign %l : tensor<4xi64>
  return
}

// gelu: the exact form (tanh_approximation = false is the default and is not
// printed) and the tanh approximation; clip with its two bounds, also on ints.
// CHECK-LABEL: func.func @gelu_clip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @gelu_clip(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  // CHECK: %[[G0:.*]] = dlc.gelu %[[X]] : tensor<2x3xf32>
  %0 = dlc.gelu %x : tensor<2x3xf32>
  // CHECK: %[[G1:.*]] = dlc.gelu %[[G0]] : tensor<2x3xf32>
  %1 = dlc.gelu %0 {tanh_approximation = false} : tensor<2x3xf32>
  // CHECK: %[[G2:.*]] = dlc.gelu %[[G1]] {tanh_approximation = true} : tensor<2x3xf32>
  %2 = dlc.gelu %1 {tanh_approximation = true} : tensor<2x3xf32>
  // CHECK: %[[C:.*]] = dlc.clip %[[G2]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
  %3 = dlc.clip %2 {min = 0.0, max = 6.0} : tensor<2x3xf32>
  // min == max is allowed.
  // CHECK: %[[CI:.*]] = dlc.clip %[[I]] {max = 2.000000e+00 : f64, min = 2.000000e+00 : f64} : tensor<4xi32>
  %4 = dlc.clip %i {min = 2.0, max = 2.0} : tensor<4xi32>
  // CHECK: return %[[C]], %[[CI]]
  return %3, %4 : tensor<2x3xf32>, tensor<4xi32>
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

// 2-D, batched, batch dimensions that broadcast (including a 2-D rhs against
// a batched lhs), integer matmul.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[BA:.*]]: tensor<2x1x4x8xf32>, %[[BB:.*]]: tensor<3x8x16xf32>, %[[I:.*]]: tensor<2x3xi32>, %[[J:.*]]: tensor<3x5xi32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %ba: tensor<2x1x4x8xf32>, %bb: tensor<3x8x16xf32>, %i: tensor<2x3xi32>, %j: tensor<3x5xi32>) -> (tensor<4x16xf32>, tensor<2x3x4x16xf32>, tensor<2x1x4x16xf32>, tensor<2x5xi32>) {
  // CHECK: %[[M0:.*]] = dlc.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = dlc.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: %[[M1:.*]] = dlc.matmul %[[BA]], %[[BB]] : (tensor<2x1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x3x4x16xf32>
  %1 = dlc.matmul %ba, %bb : (tensor<2x1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x3x4x16xf32>
  // CHECK: %[[M2:.*]] = dlc.matmul %[[BA]], %[[B]] : (tensor<2x1x4x8xf32>, tensor<8x16xf32>) -> tensor<2x1x4x16xf32>
  %2 = dlc.matmul %ba, %b : (tensor<2x1x4x8xf32>, tensor<8x16xf32>) -> tensor<2x1x4x16xf32>
  // CHECK: %[[M3:.*]] = dlc.matmul %[[I]], %[[J]] : (tensor<2x3xi32>, tensor<3x5xi32>) -> tensor<2x5xi32>
  %3 = dlc.matmul %i, %j : (tensor<2x3xi32>, tensor<3x5xi32>) -> tensor<2x5xi32>
  // CHECK: return %[[M0]], %[[M1]], %[[M2]], %[[M3]]
  return %0, %1, %2, %3 : tensor<4x16xf32>, tensor<2x3x4x16xf32>, tensor<2x1x4x16xf32>, tensor<2x5xi32>
}

// With and without bias; a rank-3 and a rank-1 input; f16.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x4xf32>, %[[W:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<4xf16>, %[[WH:.*]]: tensor<6x4xf16>)
func.func @linear(%x: tensor<2x5x4xf32>, %w: tensor<3x4xf32>, %b: tensor<3xf32>, %v: tensor<4xf16>, %wh: tensor<6x4xf16>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<6xf16>) {
  // CHECK: %[[L0:.*]] = dlc.linear %[[X]], %[[W]], %[[B]] : (tensor<2x5x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  %0 = dlc.linear %x, %w, %b : (tensor<2x5x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  // CHECK: %[[L1:.*]] = dlc.linear %[[X]], %[[W]] : (tensor<2x5x4xf32>, tensor<3x4xf32>) -> tensor<2x5x3xf32>
  %1 = dlc.linear %x, %w : (tensor<2x5x4xf32>, tensor<3x4xf32>) -> tensor<2x5x3xf32>
  // CHECK: %[[L2:.*]] = dlc.linear %[[V]], %[[WH]] : (tensor<4xf16>, tensor<6x4xf16>) -> tensor<6xf16>
  %2 = dlc.linear %v, %wh : (tensor<4xf16>, tensor<6x4xf16>) -> tensor<6xf16>
  // CHECK: return %[[L0]], %[[L1]], %[[L2]]
  return %0, %1, %2 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<6xf16>
}

// Defaults (not printed), bias, strides + pads, dilations, grouped and
// depthwise convolution, asymmetric padding, bf16.
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<6x4x3x3xf32>, %[[B:.*]]: tensor<6xf32>, %[[WG:.*]]: tensor<6x2x3x3xf32>, %[[WD:.*]]: tensor<4x1x3x3xf32>, %[[XB:.*]]: tensor<2x3x5x5xbf16>, %[[WB:.*]]: tensor<2x3x2x2xbf16>)
func.func @conv2d(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<6xf32>, %wg: tensor<6x2x3x3xf32>, %wd: tensor<4x1x3x3xf32>, %xb: tensor<2x3x5x5xbf16>, %wb: tensor<2x3x2x2xbf16>)
    -> (tensor<1x6x6x6xf32>, tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>, tensor<1x6x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x2x5x6xbf16>) {
  // CHECK: %[[C0:.*]] = dlc.conv2d %[[X]], %[[W]] : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  %0 = dlc.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  // Explicit default values are dropped by the printer.
  // CHECK: %[[C1:.*]] = dlc.conv2d %[[X]], %[[W]], %[[B]] {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  %1 = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  // CHECK: %[[C2:.*]] = dlc.conv2d %[[X]], %[[W]] {dilations = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x4x4xf32>
  %2 = dlc.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x4x4xf32>
  // CHECK: %[[C3:.*]] = dlc.conv2d %[[X]], %[[WG]], %[[B]] {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
  %3 = dlc.conv2d %x, %wg, %b {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
  // CHECK: %[[C4:.*]] = dlc.conv2d %[[X]], %[[WD]] {device = #dlc.device<cuda:1>, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  %4 = dlc.conv2d %x, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>, device = #dlc.device<cuda:1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  // Pads are [top, left, bottom, right]: height 5+0+1-2+1 = 5, width 5+1+1-2+1 = 6.
  // CHECK: %[[C5:.*]] = dlc.conv2d %[[XB]], %[[WB]] {pads = array<i64: 0, 1, 1, 1>} : (tensor<2x3x5x5xbf16>, tensor<2x3x2x2xbf16>) -> tensor<2x2x5x6xbf16>
  %5 = dlc.conv2d %xb, %wb {pads = array<i64: 0, 1, 1, 1>} : (tensor<2x3x5x5xbf16>, tensor<2x3x2x2xbf16>) -> tensor<2x2x5x6xbf16>
  // CHECK: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]]
  return %0, %1, %2, %3, %4, %5 : tensor<1x6x6x6xf32>, tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>, tensor<1x6x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x2x5x6xbf16>
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pooling
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8x8xf32>, %[[H:.*]]: tensor<1x2x5x5xf16>)
func.func @pooling(%x: tensor<2x3x8x8xf32>, %h: tensor<1x2x5x5xf16>) -> (tensor<2x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<1x2x5x5xf16>, tensor<2x3x8x8xf32>, tensor<2x3x1x1xf32>, tensor<1x2x1x1xf16>) {
  // CHECK: %[[M0:.*]] = dlc.max_pool2d %[[X]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  // CHECK: %[[M1:.*]] = dlc.max_pool2d %[[X]] {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x3x3xf32>
  %1 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x3x3xf32>
  // CHECK: %[[A0:.*]] = dlc.avg_pool2d %[[H]] {count_include_pad = true, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf16> -> tensor<1x2x5x5xf16>
  %2 = dlc.avg_pool2d %h {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : tensor<1x2x5x5xf16> -> tensor<1x2x5x5xf16>
  // count_include_pad = false is the default and is not printed.
  // CHECK: %[[A1:.*]] = dlc.avg_pool2d %[[X]] {device = #dlc.device<cpu>, kernel_shape = array<i64: 1, 1>} : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  %3 = dlc.avg_pool2d %x {kernel_shape = array<i64: 1, 1>, count_include_pad = false, device = #dlc.device<cpu>} : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  // CHECK: %[[G0:.*]] = dlc.global_avg_pool %[[X]] : tensor<2x3x8x8xf32> -> tensor<2x3x1x1xf32>
  %4 = dlc.global_avg_pool %x : tensor<2x3x8x8xf32> -> tensor<2x3x1x1xf32>
  // CHECK: %[[G1:.*]] = dlc.global_avg_pool %[[H]] : tensor<1x2x5x5xf16> -> tensor<1x2x1x1xf16>
  %5 = dlc.global_avg_pool %h : tensor<1x2x5x5xf16> -> tensor<1x2x1x1xf16>
  // CHECK: return %[[M0]], %[[M1]], %[[A0]], %[[A1]], %[[G0]], %[[G1]]
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<1x2x5x5xf16>, tensor<2x3x8x8xf32>, tensor<2x3x1x1xf32>, tensor<1x2x1x1xf16>
}

//===----------------------------------------------------------------------===//
// Normalisation and softmax
//===----------------------------------------------------------------------===//

// batch_norm with the default and an explicit epsilon; layer_norm with and
// without bias, over the last and the last two dimensions; softmax.
// CHECK-LABEL: func.func @normalization
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x4xf32>, %[[C:.*]]: tensor<3xf32>, %[[T:.*]]: tensor<2x5x8xf32>, %[[G:.*]]: tensor<8xf32>, %[[G2:.*]]: tensor<5x8xf32>, %[[SH:.*]]: tensor<4x10xf16>)
func.func @normalization(%x: tensor<2x3x4x4xf32>, %c: tensor<3xf32>, %t: tensor<2x5x8xf32>, %g: tensor<8xf32>, %g2: tensor<5x8xf32>, %sh: tensor<4x10xf16>)
    -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<4x10xf16>, tensor<2x5x8xf32>) {
  // CHECK: %[[BN0:.*]] = dlc.batch_norm %[[X]], %[[C]], %[[C]], %[[C]], %[[C]] : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %0 = dlc.batch_norm %x, %c, %c, %c, %c : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  // CHECK: %[[BN1:.*]] = dlc.batch_norm %[[X]], %[[C]], %[[C]], %[[C]], %[[C]] {epsilon = 1.000000e-03 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %1 = dlc.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-03 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  // CHECK: %[[LN0:.*]] = dlc.layer_norm %[[T]], %[[G]], %[[G]] : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %2 = dlc.layer_norm %t, %g, %g : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  // CHECK: %[[LN1:.*]] = dlc.layer_norm %[[T]], %[[G]] {epsilon = 9.9999999999999995E-7 : f64} : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %3 = dlc.layer_norm %t, %g {axis = -1 : i64, epsilon = 1.0e-06 : f64} : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  // CHECK: %[[LN2:.*]] = dlc.layer_norm %[[T]], %[[G2]], %[[G2]] {axis = 1 : i64} : (tensor<2x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  %4 = dlc.layer_norm %t, %g2, %g2 {axis = 1 : i64} : (tensor<2x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  // CHECK: %[[SM0:.*]] = dlc.softmax %[[SH]] : tensor<4x10xf16>
  %5 = dlc.softmax %sh {axis = -1 : i64} : tensor<4x10xf16>
  // CHECK: %[[SM1:.*]] = dlc.softmax %[[T]] {axis = 0 : i64, device = #dlc.device<cuda:0>} : tensor<2x5x8xf32>
  %6 = dlc.softmax %t {axis = 0 : i64, device = #dlc.device<cuda:0>} : tensor<2x5x8xf32>
  // CHECK: return %[[BN0]], %[[BN1]], %[[LN0]], %[[LN1]], %[[LN2]], %[[SM0]], %[[SM1]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<4x10xf16>, tensor<2x5x8xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// keepdims and not, negative axes, several axes, empty axes (everything).
// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x3xi64>)
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi64>) -> (tensor<2x3x1xf32>, tensor<3xf32>, tensor<f32>, tensor<1x1x1xf32>, tensor<2xi64>, tensor<2x1xi64>) {
  // CHECK: %[[S0:.*]] = dlc.reduce_sum %[[X]] {axes = array<i64: -1>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %0 = dlc.reduce_sum %x {axes = array<i64: -1>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  // CHECK: %[[S1:.*]] = dlc.reduce_mean %[[X]] {axes = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  %1 = dlc.reduce_mean %x {axes = array<i64: 0, 2>, keepdims = false} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK: %[[S2:.*]] = dlc.reduce_max %[[X]] : tensor<2x3x4xf32> -> tensor<f32>
  %2 = dlc.reduce_max %x : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK: %[[S3:.*]] = dlc.reduce_sum %[[X]] {keepdims = true} : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %3 = dlc.reduce_sum %x {axes = array<i64>, keepdims = true} : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  // CHECK: %[[S4:.*]] = dlc.reduce_max %[[I]] {axes = array<i64: 1>} : tensor<2x3xi64> -> tensor<2xi64>
  %4 = dlc.reduce_max %i {axes = array<i64: 1>} : tensor<2x3xi64> -> tensor<2xi64>
  // CHECK: %[[S5:.*]] = dlc.reduce_sum %[[I]] {axes = array<i64: -1>, device = #dlc.device<cpu>, keepdims = true} : tensor<2x3xi64> -> tensor<2x1xi64>
  %5 = dlc.reduce_sum %i {axes = array<i64: -1>, keepdims = true, device = #dlc.device<cpu>} : tensor<2x3xi64> -> tensor<2x1xi64>
  // CHECK: return %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]]
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x1xf32>, tensor<3xf32>, tensor<f32>, tensor<1x1x1xf32>, tensor<2xi64>, tensor<2x1xi64>
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x3xi1>)
func.func @transpose_reshape(%x: tensor<2x3x4xf32>, %b: tensor<2x3xi1>) -> (tensor<4x2x3xf32>, tensor<3x2xi1>, tensor<6x4xf32>, tensor<24xf32>, tensor<3x2xi1>) {
  // CHECK: %[[T0:.*]] = dlc.transpose %[[X]] {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK: %[[T1:.*]] = dlc.transpose %[[B]] {perm = array<i64: 1, 0>} : tensor<2x3xi1> -> tensor<3x2xi1>
  %1 = dlc.transpose %b {perm = array<i64: 1, 0>} : tensor<2x3xi1> -> tensor<3x2xi1>
  // CHECK: %[[R0:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %2 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK: %[[R1:.*]] = dlc.reshape %[[T0]] {device = #dlc.device<cuda:1>} : tensor<4x2x3xf32> -> tensor<24xf32>
  %3 = dlc.reshape %0 {device = #dlc.device<cuda:1>} : tensor<4x2x3xf32> -> tensor<24xf32>
  // CHECK: %[[R2:.*]] = dlc.reshape %[[B]] : tensor<2x3xi1> -> tensor<3x2xi1>
  %4 = dlc.reshape %b : tensor<2x3xi1> -> tensor<3x2xi1>
  // CHECK: return %[[T0]], %[[T1]], %[[R0]], %[[R1]], %[[R2]]
  return %0, %1, %2, %3, %4 : tensor<4x2x3xf32>, tensor<3x2xi1>, tensor<6x4xf32>, tensor<24xf32>, tensor<3x2xi1>
}

// concat of one, two and three inputs, negative axis, i64.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[I:.*]]: tensor<4xi64>)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %i: tensor<4xi64>) -> (tensor<2x8xf32>, tensor<4x3xf32>, tensor<12xi64>, tensor<4xi64>) {
  // CHECK: %[[C0:.*]] = dlc.concat %[[A]], %[[B]] {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = dlc.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: %[[C1:.*]] = dlc.concat %[[A]], %[[A]] {axis = -2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = dlc.concat %a, %a {axis = -2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: %[[C2:.*]] = dlc.concat %[[I]], %[[I]], %[[I]] {axis = 0 : i64} : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<12xi64>
  %2 = dlc.concat %i, %i, %i {axis = 0 : i64} : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<12xi64>
  // CHECK: %[[C3:.*]] = dlc.concat %[[I]] {axis = 0 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  %3 = dlc.concat %i {axis = 0 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  // CHECK: return %[[C0]], %[[C1]], %[[C2]], %[[C3]]
  return %0, %1, %2, %3 : tensor<2x8xf32>, tensor<4x3xf32>, tensor<12xi64>, tensor<4xi64>
}

// slice with steps (ceil division), an empty slice; split into 1 and 3 parts.
// CHECK-LABEL: func.func @slice_split
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Q:.*]]: tensor<2x9xbf16>)
func.func @slice_split(%x: tensor<4x8xf32>, %q: tensor<2x9xbf16>) -> (tensor<4x3xf32>, tensor<0x8xf32>, tensor<2x2xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>, tensor<4x8xf32>) {
  // CHECK: %[[S0:.*]] = dlc.slice %[[X]] {ends = array<i64: 4, 8>, starts = array<i64: 0, 2>, steps = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<4x3xf32>
  %0 = dlc.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 4, 8>, steps = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<4x3xf32>
  // CHECK: %[[S1:.*]] = dlc.slice %[[X]] {ends = array<i64: 2, 8>, starts = array<i64: 2, 0>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<0x8xf32>
  %1 = dlc.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<0x8xf32>
  // CHECK: %[[P:.*]]:3 = dlc.split %[[Q]] {axis = -1 : i64, sizes = array<i64: 2, 3, 4>} : tensor<2x9xbf16> -> tensor<2x2xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>
  %2:3 = dlc.split %q {axis = -1 : i64, sizes = array<i64: 2, 3, 4>} : tensor<2x9xbf16> -> tensor<2x2xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>
  // CHECK: %[[ONE:.*]] = dlc.split %[[X]] {axis = 0 : i64, sizes = array<i64: 4>} : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = dlc.split %x {axis = 0 : i64, sizes = array<i64: 4>} : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: return %[[S0]], %[[S1]], %[[P]]#0, %[[P]]#1, %[[P]]#2, %[[ONE]]
  return %0, %1, %2#0, %2#1, %2#2, %3 : tensor<4x3xf32>, tensor<0x8xf32>, tensor<2x2xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>, tensor<4x8xf32>
}

// gather: an embedding lookup (axis 0 is the default), a middle axis, a
// negative axis, i32 and i64 indices, a scalar index.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<2x3xi64>, %[[X:.*]]: tensor<2x5x6xi1>, %[[J:.*]]: tensor<3xi32>, %[[K:.*]]: tensor<i64>)
func.func @gather(%t: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %x: tensor<2x5x6xi1>, %j: tensor<3xi32>, %k: tensor<i64>) -> (tensor<2x3x4xf32>, tensor<2x3x6xi1>, tensor<2x5xi1>) {
  // CHECK: %[[G0:.*]] = dlc.gather %[[T]], %[[IDS]] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %0 = dlc.gather %t, %ids {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  // CHECK: %[[G1:.*]] = dlc.gather %[[X]], %[[J]] {axis = 1 : i64} : (tensor<2x5x6xi1>, tensor<3xi32>) -> tensor<2x3x6xi1>
  %1 = dlc.gather %x, %j {axis = 1 : i64} : (tensor<2x5x6xi1>, tensor<3xi32>) -> tensor<2x3x6xi1>
  // CHECK: %[[G2:.*]] = dlc.gather %[[X]], %[[K]] {axis = -1 : i64} : (tensor<2x5x6xi1>, tensor<i64>) -> tensor<2x5xi1>
  %2 = dlc.gather %x, %k {axis = -1 : i64} : (tensor<2x5x6xi1>, tensor<i64>) -> tensor<2x5xi1>
  // CHECK: return %[[G0]], %[[G1]], %[[G2]]
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x6xi1>, tensor<2x5xi1>
}

// gather_elements: the indices' shape, no larger than the data's off the axis.
// CHECK-LABEL: func.func @gather_elements
// CHECK: dlc.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
// CHECK: dlc.gather_elements %{{.*}}, %{{.*}} : (tensor<3x5xf32>, tensor<6x5xi32>) -> tensor<6x5xf32>
func.func @gather_elements(%d: tensor<3x5xf32>, %i: tensor<2x4xi64>, %j: tensor<6x5xi32>) -> (tensor<2x4xf32>, tensor<6x5xf32>) {
  %0 = dlc.gather_elements %d, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  %1 = dlc.gather_elements %d, %j {axis = 0 : i64} : (tensor<3x5xf32>, tensor<6x5xi32>) -> tensor<6x5xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<6x5xf32>
}

// cast between every element type; copy to cpu and to a GPU.
// CHECK-LABEL: func.func @cast_copy
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @cast_copy(%x: tensor<2x3xf32>) -> (tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[H:.*]] = dlc.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf16>
  %0 = dlc.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
  // CHECK: %[[BF:.*]] = dlc.cast %[[H]] : tensor<2x3xf16> -> tensor<2x3xbf16>
  %1 = dlc.cast %0 : tensor<2x3xf16> -> tensor<2x3xbf16>
  // CHECK: %[[I:.*]] = dlc.cast %[[BF]] : tensor<2x3xbf16> -> tensor<2x3xi32>
  %2 = dlc.cast %1 : tensor<2x3xbf16> -> tensor<2x3xi32>
  // CHECK: %[[L:.*]] = dlc.cast %[[I]] : tensor<2x3xi32> -> tensor<2x3xi64>
  %3 = dlc.cast %2 : tensor<2x3xi32> -> tensor<2x3xi64>
  // CHECK: %[[B:.*]] = dlc.cast %[[L]] {device = #dlc.device<cuda:1>} : tensor<2x3xi64> -> tensor<2x3xi1>
  %4 = dlc.cast %3 {device = #dlc.device<cuda:1>} : tensor<2x3xi64> -> tensor<2x3xi1>
  // CHECK: %[[F:.*]] = dlc.cast %[[B]] : tensor<2x3xi1> -> tensor<2x3xf32>
  %5 = dlc.cast %4 : tensor<2x3xi1> -> tensor<2x3xf32>
  // The destination is written bare (`to cuda:1`) and stored as #dlc.device.
  // CHECK: %[[G:.*]] = dlc.copy %[[F]] to cuda:1 : tensor<2x3xf32>
  %6 = dlc.copy %5 to cuda:1 : tensor<2x3xf32>
  // CHECK: %[[C:.*]] = dlc.copy %[[G]] to cpu : tensor<2x3xf32>
  %7 = dlc.copy %6 to cpu : tensor<2x3xf32>
  // CHECK: %[[G7:.*]] = dlc.copy %[[C]] to cuda:7 {note = "p2p"} : tensor<2x3xf32>
  %8 = dlc.copy %7 to cuda : 7 {note = "p2p"} : tensor<2x3xf32>
  // CHECK: return %[[H]], %[[BF]], %[[I]], %[[L]], %[[B]], %[[C]], %[[G]], %[[G7]]
  return %0, %1, %2, %3, %4, %7, %6, %8 : tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Every compute op takes a device pin; it is printed in the attribute dict.
// CHECK-LABEL: func.func @device_pins
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @device_pins(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = dlc.add %[[X]], %[[X]] {device = #dlc.device<cuda:1>} : tensor<4xf32>
  %0 = dlc.add %x, %x {device = #dlc.device<cuda:1>} : tensor<4xf32>
  // CHECK: %[[R:.*]] = dlc.relu %[[A]] {device = #dlc.device<cpu>} : tensor<4xf32>
  %1 = dlc.relu %0 {device = #dlc.device<cpu>} : tensor<4xf32>
  // Large indices print back as written.
  // CHECK: %[[E:.*]] = dlc.exp %[[R]] {device = #dlc.device<cuda:15>} : tensor<4xf32>
  %2 = dlc.exp %1 {device = #dlc.device<cuda:15>} : tensor<4xf32>
  // Discardable attributes sit beside the pin.
  // CHECK: %[[G:.*]] = dlc.gelu %[[E]] {device = #dlc.device<cuda:0>, tag = "x", tanh_approximation = true} : tensor<4xf32>
  %3 = dlc.gelu %2 {tag = "x", device = #dlc.device<cuda:0>, tanh_approximation = true} : tensor<4xf32>
  // CHECK: return %[[G]]
  return %3 : tensor<4xf32>
}

// A kernel on a GPU, one on the CPU (no device written), and one whose value
// nothing reads (no results).
// CHECK-LABEL: func.func @kernels
// CHECK: %[[G:.*]]:2 = dlc.kernel on cuda:0 -> tensor<4x8xf32>, tensor<4x8xf32> {
// CHECK-NEXT: %[[M:.*]] = dlc.matmul %{{.*}}, %{{.*}} {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[R:.*]] = dlc.relu %[[M]] {device = #dlc.device<cuda:0>}
// CHECK-NEXT: dlc.yield %[[M]], %[[R]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.neg %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: } {dlc.buffer = array<i64: 3>}
// CHECK-NEXT: dlc.kernel {
// CHECK-NEXT: dlc.exp
// CHECK-NEXT: dlc.yield{{$}}
// CHECK-NEXT: }
func.func @kernels(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %g:2 = dlc.kernel on cuda:0 -> tensor<4x8xf32>, tensor<4x8xf32> {
    %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %r = dlc.relu %m {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
    dlc.yield %m, %r : tensor<4x8xf32>, tensor<4x8xf32>
  }
  %n = dlc.kernel -> tensor<4x8xf32> {
    %v = dlc.neg %x : tensor<4x8xf32>
    dlc.yield %v : tensor<4x8xf32>
  } {dlc.buffer = array<i64: 3>}
  dlc.kernel {
    %e = dlc.exp %x : tensor<4x8xf32>
    dlc.yield
  }
  return %n : tensor<4x8xf32>
}

// scatter_elements: every reduction, an index broadcast along the updates;
// top_k: largest by default, smallest, any axis.
// CHECK-LABEL: func.func @scatter_top_k
// CHECK: dlc.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x5xf32>, tensor<2x5xi64>, tensor<2x5xf32>) -> tensor<3x5xf32>
// CHECK: dlc.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = "max"} : (tensor<3x5xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
// CHECK: dlc.top_k %{{.*}} {k = 2 : i64} : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
// CHECK: dlc.top_k %{{.*}} {axis = 0 : i64, k = 3 : i64, largest = false} : tensor<3x5xf32> -> tensor<3x5xf32>, tensor<3x5xi64>
func.func @scatter_top_k(%d: tensor<3x5xf32>, %i: tensor<2x5xi64>, %u: tensor<2x5xf32>, %j: tensor<3x1xi32>, %v: tensor<3x2xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x5xi64>) {
  %0 = dlc.scatter_elements %d, %i, %u {reduction = "none"} : (tensor<3x5xf32>, tensor<2x5xi64>, tensor<2x5xf32>) -> tensor<3x5xf32>
  %1 = dlc.scatter_elements %d, %j, %v {axis = 1 : i64, reduction = "max"} : (tensor<3x5xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %v0, %i0 = dlc.top_k %d {k = 2 : i64} : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  %v1, %i1 = dlc.top_k %d {axis = 0 : i64, k = 3 : i64, largest = false} : tensor<3x5xf32> -> tensor<3x5xf32>, tensor<3x5xi64>
  return %0, %1, %i0, %i1 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x5xi64>
}

// CHECK-LABEL: func.func @loops
// CHECK: dlc.loop carried(%{{.*}} : tensor<3x8xf32>) scan(%{{.*}} : tensor<5x3x8xf32>) invariant(%{{.*}} : tensor<8x8xf32>) -> tensor<3x8xf32>, tensor<5x3x8xf32> {
// CHECK: ^bb0(%{{.*}}: tensor<1xi64>, %{{.*}}: tensor<3x8xf32>, %{{.*}}: tensor<3x8xf32>, %{{.*}}: tensor<8x8xf32>):
// CHECK: dlc.yield %{{.*}}, %{{.*}} : tensor<3x8xf32>, tensor<3x8xf32>
// CHECK: } {reverse, trips = 5 : i64}
// CHECK: dlc.loop count(%{{.*}} : tensor<i64>) carried(%{{.*}} : tensor<3x8xf32>) -> tensor<3x8xf32> {
func.func @loops(%h0: tensor<3x8xf32>, %xs: tensor<5x3x8xf32>, %w: tensor<8x8xf32>, %n: tensor<i64>) -> (tensor<3x8xf32>, tensor<5x3x8xf32>, tensor<3x8xf32>) {
  %h, %ys = dlc.loop carried(%h0 : tensor<3x8xf32>) scan(%xs : tensor<5x3x8xf32>) invariant(%w : tensor<8x8xf32>) -> tensor<3x8xf32>, tensor<5x3x8xf32> {
  ^bb0(%t: tensor<1xi64>, %hc: tensor<3x8xf32>, %x: tensor<3x8xf32>, %wi: tensor<8x8xf32>):
    %p = dlc.linear %hc, %wi : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
    %s = dlc.add %x, %p : tensor<3x8xf32>
    dlc.yield %s, %s : tensor<3x8xf32>, tensor<3x8xf32>
  } {trips = 5 : i64, reverse}
  %r = dlc.loop count(%n : tensor<i64>) carried(%h0 : tensor<3x8xf32>) -> tensor<3x8xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<3x8xf32>):
    %d = dlc.tanh %c : tensor<3x8xf32>
    dlc.yield %d : tensor<3x8xf32>
  }
  return %h, %ys, %r : tensor<3x8xf32>, tensor<5x3x8xf32>, tensor<3x8xf32>
}

// The 4-byte alignment header 0x04000000, then little-endian data:
// fc_weight = [1.0, 2.0] (f32), token_ids = [3, -1] (i64).
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: fc_weight: "0x040000000000803F00000040",
// CHECK-NEXT: token_ids: "0x040000000300000000000000FFFFFFFFFFFFFFFF"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}
{-#
  dialect_resources: {
    builtin: {
      fc_weight: "0x040000000000803F00000040",
      token_ids: "0x040000000300000000000000FFFFFFFFFFFFFFFF"
    }
  }
#-}


