// A mean over the batch: its units are not independent (symbolic_batch.mlir).
func.func @main(%x: tensor<4x5xf32>) -> tensor<1x5xf32> attributes {dlc.symbolic_batch = "batch"} {
  %m = dlc.reduce_mean %x {axes = array<i64: 0>, keepdims = true} : tensor<4x5xf32> -> tensor<1x5xf32>
  return %m : tensor<1x5xf32>
}
