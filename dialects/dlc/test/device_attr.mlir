// RUN: dlc-opt %s | FileCheck %s
// RUN: dlc-opt %s | dlc-opt | FileCheck %s
// RUN: dlc-opt %s --mlir-print-op-generic | dlc-opt | FileCheck %s

// #dlc.device<...> as an attribute in its own right: outside dlc ops, in
// arrays and dictionaries, with the spellings the parser accepts.

// Anywhere an attribute goes: on a module, a function, an argument.
// CHECK: module attributes {dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>, #dlc.device<cuda:1>]}
module attributes {dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>, #dlc.device<cuda:1>]} {

// Whitespace inside the brackets is not significant; the printer normalises.
// CHECK-LABEL: func.func @spellings
// CHECK-SAME: {dlc.where = {a = #dlc.device<cpu>, b = #dlc.device<cuda:2>}}
// CHECK-SAME: attributes {dlc.home = #dlc.device<cuda:3>}
func.func @spellings(%x: tensor<4xf32> {dlc.where = {a = #dlc.device< cpu >, b = #dlc.device<cuda : 2>}}) -> tensor<4xf32>
    attributes {dlc.home = #dlc.device<cuda:3>} {
  // CHECK: dlc.relu %{{.*}} {device = #dlc.device<cuda:4>} : tensor<4xf32>
  %0 = dlc.relu %x {device = #dlc.device< cuda:4 >} : tensor<4xf32>
  // A large index survives the round trip.
  // CHECK: dlc.relu %{{.*}} {device = #dlc.device<cuda:1024>} : tensor<4xf32>
  %1 = dlc.relu %0 {device = #dlc.device<cuda:1024>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// The `dlc.copy` destination and the attribute are one and the same: the
// generic form shows it as the op's `device` attribute.
// CHECK-LABEL: func.func @copy_destination
// CHECK: %[[A:.*]] = dlc.copy %{{.*}} to cuda:0 : tensor<4xf32>
// CHECK: %[[B:.*]] = dlc.copy %[[A]] to cpu : tensor<4xf32>
// CHECK: %[[C:.*]] = dlc.copy %[[B]] to cuda:12 : tensor<4xf32>
func.func @copy_destination(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dlc.copy"(%x) <{device = #dlc.device<cuda:0>}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = dlc.copy %0 to cpu : tensor<4xf32>
  %2 = dlc.copy %1 to cuda:12 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

}
