// A 12x64 by 64x32 f32 matmul on tensors, for dlc-tile-and-vectorize.
func.func @matmul(%a: tensor<12x64xf32>, %b: tensor<64x32xf32>) -> tensor<12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<12x32xf32>) -> tensor<12x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<12x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<12x32xf32>) -> tensor<12x32xf32>
  return %mm : tensor<12x32xf32>
}
