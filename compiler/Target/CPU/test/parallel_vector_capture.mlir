// A 1x1 convolution over 256 filters with 6-row register tiles (AVX2) ends
// in a ragged 4-row tile whose bias read is hoisted out of the loop over
// columns of tiles: the loop still runs on the pool, the vector passed in
// its closure (OutlineParallelLoops.cpp), and every thread count gives the
// same bits.
// RUN: dlc compile %s --cpu=x86-64-v3 --emit=llvm | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --cpu=x86-64-v3 -o %t/c.dlcm
// RUN: dlc run %t/c.dlcm --threads=1 --output-dir %t/1 > /dev/null
// RUN: dlc run %t/c.dlcm --threads=2 --output-dir %t/2 > /dev/null
// RUN: cmp %t/1/y.npy %t/2/y.npy
// CHECK: define internal void @{{.*}}_par0_launch_thunk(ptr
// CHECK: call void %{{.*}}(ptr %{{.*}}, i64 {{[0-9]+}}, ptr nonnull @{{.*}}_par0_launch_thunk, ptr
func.func @main(%x: tensor<1x16x16x32xf32> {dlc.name = "x"}, %w: tensor<256x16x1x1xf32> {dlc.name = "w"},
                %b: tensor<256xf32> {dlc.name = "b"}) -> (tensor<1x256x16x32xf32> {dlc.name = "y"}) {
  %y = dlc.conv2d %x, %w, %b : (tensor<1x16x16x32xf32>, tensor<256x16x1x1xf32>, tensor<256xf32>) -> tensor<1x256x16x32xf32>
  return %y : tensor<1x256x16x32xf32>
}
