// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=mixed}))' -o /dev/null
// RUN: not dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-mixed-precision{precision=bf8}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: --precision expects fp32, mixed or fp16, got 'bf8'

func.func @bad_pin(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{op 'tanh_0': dlc.precision must be "fp16" or "fp32", got "half"}}
  %y = dlc.tanh %x {device = #dlc.device<cuda:0>, dlc.precision = "half"} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @pin_not_a_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{op 'tanh_0': dlc.precision must be "fp16" or "fp32", got 16 : i64}}
  %y = dlc.tanh %x {dlc.precision = 16} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @pin_integer_op(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @below {{op 'add_0' (dlc.add) is pinned to fp16 but has no f32 values to compute in fp16}}
  %y = dlc.add %x, %x {device = #dlc.device<cuda:0>, dlc.precision = "fp16"} : tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

func.func @missing_blob(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @below {{cannot read the data of constant 'constant_0' to convert it to fp16}}
  %w = dlc.constant dense_resource<nowhere> : tensor<2x2xf32> {device = #dlc.device<cuda:0>}
  %m = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
