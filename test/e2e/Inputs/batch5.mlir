// A small batch-5 network for data-parallel:2's uneven split (3 + 2): a
// linear layer, a transpose and reshape that keep the batch in dim 0, a
// reduction over the features, layer norm and softmax over the last axis.
func.func @main(%x: tensor<5x6xf32> {dlc.name = "x"}) -> (tensor<5x4xf32> {dlc.name = "y"}, tensor<5x1xf32> {dlc.name = "s"}) {
  %w = dlc.constant dense<[[0.1, -0.2, 0.3, 0.05, -0.1, 0.2], [0.2, 0.1, -0.3, 0.4, 0.0, -0.1], [-0.05, 0.3, 0.1, -0.2, 0.25, 0.1], [0.3, 0.0, 0.2, 0.1, -0.4, 0.05]]> : tensor<4x6xf32> loc("fc.weight")
  %b = dlc.constant dense<[0.01, -0.02, 0.03, 0.0]> : tensor<4xf32> loc("fc.bias")
  %g = dlc.constant dense<[1.0, 0.5, 2.0, 1.5]> : tensor<4xf32> loc("ln.scale")
  %h = dlc.linear %x, %w, %b : (tensor<5x6xf32>, tensor<4x6xf32>, tensor<4xf32>) -> tensor<5x4xf32> loc("/fc/Gemm")
  %a = dlc.gelu %h : tensor<5x4xf32> loc("/act/Gelu")
  %r = dlc.reshape %a : tensor<5x4xf32> -> tensor<5x2x2xf32> loc("/Reshape")
  %t = dlc.transpose %r {perm = array<i64: 0, 2, 1>} : tensor<5x2x2xf32> -> tensor<5x2x2xf32> loc("/Transpose")
  %f = dlc.reshape %t : tensor<5x2x2xf32> -> tensor<5x4xf32> loc("/Flatten")
  %n = dlc.layer_norm %f, %g {axis = -1 : i64} : (tensor<5x4xf32>, tensor<4xf32>) -> tensor<5x4xf32> loc("/ln/LayerNorm")
  %p = dlc.softmax %n {axis = -1 : i64} : tensor<5x4xf32> loc("/softmax/Softmax")
  %s = dlc.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : tensor<5x6xf32> -> tensor<5x1xf32> loc("/ReduceSum")
  return %p, %s : tensor<5x4xf32>, tensor<5x1xf32>
}
