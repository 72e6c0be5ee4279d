// symbolic_batch.mlir's model at a batch of 1, without the symbol.
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<2x12xf32> {
  %w = dlc.constant dense<0.5> : tensor<6x3x3x3xf32>
  %c = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x8x8xf32>
  %r = dlc.relu %c : tensor<1x6x8x8xf32>
  %p = dlc.global_avg_pool %r : tensor<1x6x8x8xf32> -> tensor<1x6x1x1xf32>
  %t = dlc.reshape %p : tensor<1x6x1x1xf32> -> tensor<1x2x3xf32>
  %fw = dlc.constant dense<0.25> : tensor<12x3xf32>
  %fb = dlc.constant dense<0.0> : tensor<12xf32>
  %h = dlc.linear %t, %fw, %fb : (tensor<1x2x3xf32>, tensor<12x3xf32>, tensor<12xf32>) -> tensor<1x2x12xf32>
  %f = dlc.reshape %h : tensor<1x2x12xf32> -> tensor<2x12xf32>
  %s = dlc.softmax %f {axis = 1 : i64} : tensor<2x12xf32>
  return %s : tensor<2x12xf32>
}
