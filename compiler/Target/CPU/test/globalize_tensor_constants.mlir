// RUN: dlc-opt %s --dlc-globalize-tensor-constants | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-globalize-tensor-constants, one-shot-bufferize)' \
// RUN:   | FileCheck %s --check-prefix=BUFFERIZED

// Tensor constants of two kernels become reads of module globals before the
// kernels are bufferized on their own threads (bufferizing a constant would
// insert a global into the module from a kernel's thread). Equal constants
// share one global; scalar constants stay.
// CHECK-DAG: memref.global "private" constant @[[IDX:__constant_4xi64[_0-9]*]] : memref<4xi64> = dense<[2, 0, 2, 2]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @[[W:__constant_2xf32[_0-9]*]] : memref<2xf32> = dense<[1.500000e+00, -2.000000e+00]> {alignment = 64 : i64}
// CHECK-LABEL: func.func @first
// CHECK: %[[M:.*]] = memref.get_global @[[IDX]] : memref<4xi64>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[M]] restrict : memref<4xi64>
// CHECK: return %[[T]]
// CHECK-LABEL: func.func @second
// CHECK: arith.constant 0 : index
// CHECK: memref.get_global @[[IDX]] : memref<4xi64>
// CHECK: memref.get_global @[[W]] : memref<2xf32>
// CHECK-NOT: arith.constant dense

// Bufferized, a kernel that writes into a constant writes into a copy: the
// to_tensor is not writable.
// BUFFERIZED-LABEL: func.func @writes
// BUFFERIZED: %[[G:.*]] = memref.get_global @{{.*}} : memref<2xf32>
// BUFFERIZED: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<2xf32>
// BUFFERIZED: memref.copy %[[G]], %[[COPY]]
// BUFFERIZED: memref.store %{{.*}}, %[[COPY]]
func.func @first() -> tensor<4xi64> {
  %c = arith.constant dense<[2, 0, 2, 2]> : tensor<4xi64>
  return %c : tensor<4xi64>
}

func.func @second(%x: tensor<4xi64>) -> (tensor<4xi64>, tensor<2xf32>) {
  %i = arith.constant 0 : index
  %c = arith.constant dense<[2, 0, 2, 2]> : tensor<4xi64>
  %w = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %e = tensor.extract %x[%i] : tensor<4xi64>
  %r = tensor.insert %e into %c[%i] : tensor<4xi64>
  return %r, %w : tensor<4xi64>, tensor<2xf32>
}

func.func @writes(%v: f32) -> tensor<2xf32> {
  %i = arith.constant 0 : index
  %w = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %r = tensor.insert %v into %w[%i] : tensor<2xf32>
  return %r : tensor<2xf32>
}
