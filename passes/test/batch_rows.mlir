// RUN: dlc-opt %s -split-input-file -verify-diagnostics -dlc-batch-rows="bound=4" | FileCheck %s

// A conv net: every value after the input carries the batch, one row per unit.
// CHECK-LABEL: func.func @cnn
// CHECK: dlc.conv2d {{.*}}dlc.rows_per_unit = array<i64: 1>
// CHECK: dlc.global_avg_pool {{.*}}dlc.rows_per_unit = array<i64: 1>
// CHECK: dlc.reshape {{.*}}dlc.rows_per_unit = array<i64: 1>
// CHECK: dlc.linear {{.*}}dlc.rows_per_unit = array<i64: 1>
func.func @cnn(%x: tensor<4x3x8x8xf32>) -> tensor<4x10xf32> {
  %w = dlc.constant dense<0.5> : tensor<6x3x3x3xf32>
  %c = dlc.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x8x8xf32>
  %p = dlc.global_avg_pool %c : tensor<4x6x8x8xf32> -> tensor<4x6x1x1xf32>
  %f = dlc.reshape %p : tensor<4x6x1x1xf32> -> tensor<4x6xf32>
  %fw = dlc.constant dense<0.25> : tensor<10x6xf32>
  %fb = dlc.constant dense<0.0> : tensor<10xf32>
  %y = dlc.linear %f, %fw, %fb : (tensor<4x6xf32>, tensor<10x6xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}

// -----

// Tokens flattened: [B, S, H] as [B*S, H] holds S = 3 rows per unit; the
// constant and its negation carry none.
// CHECK-LABEL: func.func @tokens
// CHECK: dlc.neg {{.*}}: tensor<5xf32>
// CHECK-NOT: rows_per_unit
// CHECK: dlc.reshape {{.*}}dlc.rows_per_unit = array<i64: 3>
// CHECK: dlc.add {{.*}}dlc.rows_per_unit = array<i64: 3>
// CHECK: dlc.softmax {{.*}}dlc.rows_per_unit = array<i64: 3>
func.func @tokens(%x: tensor<4x3x5xf32>) -> tensor<12x5xf32> {
  %b = dlc.constant dense<1.0> : tensor<5xf32>
  %nb = dlc.neg %b : tensor<5xf32>
  %r = dlc.reshape %x : tensor<4x3x5xf32> -> tensor<12x5xf32>
  %a = dlc.add %r, %nb : (tensor<12x5xf32>, tensor<5xf32>) -> tensor<12x5xf32>
  %s = dlc.softmax %a {axis = 1 : i64} : tensor<12x5xf32>
  return %s : tensor<12x5xf32>
}

// -----

func.func @mean_over_batch(%x: tensor<4x5xf32>) -> tensor<1x5xf32> {
  // expected-error @+1 {{dlc-batch-rows: op 'reduce_mean_0' (dlc.reduce_mean) mixes the rows of the batch: it reduces over axis 0, the batch}}
  %m = dlc.reduce_mean %x {axes = array<i64: 0>, keepdims = true} : tensor<4x5xf32> -> tensor<1x5xf32>
  return %m : tensor<1x5xf32>
}

// -----

func.func @batch_moved(%x: tensor<4x5xf32>) -> tensor<5x4xf32> {
  // expected-error @+1 {{dlc-batch-rows: op 'transpose_0' (dlc.transpose) mixes the rows of the batch: it moves the batch dimension}}
  %t = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<4x5xf32> -> tensor<5x4xf32>
  return %t : tensor<5x4xf32>
}

// -----

func.func @batch_split_by_reshape(%x: tensor<4x6xf32>) -> tensor<2x12xf32> {
  // expected-error @+1 {{dlc-batch-rows: op 'reshape_0' (dlc.reshape) mixes the rows of the batch: its result's dim 0 (2) is not a multiple of the batch's bound (4)}}
  %r = dlc.reshape %x : tensor<4x6xf32> -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}

// -----

func.func @batch_concatenated(%x: tensor<4x5xf32>) -> tensor<8x5xf32> {
  // expected-error @+1 {{dlc-batch-rows: op 'concat_0' (dlc.concat) mixes the rows of the batch: it concatenates along axis 0, the batch}}
  %c = dlc.concat %x, %x {axis = 0 : i64} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  return %c : tensor<8x5xf32>
}

// -----

// expected-error @+1 {{dlc-batch-rows: input 0 of @not_the_bound has no dim 0 of the batch's bound (4)}}
func.func @not_the_bound(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  return %x : tensor<3x5xf32>
}

// -----

// Into kernels: a kernel's result carries what its yield does.
// CHECK-LABEL: func.func @kernels
// CHECK: dlc.relu {{.*}}dlc.rows_per_unit = array<i64: 1>
// CHECK: dlc.yield
// CHECK-NEXT: } {dlc.rows_per_unit = array<i64: 1>}
// CHECK: dlc.reshape {{.*}}dlc.rows_per_unit = array<i64: 2>
func.func @kernels(%x: tensor<4x6xf32>) -> tensor<8x3xf32> {
  %k = dlc.kernel on cpu -> tensor<4x6xf32> {
    %r = dlc.relu %x : tensor<4x6xf32>
    dlc.yield %r : tensor<4x6xf32>
  }
  %v = dlc.reshape %k : tensor<4x6xf32> -> tensor<8x3xf32>
  return %v : tensor<8x3xf32>
}

// -----

// An embedding: rows of a shared table picked by batched token ids.
// CHECK-LABEL: func.func @embedding
// CHECK: dlc.gather {{.*}}dlc.rows_per_unit = array<i64: 1>
func.func @embedding(%ids: tensor<4x7xi64>) -> tensor<4x7x3xf32> {
  %table = dlc.constant dense<1.0> : tensor<10x3xf32>
  %e = dlc.gather %table, %ids {axis = 0 : i64} : (tensor<10x3xf32>, tensor<4x7xi64>) -> tensor<4x7x3xf32>
  return %e : tensor<4x7x3xf32>
}

// -----

func.func @rows_picked_by_batched_ids(%x: tensor<4x5xf32>, %ids: tensor<4xi64>) -> tensor<4x4xf32> {
  // expected-error @+1 {{dlc-batch-rows: op 'gather_0' (dlc.gather) mixes the rows of the batch: it gathers along the batch dimension}}
  %g = dlc.gather %x, %ids {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

// -----

// A splat constant spanning the batch's rows (a Pad lowered to a concat with
// zeros) is alike in every unit: it carries the batch, the concat keeps units
// apart. A constant that is not a splat stays unbatched, and mixing them is
// refused.
// CHECK-LABEL: func.func @padded_with_splat
// CHECK: dlc.concat {{.*}}dlc.rows_per_unit = array<i64: 1>
func.func @padded_with_splat(%x: tensor<4x5xf32>) -> tensor<4x7xf32> {
  %z = dlc.constant dense<0.0> : tensor<4x2xf32>
  %y = dlc.concat %x, %z {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xf32>) -> tensor<4x7xf32>
  return %y : tensor<4x7xf32>
}

// -----

func.func @padded_with_rows(%x: tensor<4x5xf32>) -> tensor<4x7xf32> {
  %z = dlc.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  // expected-error @+1 {{mixes the rows of the batch: it joins a batched tensor with one that is not}}
  %y = dlc.concat %x, %z {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xf32>) -> tensor<4x7xf32>
  return %y : tensor<4x7xf32>
}

// -----

// A constant whose units are alike (a class token expanded to the batch)
// carries the batch too.
// CHECK-LABEL: func.func @token_per_unit
// CHECK: dlc.concat {{.*}}dlc.rows_per_unit = array<i64: 1>
func.func @token_per_unit(%x: tensor<4x5xf32>) -> tensor<4x7xf32> {
  %z = dlc.constant dense<[[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]> : tensor<4x2xf32>
  %y = dlc.concat %z, %x {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x5xf32>) -> tensor<4x7xf32>
  return %y : tensor<4x7xf32>
}
