// f32 matmul 512x512 times 512x512: the square case of the matmul benchmark.
func.func @main(%a: tensor<512x512xf32> {dlc.name = "a"}, %b: tensor<512x512xf32> {dlc.name = "b"}) -> (tensor<512x512xf32> {dlc.name = "c"}) {
  %c = dlc.matmul %a, %b : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
