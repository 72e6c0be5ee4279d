// A GPU kernel the CUDA backend cannot fuse is split, never refused: the
// squeeze-excitation multiply of EfficientNet broadcasts its gate, the
// sigmoid of a 1x1 convolution's [N,C,1,1] result, over the feature map
// ("the CUDA backend cannot fuse an elementwise op that broadcasts the result
// of '/features/.../fc2/Conv'" was a compile error; the CPU path compiles it).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --devices=cpu,cuda:0 --emit=cuda | FileCheck %s --check-prefix=CUDA
// RUN: %check-e2e %s main %t --devices=cpu,cuda:0 --no-cuda --gpu-host-code=emulated --gpu=sim --check-ordering | FileCheck %s
// CUDA: __global__ {{.*}} k0(
// CUDA: __global__ {{.*}} k1(
// CHECK: main y: ok
func.func @main(%x: tensor<1x4x5x5xf32> {dlc.name = "x"}, %p: tensor<1x8x1x1xf32> {dlc.name = "p"}) -> (tensor<1x4x5x5xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<4x8x1x1xf32>
  %s = dlc.conv2d %p, %w {device = #dlc.device<cuda:0>} : (tensor<1x8x1x1xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x1x1xf32> loc("/se/fc2/Conv")
  %g = dlc.sigmoid %s {device = #dlc.device<cuda:0>} : tensor<1x4x1x1xf32> loc("/se/Sigmoid")
  %m = dlc.mul %x, %g {device = #dlc.device<cuda:0>} : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x5x5xf32> loc("/se/Mul")
  return %m : tensor<1x4x5x5xf32>
}
