// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-order-sized-loops,convert-linalg-to-loops,dlc-size-loops-at-run-time))' --split-input-file --verify-diagnostics | FileCheck %s

// A kernel sized at run time (compiler/Pipeline/GenerateCode.cpp): the
// symbol's dims at the sentinel 67. The product with V (P [67, 67] x V
// [67, 32]) gets its reduction outside the output's rows, whose static 32
// columns become vector code (loops of one around them); every loop to 67
// then runs to the size the last argument holds; the loops to 32 stay.
// CHECK-LABEL: func.func @p_times_v
// CHECK: %[[N:.*]] = memref.load %arg3[] : memref<i64>
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: scf.for %{{.*}} = %c0 to %[[SIZE]] step %c1
// CHECK: scf.for %{{.*}} = %c0 to %[[SIZE]] step %c1
// CHECK: vector.transfer_read {{.*}} vector<1x1x32xf32>
// CHECK-NOT: to %c67
func.func @p_times_v(%p: memref<67x67xf32, strided<[64, 1]>>, %v: memref<67x32xf32, strided<[32, 1]>>,
                     %out: memref<67x32xf32, strided<[32, 1]>>, %size: memref<i64>)
    attributes {dlc.sized_at_run_time = 67 : i64} {
  linalg.matmul ins(%p, %v : memref<67x67xf32, strided<[64, 1]>>, memref<67x32xf32, strided<[32, 1]>>)
                outs(%out : memref<67x32xf32, strided<[32, 1]>>)
  return
}

// -----

// A row reduction (a softmax's maximum) already reads its rows
// contiguously: its loops keep their order, both run to the size.
// CHECK-LABEL: func.func @row_maximum
// CHECK: %[[SIZE:.*]] = arith.index_cast
// CHECK: scf.for %[[I:.*]] = %c0 to %[[SIZE]] step %c1
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %[[SIZE]] step %c1
// CHECK: memref.load %arg0[%[[I]], %[[J]]]
// Each is marked for LLVM to vectorise but neither unroll nor interleave
// (ConvertScfToCf's annotation): their copies doubled the machine code.
// CHECK: } {dlc.run_time_loop}
// CHECK: } {dlc.run_time_loop}
func.func @row_maximum(%s: memref<67x67xf32, strided<[64, 1]>>, %out: memref<67xf32>, %size: memref<i64>)
    attributes {dlc.sized_at_run_time = 67 : i64} {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%s : memref<67x67xf32, strided<[64, 1]>>) outs(%out : memref<67xf32>) {
  ^bb0(%x: f32, %m: f32):
    %r = arith.maximumf %x, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A loop over the symbol's extent merged with another dim (4 x 67) would
// run over the whole bound: refused.
func.func @merged(%a: memref<268xf32>, %size: memref<i64>)
    attributes {dlc.sized_at_run_time = 67 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c268 = arith.constant 268 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{dlc-size-loops-at-run-time: in @merged, a loop runs to 268, the symbol's extent merged with another dim: a kernel sized at run time must keep it a dim of its own}}
  scf.for %i = %c0 to %c268 step %c1 {
    memref.store %zero, %a[%i] : memref<268xf32>
  }
  return
}

// -----

// expected-error @+1 {{dlc-size-loops-at-run-time: @no_size has no last argument holding the run's size}}
func.func @no_size(%a: memref<67xf32>) attributes {dlc.sized_at_run_time = 67 : i64} {
  return
}
