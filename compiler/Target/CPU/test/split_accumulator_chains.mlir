// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-split-accumulator-chains{vector-bits=256 in-flight=8}), canonicalize)' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-split-accumulator-chains{vector-bits=512 in-flight=4}), canonicalize)' | FileCheck %s --check-prefix=AVX512

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A 1x16 tile (a batch-1 classifier's): two AVX2 registers of accumulators
// where the core keeps 8 FMAs in flight, so four partial sums over 8 of the
// 10 steps, added pairwise, then the last 2 steps in the original loop. With
// AVX-512 (one register, 4 in flight) also four.
// CHECK-LABEL: func.func @thin
// CHECK: %[[MAIN:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c8 step %c4 iter_args
// CHECK-COUNT-4: vector.contract
// CHECK: scf.yield
// CHECK: %[[S01:.*]] = arith.addf %[[MAIN]]#0, %[[MAIN]]#1 : vector<1x16xf32>
// CHECK: %[[S23:.*]] = arith.addf %[[MAIN]]#2, %[[MAIN]]#3 : vector<1x16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[S01]], %[[S23]] : vector<1x16xf32>
// CHECK: scf.for %{{.*}} = %c8 to %c10 step %c1 iter_args(%{{.*}} = %[[SUM]])
// CHECK-COUNT-1: vector.contract
// AVX512-LABEL: func.func @thin
// AVX512: scf.for %{{.*}} = %c0 to %c8 step %c4 iter_args
func.func @thin(%a: tensor<1x10xf32>, %b: tensor<10x16xf32>, %init: vector<1x16xf32>) -> vector<1x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c10 step %c1 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : tensor<1x10xf32>, vector<1x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : tensor<10x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    scf.yield %z : vector<1x16xf32>
  }
  return %r : vector<1x16xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A full 6x16 tile: 12 AVX2 registers of accumulators, enough; untouched.
// A 2x16 tile: 4 registers, two partial sums (AVX-512: 2 registers, two).
// CHECK-LABEL: func.func @full_and_ragged
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (vector<6x16xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c2 iter_args(%{{.*}}, %{{.*}}) -> (vector<2x16xf32>, vector<2x16xf32>)
// CHECK-NOT: scf.for
// CHECK: return
// AVX512-LABEL: func.func @full_and_ragged
// AVX512: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (vector<6x16xf32>)
// AVX512: scf.for %{{.*}} = %c0 to %c64 step %c2 iter_args(%{{.*}}, %{{.*}}) -> (vector<2x16xf32>, vector<2x16xf32>)
func.func @full_and_ragged(%a: tensor<8x64xf32>, %b: tensor<64x16xf32>, %i6: vector<6x16xf32>, %i2: vector<2x16xf32>) -> (vector<6x16xf32>, vector<2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %full = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %i6) -> (vector<6x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : tensor<8x64xf32>, vector<6x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : tensor<64x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
    scf.yield %z : vector<6x16xf32>
  }
  %ragged = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %i2) -> (vector<2x16xf32>) {
    %x = vector.transfer_read %a[%c6, %k], %pad {in_bounds = [true, true]} : tensor<8x64xf32>, vector<2x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : tensor<64x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<2x1xf32>, vector<1x16xf32> into vector<2x16xf32>
    scf.yield %z : vector<2x16xf32>
  }
  return %full, %ragged : vector<6x16xf32>, vector<2x16xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// Not split: a body that writes memory, and a carried value that is not
// only a contraction's accumulator.
// CHECK-LABEL: func.func @not_chains
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK: memref.store
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK-NOT: step %c4
func.func @not_chains(%a: tensor<1x64xf32>, %b: tensor<64x16xf32>, %init: vector<1x16xf32>, %log: memref<64xf32>) -> (vector<1x16xf32>, vector<1x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : tensor<1x64xf32>, vector<1x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : tensor<64x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    memref.store %pad, %log[%k] : memref<64xf32>
    scf.yield %z : vector<1x16xf32>
  }
  %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<1x16xf32>) {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : tensor<1x64xf32>, vector<1x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : tensor<64x16xf32>, vector<1x16xf32>
    %z = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
    %w = arith.addf %z, %acc : vector<1x16xf32>
    scf.yield %w : vector<1x16xf32>
  }
  return %r, %s : vector<1x16xf32>, vector<1x16xf32>
}
