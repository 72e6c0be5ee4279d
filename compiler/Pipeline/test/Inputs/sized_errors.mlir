// Ops a kernel sized at run time cannot take (passes/SymbolExtents.cpp), one
// function per case; sized_errors.mlir compiles each (dlc compile --entry).
func.func @rows(%x: tensor<4x6xf32>) -> tensor<8x3xf32> attributes {dlc.symbolic_batch = "seq"} {
  %r = dlc.reshape %x : tensor<4x6xf32> -> tensor<8x3xf32>
  %s = dlc.softmax %r {axis = 0 : i64} : tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}
func.func @linear(%x: tensor<4x5xf32>) -> tensor<5x3xf32> attributes {dlc.symbolic_batch = "seq"} {
  %w = dlc.constant dense<0.5> : tensor<3x4xf32>
  %t = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<4x5xf32> -> tensor<5x4xf32>
  %y = dlc.linear %t, %w : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}
func.func @norm(%x: tensor<4x5xf32>) -> tensor<4x5xf32> attributes {dlc.symbolic_batch = "seq"} {
  %g = dlc.constant dense<1.0> : tensor<4x5xf32>
  %b = dlc.constant dense<0.0> : tensor<4x5xf32>
  %y = dlc.layer_norm %x, %g, %b {axis = 0 : i64, epsilon = 1.0e-05 : f64} : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}
func.func @constant_off_bound(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {dlc.symbolic_batch = "seq"} {
  %c = dlc.constant dense<1.0> : tensor<4x6xf32> {dlc.symbol_dims = array<i64: 1>}
  %y = dlc.add %x, %c : tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
func.func @merged(%x: tensor<4x5xf32>) -> tensor<1x16xf32> attributes {dlc.symbolic_batch = "seq"} {
  %t = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<4x5xf32> -> tensor<5x4xf32>
  %s = dlc.matmul %x, %t : (tensor<4x5xf32>, tensor<5x4xf32>) -> tensor<4x4xf32>
  %r = dlc.reshape %s : tensor<4x4xf32> -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
