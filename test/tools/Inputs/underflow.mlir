// The matmul reads values around 1e-9, below fp16's smallest subnormal.
func.func @main(%x: tensor<4x16xf32> {dlc.name = "x"}) -> (tensor<4x16xf32> {dlc.name = "y"}) {
  %c = dlc.constant dense<1.0e-09> : tensor<f32> loc("tiny")
  %t = dlc.mul %x, %c : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32> loc("/shrink/Mul")
  %w = dlc.constant dense<1.0e+06> : tensor<16x16xf32> loc("w")
  %y = dlc.matmul %t, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32> loc("/mm/MatMul")
  return %y : tensor<4x16xf32>
}
