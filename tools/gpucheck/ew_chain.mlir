// GPU benchmark: a fused elementwise chain over 256 MiB of f32 (64 Mi
// elements): y = relu(x * x + x), one read of x and one write of y per
// element when the chain is one kernel.
func.func @main(%x: tensor<67108864xf32> {dlc.name = "x"}) -> (tensor<67108864xf32> {dlc.name = "y"}) {
  %a = dlc.mul %x, %x : tensor<67108864xf32>
  %b = dlc.add %a, %x : tensor<67108864xf32>
  %y = dlc.relu %b : tensor<67108864xf32>
  return %y : tensor<67108864xf32>
}
