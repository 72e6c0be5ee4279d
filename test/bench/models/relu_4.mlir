// One tiny op: what a dlc_session_run costs beyond its kernel.
func.func @main(%x: tensor<4xf32> {dlc.name = "x"}) -> (tensor<4xf32> {dlc.name = "y"}) {
  %y = dlc.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
