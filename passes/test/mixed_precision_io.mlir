// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed io-precision=fp16}))' | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-mixed-precision))' 2>&1 | FileCheck %s --check-prefix=FP32
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=LOG
// LOG-DAG: dlc-mixed-precision: @io: converted 1 of 3 ops using 3 casts
// LOG-DAG: dlc-mixed-precision: @second: converted 1 of 2 ops using 2 casts

// --io-precision=fp16: the signature becomes f16; the painted matmul reads
// the inputs as they come, the CPU's exp widens its input and the outputs
// are narrowed where they are made. New casts get dlc.order next to their
// value (narrowing) or their first consumer (widening).
// CHECK-LABEL: func.func @io
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[W:.*]]: tensor<8x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK-NEXT: %[[XF:.*]] = dlc.cast %[[X]] {device = #dlc.device<cpu>, dlc.order = 0 : i64, dlc.reason = "cast"} : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-NEXT: %[[M:.*]] = dlc.matmul %[[X]], %[[W]] {accumulator = f32, device = #dlc.device<cuda:0>, dlc.order = 1 : i64}
// CHECK-NEXT: %[[MF:.*]] = dlc.cast %[[M]] {device = #dlc.device<cuda:0>, dlc.order = 2 : i64, {{.*}}} : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = dlc.softmax %[[MF]] {{.*}}dlc.order = 3 : i64} : tensor<4x8xf32>
// CHECK-NEXT: %[[SH:.*]] = dlc.cast %[[S]] {device = #dlc.device<cuda:0>, dlc.order = 4 : i64, {{.*}}} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT: %[[E:.*]] = dlc.exp %[[XF]] {{.*}}dlc.order = 5 : i64} : tensor<4x8xf32>
// CHECK-NEXT: %[[EH:.*]] = dlc.cast %[[E]] {device = #dlc.device<cpu>, dlc.order = 6 : i64, {{.*}}} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT: return %[[SH]], %[[EH]]
// fp32 (the default) changes nothing and says nothing.
// FP32-NOT: converted
// FP32: dlc.matmul %arg0, %arg1 {device = #dlc.device<cuda:0>, dlc.order = 0 : i64} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// FP32-NOT: dlc.cast
func.func @io(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>, dlc.order = 0 : i64} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = dlc.softmax %m {axis = -1 : i64, device = #dlc.device<cuda:0>, dlc.order = 1 : i64} : tensor<4x8xf32>
  %e = dlc.exp %x {device = #dlc.device<cpu>, dlc.order = 2 : i64} : tensor<4x8xf32>
  return %s, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// Two functions in one module: each is painted on its own.
// CHECK-LABEL: func.func @second
// CHECK: dlc.matmul {{.*}} -> tensor<2x2xf16>
// CHECK-NEXT: dlc.cast {{.*}} -> tensor<2x2xf32>
// CHECK-NEXT: dlc.exp
// CHECK-NEXT: dlc.cast {{.*}} -> tensor<2x2xf16>
// CHECK-NEXT: return
func.func @second(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = dlc.matmul %a, %a {device = #dlc.device<cuda:0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = dlc.exp %m {device = #dlc.device<cuda:0>} : tensor<2x2xf32>
  return %t : tensor<2x2xf32>
}
