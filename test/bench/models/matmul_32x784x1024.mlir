// f32 matmul 32x784 times 784x1024: the first layer of the example MLP, batch 32.
func.func @main(%a: tensor<32x784xf32> {dlc.name = "a"}, %b: tensor<784x1024xf32> {dlc.name = "b"}) -> (tensor<32x1024xf32> {dlc.name = "c"}) {
  %c = dlc.matmul %a, %b : (tensor<32x784xf32>, tensor<784x1024xf32>) -> tensor<32x1024xf32>
  return %c : tensor<32x1024xf32>
}
