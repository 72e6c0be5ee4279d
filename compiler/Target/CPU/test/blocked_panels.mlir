// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{block-bytes=8192}), loop-invariant-subset-hoisting, canonicalize)' | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{block-bytes=65536}), canonicalize)' | FileCheck %s --check-prefix=LONG

// A short K (32) and 68 rows (8 rows of 8x32 tiles and 4 more): C in blocks
// of 8192 / (32 x 4) = 64 columns, split over the threads; each block's B
// copied row by row into two 32 x 32 panels, then computed row of tiles by
// row of tiles (8 rows, then the last 4), panel by panel, with the epilogue
// (bias by row, ReLU) on each register tile. The 8 columns past the two
// blocks are tiled as any matmul.
// CHECK-LABEL: func.func @blocked
// CHECK: scf.for %[[JB:.*]] = %{{.*}} to %c128 step %c64 iter_args(%{{.*}}) -> (tensor<68x136xf32>)
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c2 step %c1 iter_args(%{{.*}}) -> (tensor<2x32x32xf32>)
// CHECK:     scf.for %{{.*}} iter_args(%{{.*}}) -> (tensor<32x32xf32>)
// CHECK:       vector.transfer_write %{{.*}} : vector<32xf32>, tensor<32x32xf32>
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c64 step %c8 iter_args(%{{.*}}) -> (tensor<68x136xf32>)
// CHECK:     scf.for %{{.*}} = %{{.*}} to %c2 step %c1 iter_args(%{{.*}}) -> (tensor<68x136xf32>)
// CHECK:       scf.for %{{.*}} iter_args(%[[C8:.*]] = %{{.*}}) -> (vector<8x32xf32>)
// CHECK:         vector.contract {{.*}} %[[C8]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:       arith.maximumf %{{.*}} : vector<8x32xf32>
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c2 step %c1 iter_args(%{{.*}}) -> (tensor<68x136xf32>)
// CHECK:     scf.for %{{.*}} iter_args(%[[C4:.*]] = %{{.*}}) -> (vector<4x32xf32>)
// CHECK:       vector.contract {{.*}} %[[C4]] : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK:     arith.maximumf %{{.*}} : vector<4x32xf32>
// CHECK: } {dlc.parallel}
// CHECK: vector.contract {{.*}} into vector<8x8xf32>
// CHECK: vector.contract {{.*}} into vector<4x8xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @blocked(%a: tensor<68x32xf32>, %b: tensor<32x136xf32>, %bias: tensor<68xf32>) -> tensor<68x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<68x136xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<68x136xf32>) -> tensor<68x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<68x32xf32>, tensor<32x136xf32>) outs(%acc : tensor<68x136xf32>) -> tensor<68x136xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<68xf32>) outs(%mm : tensor<68x136xf32>) {
  ^bb0(%bv: f32, %c: f32):
    %s = arith.addf %c, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<68x136xf32>
  return %r : tensor<68x136xf32>
}

// K = 256 (over 128: the work outweighs C's writes; blocks of 64 columns
// with 64 KiB) or, with K over 32, fewer than 8 rows of tiles: no blocks, no
// packed panels; the columns of tiles are split.
// LONG-LABEL: func.func @long_k
// LONG-NOT: tensor<{{[0-9]+}}x256x32xf32>
// LONG: } {dlc.parallel}
// LONG: return
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: tensor<{{[0-9]+}}x48x32xf32>
// CHECK: } {dlc.parallel}
// CHECK: return
func.func @long_k(%a: tensor<68x256xf32>, %b: tensor<256x136xf32>) -> tensor<68x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<68x136xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<68x136xf32>) -> tensor<68x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<68x256xf32>, tensor<256x136xf32>) outs(%acc : tensor<68x136xf32>) -> tensor<68x136xf32>
  return %mm : tensor<68x136xf32>
}

func.func @few_rows(%a: tensor<56x48xf32>, %b: tensor<48x136xf32>) -> tensor<56x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<56x136xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<56x136xf32>) -> tensor<56x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<56x48xf32>, tensor<48x136xf32>) outs(%acc : tensor<56x136xf32>) -> tensor<56x136xf32>
  return %mm : tensor<56x136xf32>
}

// K of at most 32: two rows of tiles are enough for blocks (MobileNetV2's
// 32 -> 16 channel 1x1 convolution at 112x112), fewer are not.
// CHECK-LABEL: func.func @short_k
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128 step %c64 iter_args(%{{.*}}) -> (tensor<20x136xf32>)
// CHECK: tensor<2x32x32xf32>
// CHECK-LABEL: func.func @short_k_one_row
// CHECK-NOT: tensor<{{[0-9]+}}x32x32xf32>
// CHECK: return
func.func @short_k(%a: tensor<20x32xf32>, %b: tensor<32x136xf32>) -> tensor<20x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x136xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x136xf32>) -> tensor<20x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<20x32xf32>, tensor<32x136xf32>) outs(%acc : tensor<20x136xf32>) -> tensor<20x136xf32>
  return %mm : tensor<20x136xf32>
}

func.func @short_k_one_row(%a: tensor<12x32xf32>, %b: tensor<32x136xf32>) -> tensor<12x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x136xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<12x136xf32>) -> tensor<12x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<12x32xf32>, tensor<32x136xf32>) outs(%acc : tensor<12x136xf32>) -> tensor<12x136xf32>
  return %mm : tensor<12x136xf32>
}
