// GPU benchmark: f16 GEMM 4096x4096x4096 (tensor cores, f32 accumulation).
func.func @main(%a: tensor<4096x4096xf16> {dlc.name = "a"}, %b: tensor<4096x4096xf16> {dlc.name = "b"}) -> (tensor<4096x4096xf16> {dlc.name = "c"}) {
  %c = dlc.matmul %a, %b : (tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %c : tensor<4096x4096xf16>
}
