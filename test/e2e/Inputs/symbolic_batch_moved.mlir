// The batch off dim 0 (passes/BatchDims.cpp): sequence-first attention as
// PyTorch's nn.MultiheadAttention computes it. x [B, S, E] is transposed to
// [S, B, E] (the batch on dim 1), its heads reshaped to [S, B*H, dh] (2 rows
// per unit on dim 1) and transposed to [B*H, S, dh] (back on dim 0), and the
// heads' output merged to [S*B, E] (dim 0 with the batch inside the
// sequence: each unit every B-th row) for the output projection. A sum over
// the sequence leaves the batch on dim 0 again. Every kernel runs per unit,
// on strided slices of the bound's buffers.
func.func @main(%x: tensor<4x5x8xf32> {dlc.name = "x"}) -> (tensor<4x5x8xf32> {dlc.name = "y"}, tensor<4x8xf32> {dlc.name = "pooled"}) attributes {dlc.symbolic_batch = "batch"} {
  %w1 = dlc.constant dense<[[0.000, 0.119, -0.110, -0.356, -0.182, -0.397, 0.024, 0.536],
 [-0.197, -0.248, 0.196, 0.143, 0.042, -0.372, -0.012, 0.278],
 [-0.538, -0.183, -0.760, -0.516, -0.737, -0.094, -0.507, 0.109],
 [0.063, -0.075, -1.007, -0.215, -0.019, 0.045, -0.612, -0.191],
 [-0.391, -0.324, 0.424, -0.323, -0.013, 0.354, -0.233, -0.045],
 [0.044, 0.026, -0.490, 0.030, 0.544, -0.619, 0.344, 0.048],
 [-0.257, 0.800, 0.305, -0.480, 0.030, 0.231, -0.076, 0.273],
 [-0.027, 0.267, 0.575, -0.270, 0.081, -0.185, 0.051, -0.475]]> : tensor<8x8xf32>
  %b1 = dlc.constant dense<[-0.058, -0.020, 0.090, 0.115, -0.132, -0.079, 0.065, -0.199]> : tensor<8xf32>
  %w2 = dlc.constant dense<[[-0.185, -0.039, 0.503, 0.276, -0.131, -0.147, -0.100, 0.609],
 [-0.171, -0.121, 0.141, -0.048, -0.079, -0.446, -0.005, -0.177],
 [0.466, 0.261, -0.010, 0.267, -0.136, 0.421, -0.002, 0.233],
 [-0.516, 0.139, -0.675, -0.814, -0.122, -0.360, 0.066, 0.898],
 [-0.333, -0.250, 0.082, 0.197, -0.071, -0.082, 0.281, 0.208],
 [-0.413, -0.032, 0.014, -0.422, 0.104, -0.343, 0.389, 0.077],
 [0.036, -0.236, -0.047, -0.799, -0.453, 0.145, -0.851, 0.339],
 [-0.698, 0.303, -0.338, 0.312, 0.052, -0.615, 0.500, 0.577]]> : tensor<8x8xf32>
  %b2 = dlc.constant dense<[-0.007, -0.027, -0.016, -0.098, 0.110, -0.054, -0.005, -0.079]> : tensor<8xf32>
  %g = dlc.constant dense<[0.937, 0.872, 1.126, 0.985, 1.097, 1.001, 0.931, 0.967]> : tensor<8xf32>
  %be = dlc.constant dense<[-0.056, 0.001, -0.038, -0.030, -0.138, -0.081, 0.165, -0.067]> : tensor<8xf32>
  %xt = dlc.transpose %x {perm = array<i64: 1, 0, 2>} : tensor<4x5x8xf32> -> tensor<5x4x8xf32>
  %q = dlc.linear %xt, %w1, %b1 : (tensor<5x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<5x4x8xf32>
  %qh = dlc.reshape %q : tensor<5x4x8xf32> -> tensor<5x8x4xf32>
  %qt = dlc.transpose %qh {perm = array<i64: 1, 0, 2>} : tensor<5x8x4xf32> -> tensor<8x5x4xf32>
  %kt = dlc.transpose %qh {perm = array<i64: 1, 2, 0>} : tensor<5x8x4xf32> -> tensor<8x4x5xf32>
  %s = dlc.matmul %qt, %kt : (tensor<8x5x4xf32>, tensor<8x4x5xf32>) -> tensor<8x5x5xf32>
  %p = dlc.softmax %s {axis = 2 : i64} : tensor<8x5x5xf32>
  %o = dlc.matmul %p, %qt : (tensor<8x5x5xf32>, tensor<8x5x4xf32>) -> tensor<8x5x4xf32>
  %ot = dlc.transpose %o {perm = array<i64: 1, 0, 2>} : tensor<8x5x4xf32> -> tensor<5x8x4xf32>
  %om = dlc.reshape %ot : tensor<5x8x4xf32> -> tensor<20x8xf32>
  %proj = dlc.linear %om, %w2, %b2 : (tensor<20x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<20x8xf32>
  %pr = dlc.reshape %proj : tensor<20x8xf32> -> tensor<5x4x8xf32>
  %res = dlc.add %xt, %pr : tensor<5x4x8xf32>
  %n = dlc.layer_norm %res, %g, %be {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<5x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<5x4x8xf32>
  %y = dlc.transpose %n {perm = array<i64: 1, 0, 2>} : tensor<5x4x8xf32> -> tensor<4x5x8xf32>
  %pooled = dlc.reduce_sum %n {axes = array<i64: 0>} : tensor<5x4x8xf32> -> tensor<4x8xf32>
  return %y, %pooled : tensor<4x5x8xf32>, tensor<4x8xf32>
}
