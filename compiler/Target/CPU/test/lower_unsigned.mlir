// Unsigned element types pick the unsigned arith ops (division, remainder,
// max/min, compare, clip, casts), then the pass leaves only signless types:
// no ui8 in any type, constant or block argument.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s --check-prefix=NOUI

// NOUI-NOT: ui{{[0-9]}}

// CHECK-LABEL: func.func @binary_u8
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi1>)
// CHECK: arith.divui %{{.*}}, %{{.*}} : i8
// CHECK: arith.remui %{{.*}}, %{{.*}} : i8
// CHECK: arith.remui %{{.*}}, %{{.*}} : i8
// CHECK-NOT: arith.cmpi slt
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i8
func.func @binary_u8(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>) {
  %0 = dlc.div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = dlc.rem %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = dlc.mod %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = dlc.max %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %4 = dlc.compare "lt", %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>
}

// -----

// Casts: from unsigned by uitofp and extui; to u64 from a float through
// fptoui past 2^63; between widths of either sign by trunci or extsi.
// CHECK-LABEL: func.func @casts
// CHECK: arith.uitofp %{{.*}} : i16 to f32
// CHECK: arith.extui %{{.*}} : i16 to i64
// CHECK: arith.fptoui %{{.*}} : f64 to i64
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @casts(%u: tensor<3xui16>, %f: tensor<3xf64>, %s: tensor<3xi8>) -> (tensor<3xf32>, tensor<3xi64>, tensor<3xui64>, tensor<3xui32>, tensor<3xui8>) {
  %0 = dlc.cast %u : tensor<3xui16> -> tensor<3xf32>
  %1 = dlc.cast %u : tensor<3xui16> -> tensor<3xi64>
  %2 = dlc.cast %f : tensor<3xf64> -> tensor<3xui64>
  %3 = dlc.cast %s : tensor<3xi8> -> tensor<3xui32>
  %4 = dlc.cast %3 : tensor<3xui32> -> tensor<3xui8>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xi64>, tensor<3xui64>, tensor<3xui32>, tensor<3xui8>
}

// -----

// Unsigned clip bounds saturate to [0, 255]; relu and abs are the value.
// CHECK-LABEL: func.func @clip_relu_u8
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi ugt
// CHECK: ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: linalg.yield %[[X]] : i8
func.func @clip_relu_u8(%a: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xui8>) {
  %0 = dlc.clip %a {min = -5.0, max = 300.0} : tensor<4xui8>
  %1 = dlc.relu %a : tensor<4xui8>
  return %0, %1 : tensor<4xui8>, tensor<4xui8>
}

// -----

// Constants keep their bytes under the signless type (65535 prints as -1).
// CHECK-LABEL: func.func @constant_u16
// CHECK: arith.constant dense<[1, -1]> : tensor<2xi16>
func.func @constant_u16() -> tensor<2xui16> {
  %0 = dlc.constant dense<[1, 65535]> : tensor<2xui16>
  return %0 : tensor<2xui16>
}

// -----

// Shifts choose 0 (or the sign) past the width, where LLVM's are poison:
// the amount compared unsigned, so a negative one counts as large.
// CHECK-LABEL: func.func @shifts
// CHECK: %[[IN:.*]] = arith.cmpi ule, %[[R:.*]], %c7_i8 : i8
// CHECK: %[[SHL:.*]] = arith.shli
// CHECK: arith.select %[[IN]], %[[SHL]], %c0_i8 : i8
// CHECK: arith.shrui
// CHECK: %[[CLAMPED:.*]] = arith.select %{{.*}}, %{{.*}}, %c15_i16 : i16
// CHECK: arith.shrsi %{{.*}}, %[[CLAMPED]] : i16
func.func @shifts(%u: tensor<4xui8>, %s: tensor<4xi16>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xi16>) {
  %0 = dlc.shift_left %u, %u : tensor<4xui8>
  %1 = dlc.shift_right %u, %u : tensor<4xui8>
  %2 = dlc.shift_right %s, %s : tensor<4xi16>
  return %0, %1, %2 : tensor<4xui8>, tensor<4xui8>, tensor<4xi16>
}
