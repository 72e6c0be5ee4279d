// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-partition-kernels))' | FileCheck %s

// A matmul takes its bias add and activation; softmax starts a kernel; the
// reshape (a view) and the copy (a copy step) get none and end the open
// kernel; a change of device starts a new one; constants get none.
// CHECK-LABEL: func.func @groups
// CHECK: dlc.constant
// CHECK-NOT: dlc.kernel
// CHECK-SAME: {{$}}
// CHECK: dlc.matmul {{.*}}dlc.kernel = 0
// CHECK: dlc.add {{.*}}dlc.kernel = 0
// CHECK: dlc.gelu {{.*}}dlc.kernel = 0
// CHECK: dlc.softmax {{.*}}dlc.kernel = 1
// CHECK: dlc.reshape
// CHECK-NOT: dlc.kernel
// CHECK-SAME: {{$}}
// CHECK: dlc.relu {{.*}}dlc.kernel = 2
// CHECK: dlc.copy
// CHECK-NOT: dlc.kernel
// CHECK-SAME: {{$}}
// CHECK: dlc.neg {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.kernel = 3
// CHECK: dlc.exp {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.kernel = 3
// Back on the CPU after the copy, a new kernel.
// CHECK: dlc.abs {{.*}}dlc.kernel = 4
func.func @groups(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %b = dlc.constant dense<0.5> : tensor<8xf32>
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a = dlc.add %m, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %g = dlc.gelu %a : tensor<4x8xf32>
  %s = dlc.softmax %g : tensor<4x8xf32>
  %r = dlc.reshape %s : tensor<4x8xf32> -> tensor<32xf32>
  %q = dlc.relu %r : tensor<32xf32>
  %c = dlc.copy %g to cuda:0 : tensor<4x8xf32>
  %n = dlc.neg %c {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %e = dlc.exp %n {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %h = dlc.copy %e to cpu : tensor<4x8xf32>
  %y = dlc.abs %h : tensor<4x8xf32>
  return %q, %y : tensor<32xf32>, tensor<4x8xf32>
}
