// test/e2e/Inputs/overflow.mlir with its first matmul pinned to fp16.
func.func @main(%x: tensor<4x16xf32> {dlc.name = "x"}) -> (tensor<4x16xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<6.0e+04> : tensor<16x16xf32> loc("big.weight")
  %h = dlc.matmul %x, %w {dlc.precision = "fp16"} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32> loc("/big/MatMul")
  %c = dlc.constant dense<1.0e-04> : tensor<f32> loc("scale")
  %s = dlc.mul %h, %c : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32> loc("/scale/Mul")
  %v = dlc.constant dense<1.25e-01> : tensor<16x16xf32> loc("small.weight")
  %y = dlc.matmul %s, %v : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32> loc("/small/MatMul")
  return %y : tensor<4x16xf32>
}
