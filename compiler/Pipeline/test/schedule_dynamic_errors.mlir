// A dimension known only at run time needs its bound on the entry argument
// (schedule_dynamic.mlir has the accepted form).
// RUN: not dlc-opt %s --split-input-file --dlc-schedule -o /dev/null 2>&1 | FileCheck %s

func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
// CHECK: error: input 0 ('tensor<?x4xf32>') has a dimension known only at run time and no bound: give it dlc.max_shape, an array of its rank (each static dim as it is)

// -----

func.func @main(%x: tensor<?x4xf32> {dlc.max_shape = array<i64: 64, 8>}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
// CHECK: error: input 0 ('tensor<?x4xf32>') has a dimension known only at run time and no bound
