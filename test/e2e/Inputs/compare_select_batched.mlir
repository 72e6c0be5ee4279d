// A batched compare/select graph for --placement=data-parallel (ops_compare_select.mlir).
func.func @main(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xi1>) {
  %r = dlc.relu %a : tensor<8x16xf32>
  %k = dlc.constant dense<0.25> : tensor<16xf32>
  %c = dlc.compare "gt", %r, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  %y = dlc.select %c, %r, %k : tensor<8x16xi1>, tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>
  return %y, %c : tensor<8x16xf32>, tensor<8x16xi1>
}
