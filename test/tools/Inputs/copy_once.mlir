// softmax's value is read on cuda:1 in f16 (the matmul) and in f32 (exp):
// one f32 copy, cast to f16 on arrival.
func.func @main(%x: tensor<64x64xf32> {dlc.name = "x"}, %w: tensor<64x64xf32> {dlc.name = "w"}) -> (tensor<64x64xf32> {dlc.name = "y"}) {
  %s = dlc.softmax %x {axis = -1 : i64, device = #dlc.device<cuda:0>} : tensor<64x64xf32> loc("s")
  %m = dlc.matmul %s, %w {device = #dlc.device<cuda:1>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("m")
  %e = dlc.exp %s {device = #dlc.device<cuda:1>} : tensor<64x64xf32> loc("e")
  %y = dlc.add %m, %e {device = #dlc.device<cuda:1>} : tensor<64x64xf32> loc("y")
  return %y : tensor<64x64xf32>
}
