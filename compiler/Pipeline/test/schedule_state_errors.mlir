// Persistent state that dlc-schedule refuses: each state argument needs
// exactly one result for its next value, of its type, and a schedule it can
// prove right (schedule_state.mlir has the accepted forms).
// RUN: not dlc-opt %s --split-input-file --dlc-schedule -o /dev/null 2>&1 | FileCheck %s

func.func @main(%a: tensor<4xf32> {dlc.state = "w"}, %b: tensor<4xf32> {dlc.state = "w"})
    -> (tensor<4xf32> {dlc.state = "w"}) {
  return %a : tensor<4xf32>
}
// CHECK: error: two arguments hold state 'w'

// -----

func.func @main(%a: tensor<4xf32> {dlc.state = "w"}) -> tensor<4xf32> {
  %n = dlc.neg %a : tensor<4xf32>
  return %n : tensor<4xf32>
}
// CHECK: error: state 'w' has no result for its next value (a result with dlc.state = "w")

// -----

func.func @main(%a: tensor<4xf32> {dlc.state = "w"}) -> (tensor<4xf32> {dlc.state = "v"}) {
  return %a : tensor<4xf32>
}
// CHECK: error: result 0 is the next value of state 'v', which no argument holds

// -----

func.func @main(%a: tensor<4xf32> {dlc.state = "w"}, %x: tensor<2xf32>) -> (tensor<2xf32> {dlc.state = "w"}) {
  return %x : tensor<2xf32>
}
// CHECK: error: result 0 ('tensor<2xf32>') is the next value of state 'w' ('tensor<4xf32>')

// -----

func.func @main(%a: tensor<4xf32> {dlc.state = "w"}) -> (tensor<4xf32> {dlc.state = "w"}, tensor<4xf32> {dlc.state = "w"}) {
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}
// CHECK: error: two results are the next value of state 'w'

// -----

// The old value as an output would be read after the run updated it.
func.func @main(%a: tensor<4xf32> {dlc.state = "w"}) -> (tensor<4xf32>, tensor<4xf32> {dlc.state = "w"}) {
  %n = dlc.neg %a : tensor<4xf32>
  return %a, %n : tensor<4xf32>, tensor<4xf32>
}
// CHECK: error: an output returns state 'w' as the run starts, which the run then updates; copy it into a value of its own first

// -----

// Swapping two states in place would read one after the other's update.
func.func @main(%a: tensor<4xf32> {dlc.state = "a"}, %b: tensor<4xf32> {dlc.state = "b"})
    -> (tensor<4xf32> {dlc.state = "a"}, tensor<4xf32> {dlc.state = "b"}) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}
// CHECK: error: the next value of state 'a' is another state's value as the run starts; copy it into a value of its own first

// -----

func.func @main(%a: tensor<?xf32> {dlc.state = "w", dlc.max_shape = array<i64: 8>}) -> (tensor<?xf32> {dlc.state = "w"}) {
  return %a : tensor<?xf32>
}
// CHECK: error: state 'w' has a dimension known only at run time (state is static)
