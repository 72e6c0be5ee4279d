func.func @main(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %wd = dlc.constant dense<0.1> : tensor<16x1x3x3xf32>
  %w = dlc.constant dense<0.1> : tensor<16x4x3x3xf32>
  %g = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, groups = 4 : i64} : (tensor<1x16x8x8xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x8x8xf32> loc("grouped")
  %d = dlc.conv2d %g, %wd {pads = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x8x8xf32> loc("depthwise")
  return %d : tensor<1x16x8x8xf32>
}
