// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-unroll-tile-loops{factor=4}))' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-unroll-tile-loops{factor=1}))' | FileCheck %s --check-prefix=ONE
// RUN: not dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-unroll-tile-loops{factor=0}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: dlc-unroll-tile-loops: unsupported factor 0 (1..16)

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A register tile's K loop over a panel (with its row's prefetch) is marked
// to run 4 steps a turn (ConvertScfToCf makes that LLVM loop metadata;
// convert_scf_to_cf.mlir): its body is left as it is.
// CHECK-LABEL: func.func @tile
// CHECK: scf.for %{{.*}} = %c0 to %c10 step %c1
// CHECK-COUNT-1: vector.contract
// CHECK-NOT: vector.contract
// CHECK: } {dlc.unroll_count = 4 : i64}
// CHECK: return
// ONE-LABEL: func.func @tile
// ONE-NOT: dlc.unroll_count
// ONE: return
func.func @tile(%a: memref<6x10xf32>, %b: memref<10x16xf32>, %init: vector<6x16xf32>) -> vector<6x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c10 step %c1 iter_args(%acc = %init) -> (vector<6x16xf32>) {
    memref.prefetch %b[%k, %c0], read, locality<3>, data : memref<10x16xf32>
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<6x10xf32>, vector<6x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<10x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
    scf.yield %z : vector<6x16xf32>
  }
  return %r : vector<6x16xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// Left alone: a K loop of 7 steps (under 2 x 4), a loop with two contracts
// (SplitAccumulatorChains' partial sums), a loop around another loop (the
// inner one, a K loop, is marked), and a loop without a contract.
// CHECK-LABEL: func.func @unchanged
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: dlc.unroll_count
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c2
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: dlc.unroll_count
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK: } {dlc.unroll_count = 4 : i64}
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: dlc.unroll_count
// CHECK: return
func.func @unchanged(%a: memref<1x16xf32>, %b: memref<16x16xf32>, %init: vector<1x16xf32>, %out: memref<16xf32>) -> (vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %short = scf.for %k = %c0 to %c7 step %c1 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<1x16xf32>, vector<1x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    scf.yield %z : vector<1x16xf32>
  }
  %split = scf.for %k = %c0 to %c16 step %c2 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<1x16xf32>, vector<1x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    %z2 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    scf.yield %z2 : vector<1x16xf32>
  }
  %outer = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %inner = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc2 = %acc) -> (vector<1x16xf32>) {
      %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<1x16xf32>, vector<1x1xf32>
      %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<1x16xf32>
      %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc2 : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
      scf.yield %z : vector<1x16xf32>
    }
    %w = vector.transfer_read %a[%c0, %i], %pad {in_bounds = [true, true]} : memref<1x16xf32>, vector<1x1xf32>
    %u = vector.transfer_read %b[%i, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<1x16xf32>
    %v = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %w, %u, %inner : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    scf.yield %v : vector<1x16xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %s = memref.load %out[%i] : memref<16xf32>
    %t = arith.addf %s, %s : f32
    memref.store %t, %out[%i] : memref<16xf32>
  }
  return %short, %split, %outer : vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>
}
