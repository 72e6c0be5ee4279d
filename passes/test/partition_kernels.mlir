// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-partition-kernels))' | FileCheck %s

// Each kernel is a dlc.kernel op. A matmul takes its bias add and
// activation, and on the CPU the softmax after them; the reshape (a view)
// and the copy (a copy step) stay outside and end the open kernel; a change
// of device starts a new one; constants stay outside.
// CHECK-LABEL: func.func @groups
// CHECK-NEXT: dlc.constant
// CHECK-NEXT: %[[K0:.*]]:2 = dlc.kernel -> tensor<4x8xf32>, tensor<4x8xf32> {
// CHECK-NEXT: dlc.matmul
// CHECK-NEXT: dlc.add
// CHECK-NEXT: %[[G:.*]] = dlc.gelu
// CHECK-NEXT: %[[S:.*]] = dlc.softmax
// The kernel yields what is read outside it, in the order of its ops.
// CHECK-NEXT: dlc.yield %[[G]], %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: dlc.reshape %[[K0]]#1
// CHECK-NEXT: dlc.kernel -> tensor<32xf32> {
// CHECK-NEXT: dlc.relu
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.copy %[[K0]]#0 to cuda:0
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.neg {{.*}}device = #dlc.device<cuda:0>
// CHECK-NEXT: dlc.exp {{.*}}device = #dlc.device<cuda:0>
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// Back on the CPU after the copy, a new kernel.
// CHECK-NEXT: dlc.copy
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.abs
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

// A padded convolution whose image the open kernel computes for it alone
// joins that kernel (its producer then writes the padded image itself); one
// whose image is also read elsewhere (a residual), a grouped one
// (depthwise), an unpadded one and one on a GPU start their own.
// CHECK-LABEL: func.func @padded_consumers
// CHECK-NEXT: dlc.kernel -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d
// CHECK-NEXT: dlc.relu
// CHECK-NEXT: dlc.conv2d
// CHECK-NEXT: dlc.relu
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d
// CHECK-NEXT: dlc.add
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d {{.*}}groups = 4
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.copy
// CHECK-NEXT: dlc.copy
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d {{.*}}device = #dlc.device<cuda:0>
// CHECK-NEXT: dlc.relu
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: dlc.conv2d {{.*}}device = #dlc.device<cuda:0>
// CHECK-NEXT: dlc.yield
func.func @padded_consumers(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %dw: tensor<4x1x3x3xf32>, %w1: tensor<4x4x1x1xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %c1 = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r1 = dlc.relu %c1 : tensor<1x4x8x8xf32>
  %c2 = dlc.conv2d %r1, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r2 = dlc.relu %c2 : tensor<1x4x8x8xf32>
  %c3 = dlc.conv2d %r2, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %s = dlc.add %c3, %r2 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %d = dlc.conv2d %s, %dw {pads = array<i64: 1, 1, 1, 1>, groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  %p = dlc.conv2d %d, %w1 : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %g = dlc.copy %x to cuda:0 : tensor<1x4x8x8xf32>
  %gw = dlc.copy %w to cuda:0 : tensor<4x4x3x3xf32>
  %g1 = dlc.conv2d %g, %gw {pads = array<i64: 1, 1, 1, 1>, device = #dlc.device<cuda:0>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %gr = dlc.relu %g1 {device = #dlc.device<cuda:0>} : tensor<1x4x8x8xf32>
  %g2 = dlc.conv2d %gr, %gw {pads = array<i64: 1, 1, 1, 1>, device = #dlc.device<cuda:0>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %gh = dlc.copy %g2 to cpu : tensor<1x4x8x8xf32>
  return %p, %s, %gh : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// Row-wise ops join a CPU kernel whose value they read: the residual add's
// layer norm, and the elementwise op after it. A layer norm reading only an
// argument starts a kernel; a softmax on a GPU starts one (CUDA kernels keep
// one row op each), and so does a row op reading a value of an earlier
// kernel, not the open one.
// CHECK-LABEL: func.func @row_ops
// CHECK-NEXT: %[[K0:.*]]:2 = dlc.kernel -> tensor<4x8xf32>, tensor<4x8xf32> {
// CHECK-NEXT: dlc.matmul
// CHECK-NEXT: dlc.add
// CHECK-NEXT: dlc.layer_norm
// CHECK-NEXT: dlc.mul
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.layer_norm
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.copy
// CHECK-NEXT: dlc.copy
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.matmul
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.softmax {{.*}}device = #dlc.device<cuda:0>
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.copy
// An op whose value nothing reads: a kernel with no results.
// CHECK-NEXT: dlc.kernel {
// CHECK-NEXT: dlc.neg
// CHECK-NEXT: dlc.yield{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.softmax %[[K0]]#0
func.func @row_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a = dlc.add %m, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = dlc.layer_norm %a, %g : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %s = dlc.mul %n, %g : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %n2 = dlc.layer_norm %x, %g : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %xc = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %wc = dlc.copy %w to cuda:0 : tensor<8x8xf32>
  %mc = dlc.matmul %xc, %wc {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %sc = dlc.softmax %mc {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %h = dlc.copy %sc to cpu : tensor<4x8xf32>
  %e = dlc.neg %x : tensor<4x8xf32>
  %late = dlc.softmax %a : tensor<4x8xf32>
  return %s, %n2, %h, %late : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Attention's heads: the transposes of Q and V that keep the last dim move
// right before their batched matmul and join its kernel (it reads its
// matrices through them); the one after P.V joins the P.V kernel (which
// writes each matrix in place). Kᵀ moves the last dim: a kernel of its own.
// A transpose with a second user stays where it is, in a kernel of its own.
// CHECK-LABEL: func.func @attention_heads
// CHECK-NEXT: %[[KT:.*]] = dlc.kernel -> tensor<2x4x16x8xf32> {
// CHECK-NEXT: dlc.transpose %{{.*}} {perm = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<2x4x8x8xf32> {
// CHECK-NEXT: dlc.transpose %{{.*}} {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: dlc.matmul %{{.*}}, %[[KT]]
// CHECK-NEXT: dlc.softmax
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<2x8x4x16xf32> {
// CHECK-NEXT: dlc.transpose %{{.*}} {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: dlc.matmul
// CHECK-NEXT: dlc.transpose %{{.*}} {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<2x4x8x16xf32> {
// CHECK-NEXT: dlc.transpose %{{.*}} {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: dlc.kernel -> tensor<2x4x8x8xf32> {
// CHECK-NEXT: dlc.matmul
func.func @attention_heads(%q: tensor<2x8x4x16xf32>, %k: tensor<2x8x4x16xf32>, %v: tensor<2x8x4x16xf32>) -> (tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) {
  %qt = dlc.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x4x16xf32> -> tensor<2x4x8x16xf32>
  %kt = dlc.transpose %k {perm = array<i64: 0, 2, 3, 1>} : tensor<2x8x4x16xf32> -> tensor<2x4x16x8xf32>
  %vt = dlc.transpose %v {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x4x16xf32> -> tensor<2x4x8x16xf32>
  %s = dlc.matmul %qt, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %p = dlc.softmax %s : tensor<2x4x8x8xf32>
  %o = dlc.matmul %p, %vt : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  %ot = dlc.transpose %o {perm = array<i64: 0, 2, 1, 3>} : tensor<2x4x8x16xf32> -> tensor<2x8x4x16xf32>
  %shared = dlc.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x4x16xf32> -> tensor<2x4x8x16xf32>
  %s2 = dlc.matmul %shared, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  return %ot, %s2, %shared : tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>
}

// A constant between a kernel's ops stays outside; the kernel goes after its
// last op, so that every value its body reads is defined before it.
// CHECK-LABEL: func.func @constant_between
// CHECK-NEXT: %[[B:.*]] = dlc.constant
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.matmul
// CHECK-NEXT: dlc.add %{{.*}}, %[[B]]
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
func.func @constant_between(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = dlc.constant dense<0.5> : tensor<8xf32>
  %a = dlc.add %m, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}
