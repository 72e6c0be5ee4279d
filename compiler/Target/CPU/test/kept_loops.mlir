// What DenseNet's layers compile to (compile time, issue 21): a 1x1
// convolution whose ReLU output is padded for a 3x3 one (48 channels: read
// as stored, so padded in NCHW; from 64 the padding is pixel-major), and a
// concat.
// - the padded image's side borders are kept loops: metadata disabling
//   LLVM's unrolling and vectorising, and no scatters;
// - the serial fallback of a parallel launch calls its thunk in a kept
//   loop, and the thunk is not inlined there (one copy of the body);
// - a concat's inputs are memcpys: one per input at batch 1, one per input
//   and image at batch 2 (blocks contiguous in both).
// RUN: dlc compile %s --cpu=x86-64-v4 --emit=llvm | FileCheck %s
// RUN: %check-e2e %s main %t --threads=2
// CHECK-NOT: masked.scatter
// CHECK: define internal void @k0_par{{[0-9]+}}_launch_thunk(ptr {{.*}}, i64 %{{.*}}) #[[NOINLINE:[0-9]+]]
// CHECK: define void @k0_entry
// The left and right borders of the padded 48x58x58 image.
// CHECK: store float 0.000000e+00
// CHECK-NEXT: add
// CHECK-NEXT: icmp eq i64 %{{.*}}, 56
// CHECK-NEXT: br {{.*}}, !llvm.loop ![[KEPT:[0-9]+]]
// CHECK: store float 0.000000e+00
// CHECK-NEXT: add
// CHECK-NEXT: icmp eq i64 %{{.*}}, 56
// CHECK-NEXT: br {{.*}}, !llvm.loop ![[KEPT]]
// The launches' serial fallbacks.
// CHECK: call void @k0_par{{[0-9]+}}_launch_thunk
// CHECK-NEXT: add
// CHECK-NEXT: icmp
// CHECK-NEXT: br {{.*}}, !llvm.loop ![[KEPT]]
// CHECK: define void @k1_entry
// CHECK-COUNT-2: call void @llvm.memcpy.p0.p0.i64({{.*}}, i64 401408, i1 false)
// CHECK-NEXT: ret void
// CHECK: define void @k2_entry
// CHECK-COUNT-6: call void @llvm.memcpy.p0.p0.i64({{.*}}, i64 4096, i1 false)
// CHECK-NEXT: ret void
// CHECK: attributes #[[NOINLINE]] = { {{.*}}noinline
// CHECK-DAG: ![[KEPT]] = distinct !{![[KEPT]], ![[A:[0-9]+]], ![[B:[0-9]+]]}
// CHECK-DAG: ![[A]] = !{!"llvm.loop.vectorize.enable", i1 false}
// CHECK-DAG: ![[B]] = !{!"llvm.loop.unroll.disable"}
func.func @main(%x: tensor<1x32x56x56xf32> {dlc.name = "x"}, %b: tensor<2x4x16x16xf32> {dlc.name = "b"})
    -> (tensor<1x64x56x56xf32> {dlc.name = "y"}, tensor<2x12x16x16xf32> {dlc.name = "z"}) {
  %w1 = dlc.constant dense<0.125> : tensor<48x32x1x1xf32>
  %w3 = dlc.constant dense<-0.0625> : tensor<32x48x3x3xf32>
  %c1 = dlc.conv2d %x, %w1 : (tensor<1x32x56x56xf32>, tensor<48x32x1x1xf32>) -> tensor<1x48x56x56xf32>
  %r = dlc.relu %c1 : tensor<1x48x56x56xf32>
  %c3 = dlc.conv2d %r, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x48x56x56xf32>, tensor<32x48x3x3xf32>) -> tensor<1x32x56x56xf32>
  %y = dlc.concat %x, %c3 {axis = 1 : i64} : (tensor<1x32x56x56xf32>, tensor<1x32x56x56xf32>) -> tensor<1x64x56x56xf32>
  %z = dlc.concat %b, %b, %b {axis = 1 : i64} : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x12x16x16xf32>
  return %y, %z : tensor<1x64x56x56xf32>, tensor<2x12x16x16xf32>
}
