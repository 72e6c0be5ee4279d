// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed}))' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=LOG
// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed},dlc-insert-copies))' | FileCheck %s --check-prefix=COPY
// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=fp16}))' | FileCheck %s --check-prefix=FP16
// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=fp16}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=FP16LOG

// Allow ops are painted, the infer op between them too; softmax (deny) makes
// the add after it deny, and the relu on the way (clear) with it. The cast
// of %m2 back to f32 is one, shared by softmax, add and tanh. Arguments are
// cast on the cpu (before the copy), the weight once for both matmuls.
// LOG: dlc-mixed-precision: @paint: converted 3 of 7 ops using 3 casts
// CHECK-LABEL: func.func @paint
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[WH:.*]] = dlc.cast %[[W]] {device = #dlc.device<cpu>, dlc.reason = "cast"} : tensor<8x8xf32> -> tensor<8x8xf16>
// CHECK-NEXT: %[[XH:.*]] = dlc.cast %[[X]] {device = #dlc.device<cpu>, dlc.reason = "cast"} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT: %[[M:.*]] = dlc.matmul %[[XH]], %[[WH]] {accumulator = f32, device = #dlc.device<cuda:0>} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT: %[[G:.*]] = dlc.gelu %[[M]] {{.*}} : tensor<4x8xf16>
// CHECK-NEXT: %[[M2:.*]] = dlc.matmul %[[G]], %[[WH]] {accumulator = f32, {{.*}} -> tensor<4x8xf16>
// CHECK-NEXT: %[[M2F:.*]] = dlc.cast %[[M2]] {device = #dlc.device<cuda:0>, dlc.reason = "cast"} : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = dlc.softmax %[[M2F]] {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = dlc.relu %[[S]] {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: %[[A:.*]] = dlc.add %[[R]], %[[M2F]] {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: %[[T:.*]] = dlc.tanh %[[M2F]] {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: return %[[A]], %[[T]]
// fp16 paints every GPU op but softmax.
// FP16LOG: dlc-mixed-precision: @paint: converted 6 of 7 ops using 6 casts
// FP16-LABEL: func.func @paint
// FP16: dlc.softmax {{.*}} : tensor<4x8xf32>
// FP16: dlc.relu {{.*}} : tensor<4x8xf16>
// FP16: dlc.add {{.*}} : tensor<4x8xf16>
// FP16: dlc.tanh {{.*}} : tensor<4x8xf16>
func.func @paint(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %g = dlc.gelu %m {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %m2 = dlc.matmul %g, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = dlc.softmax %m2 {axis = -1 : i64, device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %r = dlc.relu %s {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %a = dlc.add %r, %m2 {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %t = dlc.tanh %m2 {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  return %a, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Casts and copies together. softmax's value goes to cuda:1 only in f16: the
// cast runs on cuda:0 and half the bytes cross. cuda:2 wants it in f16 and in
// f32: one f32 copy, the cast there. The matmul's f16 results travel as f16
// and are widened where they are read.
// COPY-LABEL: func.func @cast_before_copy
// COPY: %[[S:.*]] = dlc.softmax
// COPY-NEXT: %[[S2:.*]] = dlc.copy %[[S]] to cuda:2 : tensor<4x8xf32>
// COPY-NEXT: %[[S2H:.*]] = dlc.cast %[[S2]] {device = #dlc.device<cuda:2>, {{.*}}} : tensor<4x8xf32> -> tensor<4x8xf16>
// COPY-NEXT: %[[SH:.*]] = dlc.cast %[[S]] {device = #dlc.device<cuda:0>, {{.*}}} : tensor<4x8xf32> -> tensor<4x8xf16>
// COPY-NEXT: %[[SH1:.*]] = dlc.copy %[[SH]] to cuda:1 : tensor<4x8xf16>
// COPY-NEXT: %[[M:.*]] = dlc.matmul %[[SH1]], {{.*}} -> tensor<4x8xf16>
// COPY-NEXT: %[[MF:.*]] = dlc.cast %[[M]] {device = #dlc.device<cuda:1>, {{.*}}} : tensor<4x8xf16> -> tensor<4x8xf32>
// COPY-NEXT: %[[N:.*]] = dlc.matmul %[[S2H]], {{.*}} -> tensor<4x8xf16>
// COPY-NEXT: %[[N1:.*]] = dlc.copy %[[N]] to cuda:1 : tensor<4x8xf16>
// COPY-NEXT: %[[NF:.*]] = dlc.cast %[[N1]] {device = #dlc.device<cuda:1>, {{.*}}} : tensor<4x8xf16> -> tensor<4x8xf32>
// COPY-NEXT: %[[E:.*]] = dlc.exp %[[S2]] {{.*}} : tensor<4x8xf32>
// COPY-NEXT: %[[E1:.*]] = dlc.copy %[[E]] to cuda:1 : tensor<4x8xf32>
// COPY-NEXT: dlc.add %[[MF]], %[[NF]]
func.func @cast_before_copy(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = dlc.softmax %x {axis = -1 : i64, device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %m = dlc.matmul %s, %w {device = #dlc.device<cuda:1>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %n = dlc.matmul %s, %w {device = #dlc.device<cuda:2>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %e = dlc.exp %s {device = #dlc.device<cuda:2>} : tensor<4x8xf32>
  %a = dlc.add %m, %n {device = #dlc.device<cuda:1>} : tensor<4x8xf32>
  %b = dlc.add %a, %e {device = #dlc.device<cuda:1>} : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// Cast chains: f16 -> f32 -> f16 folds to the f16 value (the user's cast
// goes away); f32 -> f16 -> f32 rounds on purpose and stays.
// LOG: dlc-mixed-precision: @chains: converted 1 of 1 ops using 2 casts
// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[Y:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[WH:.*]] = dlc.cast %[[W]]
// CHECK-NEXT: %[[M:.*]] = dlc.matmul %[[X]], %[[WH]] {{.*}} -> tensor<4x8xf16>
// CHECK-NEXT: %[[MF:.*]] = dlc.cast %[[M]] {device = #dlc.device<cpu>, {{.*}}} : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-NEXT: %[[YH:.*]] = dlc.cast %[[Y]] {device = #dlc.device<cpu>} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT: %[[YF:.*]] = dlc.cast %[[YH]] {device = #dlc.device<cpu>} : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[MF]], %[[YF]]
func.func @chains(%x: tensor<4x8xf16>, %y: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %xf = dlc.cast %x {device = #dlc.device<cuda:0>} : tensor<4x8xf16> -> tensor<4x8xf32>
  %m = dlc.matmul %xf, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %yh = dlc.cast %y {device = #dlc.device<cpu>} : tensor<4x8xf32> -> tensor<4x8xf16>
  %yf = dlc.cast %yh {device = #dlc.device<cpu>} : tensor<4x8xf16> -> tensor<4x8xf32>
  return %m, %yf : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Constants are converted at compile time (the f32 one stays for exp, which
// is deny); one that overflows fp16 is converted with a warning.
// CHECK-LABEL: func.func @constants
// CHECK: %[[WH:.*]] = dlc.constant dense<9.997550e-02> : tensor<8x8xf16> {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[W:.*]] = dlc.constant dense<1.000000e-01> : tensor<8x8xf32>
// CHECK-NEXT: %[[VH:.*]] = dlc.constant dense<{{.*}}0x7C00]]> : tensor<2x2xf16>
// CHECK-NEXT: dlc.matmul %{{.*}}, %[[WH]]
// CHECK: dlc.exp %[[W]]
// CHECK-NOT: dlc.cast
// CHECK: dlc.matmul %[[VH]], %[[VH]]
func.func @constants(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x8xf32>, tensor<2x2xf32>) {
  %w = dlc.constant dense<1.0e-01> : tensor<8x8xf32> {device = #dlc.device<cuda:0>}
  // expected-warning @below {{constant 'constant_1' overflows fp16 (|x| > 65504 becomes inf); pin its consumers to fp32 or compile with --calibrate}}
  %v = dlc.constant dense<[[1.0, 2.0], [3.0, 65520.0]]> : tensor<2x2xf32> {device = #dlc.device<cuda:0>}
  %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %e = dlc.exp %w {device = #dlc.device<cuda:0>} : tensor<8x8xf32>
  %q = dlc.matmul %v, %v {device = #dlc.device<cuda:0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %e, %q : tensor<4x8xf32>, tensor<8x8xf32>, tensor<2x2xf32>
}

// -----

// CPU ops stay fp32 unless pinned; a pin to fp32 keeps a GPU matmul in fp32,
// a pin to fp16 paints a CPU op.
// CHECK-LABEL: func.func @pins
// CHECK: dlc.matmul {{.*}}dlc.precision = "fp32"{{.*}} -> tensor<4x8xf32>
// CHECK: dlc.matmul {{.*}}device = #dlc.device<cpu>{{.*}} -> tensor<4x8xf32>
// CHECK: dlc.tanh {{.*}}dlc.precision = "fp16"{{.*}} : tensor<4x8xf16>
func.func @pins(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = dlc.matmul %x, %w {device = #dlc.device<cuda:0>, dlc.precision = "fp32"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = dlc.matmul %x, %w {device = #dlc.device<cpu>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = dlc.tanh %x {device = #dlc.device<cpu>, dlc.precision = "fp16"} : tensor<4x8xf32>
  return %a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
