// Constants spanning the batch's rows with every unit alike: splats (a Pad's
// zeros, as Inception v3's exports lower it), a large one (a buffer the
// kernels read the first unit of) and a small one (folded into the code at
// one unit), and a token repeated per unit (ViT's class token expanded to the
// batch, folded into the code).
func.func @main(%x: tensor<4x3x5x5xf32> {dlc.name = "x"}) -> (tensor<4x3x5x9xf32> {dlc.name = "y"}, tensor<4x3x5x5xf32> {dlc.name = "t"}) attributes {dlc.symbolic_batch = "batch"} {
  %big = dlc.constant dense<0.0> : tensor<4x3x5x3xf32>
  %small = dlc.constant dense<0.5> : tensor<4x1x1x1xf32>
  %s = dlc.add %x, %small : (tensor<4x3x5x5xf32>, tensor<4x1x1x1xf32>) -> tensor<4x3x5x5xf32>
  %p = dlc.concat %big, %s, %big {axis = 3 : i64} : (tensor<4x3x5x3xf32>, tensor<4x3x5x5xf32>, tensor<4x3x5x3xf32>) -> tensor<4x3x5x11xf32>
  %tok = dlc.constant dense<[[[[0.25]], [[-1.0]], [[2.0]]], [[[0.25]], [[-1.0]], [[2.0]]], [[[0.25]], [[-1.0]], [[2.0]]], [[[0.25]], [[-1.0]], [[2.0]]]]> : tensor<4x3x1x1xf32>
  %y = dlc.slice %p {starts = array<i64: 0, 0, 0, 1>, ends = array<i64: 4, 3, 5, 10>, axes = array<i64: 0, 1, 2, 3>, steps = array<i64: 1, 1, 1, 1>} : tensor<4x3x5x11xf32> -> tensor<4x3x5x9xf32>
  %t = dlc.add %s, %tok : (tensor<4x3x5x5xf32>, tensor<4x3x1x1xf32>) -> tensor<4x3x5x5xf32>
  return %y, %t : tensor<4x3x5x9xf32>, tensor<4x3x5x5xf32>
}
