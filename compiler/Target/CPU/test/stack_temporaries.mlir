// A temporary each parallel trip allocates and frees (here the packed B
// panel of a 1x1 convolution's matmul: 16 channels x 32 pixels) lives on the
// trip's stack, not in the runtime's scratch cache (whose mutex every thread
// took twice per trip). Results stay bit-identical at any --threads.
// RUN: dlc compile %s --cpu=x86-64-v4 --emit=llvm | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s -o %t/c.dlcm
// RUN: dlc run %t/c.dlcm --threads=1 --output-dir %t/1 > /dev/null
// RUN: dlc run %t/c.dlcm --threads=2 --output-dir %t/2 > /dev/null
// RUN: cmp %t/1/y.npy %t/2/y.npy
// RUN: %check-e2e %s main %t/e2e --threads=2
// CHECK-LABEL: define internal void @k0_par0_launch_thunk
// CHECK: alloca [512 x float], align 64
// CHECK-NOT: dlc_scratch_alloc
// CHECK: define void @dlc_set_parallel_runtime
func.func @main(%x: tensor<1x16x16x16xf32> {dlc.name = "x"}, %w: tensor<64x16x1x1xf32> {dlc.name = "w"}) -> (tensor<1x64x16x16xf32> {dlc.name = "y"}) {
  %c = dlc.conv2d %x, %w {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x16x16xf32>, tensor<64x16x1x1xf32>) -> tensor<1x64x16x16xf32>
  return %c : tensor<1x64x16x16xf32>
}
