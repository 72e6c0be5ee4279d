// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-reuse-producer-buffer))' --split-input-file | FileCheck %s

// The bias add writes over the matmul's result instead of a new tensor.
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<16xf32>) outs(%[[MM]] : tensor<8x16xf32>)
// CHECK-NEXT: ^bb0(%[[BIAS:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[BIAS]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @epilogue(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%c: f32, %bb: f32, %out: f32):
    %s = arith.addf %c, %bb : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A result with another use must stay intact: nothing changes.
// CHECK-LABEL: func.func @shared
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d1)>
func.func @shared(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%c: f32, %bb: f32, %out: f32):
    %s = arith.addf %c, %bb : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %y, %mm : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A batched matmul's epilogue (attention's scaling and mask) moves into the
// batch loops, in place over each matrix's matmul: the mask [9, 20] is read
// whole, a per-(batch, head) operand at the loops' position, the scalar as is.
// CHECK-LABEL: func.func @batched_epilogue
// CHECK-SAME: (%{{.*}}: tensor<2x3x9x16xf32>, %{{.*}}: tensor<2x3x16x20xf32>, %[[MASK:.*]]: tensor<9x20xf32>, %[[PER:.*]]: tensor<2x3x9x20xf32>)
// CHECK: %[[R:.*]] = scf.for %[[I:[a-z0-9]+]] =
// CHECK: scf.for %[[J:[a-z0-9]+]] =
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[P:.*]] = tensor.extract_slice %[[PER]][%[[I]], %[[J]], 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<2x3x9x20xf32> to tensor<9x20xf32>
// CHECK: %[[E:.*]] = linalg.generic {indexing_maps = [#[[ID2:[a-z0-9]+]], #[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[MASK]], %[[P]] : tensor<9x20xf32>, tensor<9x20xf32>) outs(%[[MM]] : tensor<9x20xf32>)
// CHECK-NEXT: ^bb0(%[[M:.*]]: f32, %[[Q:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: arith.mulf %[[C]], %{{.*}} : f32
// CHECK: tensor.insert_slice %[[E]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#b4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mat = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
func.func @batched_epilogue(%q: tensor<2x3x9x16xf32>, %k: tensor<2x3x16x20xf32>, %mask: tensor<9x20xf32>, %per: tensor<2x3x9x20xf32>) -> tensor<2x3x9x20xf32> {
  %cst = arith.constant 2.500000e-01 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %0 = tensor.empty() : tensor<2x3x9x20xf32>
  %1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a0 = %0) -> (tensor<2x3x9x20xf32>) {
    %2 = scf.for %j = %c0 to %c3 step %c1 iter_args(%a1 = %a0) -> (tensor<2x3x9x20xf32>) {
      %t = tensor.extract_slice %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<2x3x9x20xf32> to tensor<9x20xf32>
      %f = linalg.fill ins(%zero : f32) outs(%t : tensor<9x20xf32>) -> tensor<9x20xf32>
      %lm = tensor.extract_slice %q[%i, %j, 0, 0] [1, 1, 9, 16] [1, 1, 1, 1] : tensor<2x3x9x16xf32> to tensor<9x16xf32>
      %rm = tensor.extract_slice %k[%i, %j, 0, 0] [1, 1, 16, 20] [1, 1, 1, 1] : tensor<2x3x16x20xf32> to tensor<16x20xf32>
      %mm = linalg.matmul ins(%lm, %rm : tensor<9x16xf32>, tensor<16x20xf32>) outs(%f : tensor<9x20xf32>) -> tensor<9x20xf32>
      %ins = tensor.insert_slice %mm into %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<9x20xf32> into tensor<2x3x9x20xf32>
      scf.yield %ins : tensor<2x3x9x20xf32>
    }
    scf.yield %2 : tensor<2x3x9x20xf32>
  }
  %e = tensor.empty() : tensor<2x3x9x20xf32>
  %y = linalg.generic {indexing_maps = [#b4, #mat, #b4, #b4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%1, %mask, %per : tensor<2x3x9x20xf32>, tensor<9x20xf32>, tensor<2x3x9x20xf32>) outs(%e : tensor<2x3x9x20xf32>) {
  ^bb0(%s: f32, %m: f32, %p: f32, %out: f32):
    %3 = arith.mulf %s, %cst : f32
    %4 = arith.addf %3, %m : f32
    %5 = arith.mulf %4, %p : f32
    linalg.yield %5 : f32
  } -> tensor<2x3x9x20xf32>
  return %y : tensor<2x3x9x20xf32>
}

// -----

// An operand made after the loops stays after them, with its epilogue.
// CHECK-LABEL: func.func @batched_epilogue_late_operand
// CHECK: scf.for
// CHECK-NOT: linalg.generic
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: %[[LATE:.*]] = linalg.fill
// CHECK: linalg.generic {{.*}} outs(%[[LATE]]
#b4s = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @batched_epilogue_late_operand(%q: tensor<2x3x9x16xf32>, %k: tensor<2x3x16x20xf32>) -> tensor<2x3x9x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %0 = tensor.empty() : tensor<2x3x9x20xf32>
  %1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a0 = %0) -> (tensor<2x3x9x20xf32>) {
    %2 = scf.for %j = %c0 to %c3 step %c1 iter_args(%a1 = %a0) -> (tensor<2x3x9x20xf32>) {
      %t = tensor.extract_slice %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<2x3x9x20xf32> to tensor<9x20xf32>
      %f = linalg.fill ins(%zero : f32) outs(%t : tensor<9x20xf32>) -> tensor<9x20xf32>
      %lm = tensor.extract_slice %q[%i, %j, 0, 0] [1, 1, 9, 16] [1, 1, 1, 1] : tensor<2x3x9x16xf32> to tensor<9x16xf32>
      %rm = tensor.extract_slice %k[%i, %j, 0, 0] [1, 1, 16, 20] [1, 1, 1, 1] : tensor<2x3x16x20xf32> to tensor<16x20xf32>
      %mm = linalg.matmul ins(%lm, %rm : tensor<9x16xf32>, tensor<16x20xf32>) outs(%f : tensor<9x20xf32>) -> tensor<9x20xf32>
      %ins = tensor.insert_slice %mm into %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<9x20xf32> into tensor<2x3x9x20xf32>
      scf.yield %ins : tensor<2x3x9x20xf32>
    }
    scf.yield %2 : tensor<2x3x9x20xf32>
  }
  %late = linalg.fill ins(%zero : f32) outs(%0 : tensor<2x3x9x20xf32>) -> tensor<2x3x9x20xf32>
  %e = tensor.empty() : tensor<2x3x9x20xf32>
  %y = linalg.generic {indexing_maps = [#b4s, #b4s, #b4s], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%1, %late : tensor<2x3x9x20xf32>, tensor<2x3x9x20xf32>) outs(%e : tensor<2x3x9x20xf32>) {
  ^bb0(%s: f32, %l: f32, %out: f32):
    %3 = arith.addf %s, %l : f32
    linalg.yield %3 : f32
  } -> tensor<2x3x9x20xf32>
  return %y : tensor<2x3x9x20xf32>
}

// -----

// An epilogue that reads its indices (whose batch dims would be renumbered)
// stays after the loops.
// CHECK-LABEL: func.func @batched_epilogue_reads_indices
// CHECK: scf.for
// CHECK-NOT: linalg.generic
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: linalg.generic
// CHECK: linalg.index 0
#b4i = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @batched_epilogue_reads_indices(%q: tensor<2x3x9x16xf32>, %k: tensor<2x3x16x20xf32>) -> tensor<2x3x9x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %0 = tensor.empty() : tensor<2x3x9x20xf32>
  %1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a0 = %0) -> (tensor<2x3x9x20xf32>) {
    %2 = scf.for %j = %c0 to %c3 step %c1 iter_args(%a1 = %a0) -> (tensor<2x3x9x20xf32>) {
      %t = tensor.extract_slice %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<2x3x9x20xf32> to tensor<9x20xf32>
      %f = linalg.fill ins(%zero : f32) outs(%t : tensor<9x20xf32>) -> tensor<9x20xf32>
      %lm = tensor.extract_slice %q[%i, %j, 0, 0] [1, 1, 9, 16] [1, 1, 1, 1] : tensor<2x3x9x16xf32> to tensor<9x16xf32>
      %rm = tensor.extract_slice %k[%i, %j, 0, 0] [1, 1, 16, 20] [1, 1, 1, 1] : tensor<2x3x16x20xf32> to tensor<16x20xf32>
      %mm = linalg.matmul ins(%lm, %rm : tensor<9x16xf32>, tensor<16x20xf32>) outs(%f : tensor<9x20xf32>) -> tensor<9x20xf32>
      %ins = tensor.insert_slice %mm into %a1[%i, %j, 0, 0] [1, 1, 9, 20] [1, 1, 1, 1] : tensor<9x20xf32> into tensor<2x3x9x20xf32>
      scf.yield %ins : tensor<2x3x9x20xf32>
    }
    scf.yield %2 : tensor<2x3x9x20xf32>
  }
  %e = tensor.empty() : tensor<2x3x9x20xf32>
  %z = linalg.generic {indexing_maps = [#b4i, #b4i], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%1 : tensor<2x3x9x20xf32>) outs(%e : tensor<2x3x9x20xf32>) {
  ^bb0(%s: f32, %out: f32):
    %i0 = linalg.index 0 : index
    %i1 = arith.index_cast %i0 : index to i64
    %fl = arith.sitofp %i1 : i64 to f32
    %3 = arith.addf %s, %fl : f32
    linalg.yield %3 : f32
  } -> tensor<2x3x9x20xf32>
  return %z : tensor<2x3x9x20xf32>
}

// -----

// A transpose keeping the last dim of a batched matmul's result (attention's
// heads merged back after P.V) becomes the loop nest: each matrix is read
// from and inserted into its place in the transposed result, which the loops
// carry; no transpose is left.
// CHECK-LABEL: func.func @transposed_batch_result
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8x4x16xf32>
// CHECK: %[[R:.*]] = scf.for %[[I:[a-z0-9]+]] = {{.*}} iter_args(%[[A0:.*]] = %[[E]]) -> (tensor<2x8x4x16xf32>)
// CHECK: scf.for %[[J:[a-z0-9]+]] = {{.*}} iter_args(%[[A1:.*]] = %[[A0]]) -> (tensor<2x8x4x16xf32>)
// CHECK: %[[T:.*]] = tensor.extract_slice %[[A1]][%[[I]], 0, %[[J]], 0] [1, 8, 1, 16] [1, 1, 1, 1] : tensor<2x8x4x16xf32> to tensor<8x16xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} outs(%[[T]] : tensor<8x16xf32>)
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} outs(%[[F]] : tensor<8x16xf32>)
// CHECK: tensor.insert_slice %[[MM]] into %[[A1]][%[[I]], 0, %[[J]], 0] [1, 8, 1, 16] [1, 1, 1, 1] : tensor<8x16xf32> into tensor<2x8x4x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[R]]
func.func @transposed_batch_result(%p: tensor<2x4x8x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %0 = tensor.empty() : tensor<2x4x8x16xf32>
  %1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a0 = %0) -> (tensor<2x4x8x16xf32>) {
    %2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%a1 = %a0) -> (tensor<2x4x8x16xf32>) {
      %t = tensor.extract_slice %a1[%i, %j, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<2x4x8x16xf32> to tensor<8x16xf32>
      %f = linalg.fill ins(%zero : f32) outs(%t : tensor<8x16xf32>) -> tensor<8x16xf32>
      %lm = tensor.extract_slice %p[%i, %j, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<2x4x8x8xf32> to tensor<8x8xf32>
      %rm = tensor.extract_slice %v[%i, %j, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<2x4x8x16xf32> to tensor<8x16xf32>
      %mm = linalg.matmul ins(%lm, %rm : tensor<8x8xf32>, tensor<8x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
      %ins = tensor.insert_slice %mm into %a1[%i, %j, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<8x16xf32> into tensor<2x4x8x16xf32>
      scf.yield %ins : tensor<2x4x8x16xf32>
    }
    scf.yield %2 : tensor<2x4x8x16xf32>
  }
  %e = tensor.empty() : tensor<2x8x4x16xf32>
  %tr = linalg.transpose ins(%1 : tensor<2x4x8x16xf32>) outs(%e : tensor<2x8x4x16xf32>) permutation = [0, 2, 1, 3]
  return %tr : tensor<2x8x4x16xf32>
}
