// data-parallel:N refuses ops that mix the batch with other dimensions,
// naming them.
// RUN: dlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=data-parallel:2})'

func.func @reduce_batch(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{--placement=data-parallel:2: op 'reduce_sum_0' (dlc.reduce_sum) cannot be split along the batch: it reduces over axis 0, the batch}}
  %s = dlc.reduce_sum %x {axes = array<i64: 0>} : tensor<4x8xf32> -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

func.func @reduce_all(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error @+1 {{op 'reduce_mean_0' (dlc.reduce_mean) cannot be split along the batch: it reduces over every axis, the batch included}}
  %s = dlc.reduce_mean %x : tensor<4x8xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{op 'transpose_0' (dlc.transpose) cannot be split along the batch: it moves the batch dimension}}
  %t = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

func.func @transpose_square(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{op 'transpose_0' (dlc.transpose) cannot be split along the batch: it moves the batch dimension}}
  %t = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

func.func @reshape(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{op 'reshape_0' (dlc.reshape) cannot be split along the batch: its result's dim 0 is not the batch (4)}}
  %r = dlc.reshape %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{op 'softmax_0' (dlc.softmax) cannot be split along the batch: it normalises over axis 0, the batch}}
  %s = dlc.softmax %x {axis = 0 : i64} : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

func.func @layer_norm(%x: tensor<4x8xf32>, %g: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{op 'layer_norm_0' (dlc.layer_norm) cannot be split along the batch}}
  %n = dlc.layer_norm %x, %g {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

func.func @matmul_contracts(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %w = dlc.constant dense<1.0> : tensor<8x4xf32>
  // expected-error @+1 {{op 'matmul_1' (dlc.matmul) cannot be split along the batch}}
  %m = dlc.matmul %w, %y : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @matmul_rhs(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %w = dlc.constant dense<1.0> : tensor<4x4xf32>
  // expected-error @+1 {{op 'matmul_1' (dlc.matmul) cannot be split along the batch: it contracts the batch dimension}}
  %m = dlc.matmul %w, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

func.func @broadcast_const(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = dlc.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{op 'add_1' (dlc.add) cannot be split along the batch: it broadcasts along the batch dimension}}
  %a = dlc.add %x, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{--placement=data-parallel:2: a batch of 1 cannot be split over 2 GPUs}}
func.func @too_small(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %r = dlc.relu %x : tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// expected-error @+1 {{input 1 of @mismatch has no batch dimension (dim 0) matching the others}}
func.func @mismatch(%x: tensor<4x8xf32>, %y: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %r = dlc.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
