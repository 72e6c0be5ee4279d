// Elementwise ops become one all-parallel linalg.generic each, with identity
// or broadcast maps; f16/bf16 compute in f32 and round once.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast_f16
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf16>, %[[R:.*]]: tensor<8xf16>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf16>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[R]] : tensor<4x8xf16>, tensor<8xf16>) outs(%[[E]] : tensor<4x8xf16>)
// CHECK: ^bb0(%[[X:.*]]: f16, %[[V:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: %[[VF:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK: %[[S:.*]] = arith.addf %[[XF]], %[[VF]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK: linalg.yield %[[T]] : f16
// CHECK: return %[[Y]]
func.func @add_broadcast_f16(%a: tensor<4x8xf16>, %row: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = dlc.add %a, %row : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// A size-1 dim broadcasts through a constant-0 expr; a scalar through ().
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcast_maps
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]
// CHECK: arith.mulf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.maximumf
func.func @broadcast_maps(%a: tensor<4x8xf32>, %c: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %0 = dlc.mul %a, %c : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %1 = dlc.max %0, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @integers
// CHECK: arith.divsi
// CHECK: arith.minsi
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: arith.maxsi %{{.*}}, %[[Z]] : i32
// CHECK: math.absi
func.func @integers(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = dlc.div %a, %b : tensor<4xi32>
  %1 = dlc.min %0, %b : tensor<4xi32>
  %2 = dlc.relu %1 : tensor<4xi32>
  %3 = dlc.abs %2 : tensor<4xi32>
  return %3 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @math_ops
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.tanh
// CHECK: math.erf
// CHECK: math.powf
// CHECK: math.absf
// sigmoid: 1 / (1 + exp(-x)), f32's exp as 2^n * poly(r) with -x clamped
// to [-87, 88] (no math.exp: its approximation has a division of its own),
// n rounded by adding 1.5 * 2^23 + 127, whose low bits shifted are 2^n (no
// floor, no conversion); an exact division; NaN selected through.
// CHECK: %[[N:.*]] = arith.negf
// CHECK: %[[LO:.*]] = arith.maxnumf %[[N]]
// CHECK: %[[T:.*]] = arith.minnumf %[[LO]]
// CHECK: %[[RB:.*]] = arith.constant 0x4B40007F : f32
// CHECK: %[[SH:.*]] = math.fma %[[T]], %{{.*}}, %[[RB]] : f32
// CHECK: arith.subf %[[SH]], %[[RB]] : f32
// CHECK-NOT: math.floor
// CHECK: %[[BITS:.*]] = arith.bitcast %[[SH]] : f32 to i32
// CHECK: arith.shli %[[BITS]]
// CHECK: %[[P2:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[E:.*]] = arith.mulf %{{.*}}, %[[P2]]
// CHECK: %[[D:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: %[[S:.*]] = arith.divf %{{.*}}, %[[D]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno
// CHECK: arith.select %[[NAN]], %{{.*}}, %[[S]]
func.func @math_ops(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = dlc.exp %x : tensor<5xf32>
  %1 = dlc.log %0 : tensor<5xf32>
  %2 = dlc.sqrt %1 : tensor<5xf32>
  %3 = dlc.rsqrt %2 : tensor<5xf32>
  %4 = dlc.tanh %3 : tensor<5xf32>
  %5 = dlc.erf %4 : tensor<5xf32>
  %6 = dlc.pow %5, %x : tensor<5xf32>
  %7 = dlc.abs %6 : tensor<5xf32>
  %8 = dlc.sigmoid %7 : tensor<5xf32>
  return %8 : tensor<5xf32>
}

// -----

// gelu: 0.5 x (1 + erf(x / sqrt 2)), the division as a product by 1/sqrt 2,
// or the tanh form; clip propagates NaN.
// CHECK-LABEL: func.func @gelu_clip
// CHECK-NOT: arith.divf
// CHECK: %[[R:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %{{.*}}, %[[R]] : f32
// CHECK-NEXT: math.erf %[[S]]
// CHECK: math.tanh
// CHECK-DAG: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[MX:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// CHECK: arith.minimumf %[[MX]], %[[HI]] : f32
func.func @gelu_clip(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = dlc.gelu %x : tensor<5xf32>
  %1 = dlc.gelu %0 {tanh_approximation = true} : tensor<5xf32>
  %2 = dlc.clip %1 {min = 0.0, max = 6.0} : tensor<5xf32>
  return %2 : tensor<5xf32>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[I:.*]] = arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.trunci %[[I]] : i64 to i32
// CHECK: arith.cmpi ne
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @casts(%x: tensor<3xf32>, %i: tensor<3xi32>, %h: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xi32>, tensor<3xf32>, tensor<3xi1>, tensor<3xbf16>) {
  %0 = dlc.cast %x : tensor<3xf32> -> tensor<3xf16>
  %1 = dlc.cast %x : tensor<3xf32> -> tensor<3xi32>
  %b = dlc.cast %i : tensor<3xi32> -> tensor<3xi1>
  %2 = dlc.cast %b : tensor<3xi1> -> tensor<3xf32>
  %3 = dlc.cast %h : tensor<3xf16> -> tensor<3xi1>
  %4 = dlc.cast %i : tensor<3xi32> -> tensor<3xbf16>
  return %0, %1, %2, %3, %4 : tensor<3xf16>, tensor<3xi32>, tensor<3xf32>, tensor<3xi1>, tensor<3xbf16>
}

// -----

// CHECK-LABEL: func.func @constant_copy
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[R:.*]] = arith.constant dense_resource<w> : tensor<2xf32>
// CHECK: return %[[X]], %[[C]], %[[R]]
func.func @constant_copy(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = dlc.constant dense_resource<w> : tensor<2xf32>
  %y = dlc.copy %x to cuda:1 : tensor<2xf32>
  return %y, %c, %r : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// compare: ordered cmpf (une for ne) on f16 extended to f32, signed cmpi on
// integers, unsigned on i1; select: arith.select on the stored values, the
// three operands broadcast.
// CHECK-LABEL: func.func @compare_select
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf une
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i1
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}]
// CHECK: ^bb0(%[[C:.*]]: i1, %[[T:.*]]: f16, %[[F:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
func.func @compare_select(%h: tensor<4x8xf16>, %r: tensor<8xf16>, %i: tensor<3xi32>, %m: tensor<3xi1>)
    -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<3xi1>, tensor<3xi1>, tensor<4x8xf16>) {
  %0 = dlc.compare "lt", %h, %r : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xi1>
  %1 = dlc.compare "ne", %h, %h : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xi1>
  %2 = dlc.compare "ge", %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %3 = dlc.compare "gt", %m, %2 : tensor<3xi1>
  %4 = dlc.select %0, %h, %r : tensor<4x8xi1>, tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  return %0, %1, %2, %3, %4 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<3xi1>, tensor<3xi1>, tensor<4x8xf16>
}
