// The matmul register tile follows the target (CpuTiles.h): 8x32 on AVX-512,
// 6x16 on AVX2, whose 16 ymm registers cannot hold 8x32 accumulators. The
// packed weight panels of dlc-linear-to-matmul are one tile wide, so that the
// kernel reads them directly.
// RUN: dlc compile %s --cpu=x86-64-v3 --emit=mlir | FileCheck %s --check-prefix=AVX2
// RUN: dlc compile %s --cpu=znver3 --emit=mlir | FileCheck %s --check-prefix=AVX2
// RUN: dlc compile %s --cpu=x86-64-v4 --emit=mlir | FileCheck %s --check-prefix=AVX512
// RUN: dlc compile %s --cpu=znver4 --emit=mlir | FileCheck %s --check-prefix=AVX512
// The tile as pass options, and the ones the kernels cannot take.
// RUN: dlc-opt %S/Inputs/matmul_12x64x32.mlir --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{tile-rows=6 tile-columns=16}), canonicalize)' | FileCheck %s --check-prefix=TILE
// RUN: not dlc-opt %S/Inputs/matmul_12x64x32.mlir --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{tile-rows=9}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dlc-opt %S/Inputs/matmul_12x64x32.mlir --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{tile-columns=24}))' 2>&1 | FileCheck %s --check-prefix=BAD24
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-linear-to-matmul{panel-columns=8}))' 2>&1 | FileCheck %s --check-prefix=BADPANEL

// The kernel reads B (the weight, transposed to 16x64) packed in panels:
// four of 16 columns for AVX2, two of 32 for AVX-512.
// AVX2: func.func @k0(%{{.*}}: memref<4x16x16xf32>
// AVX2: dlc.transpose %{{.*}} : tensor<4x16x16xf32> -> tensor<16x4x16xf32>
// AVX512: func.func @k0(%{{.*}}: memref<2x16x32xf32>
// AVX512: dlc.transpose %{{.*}} : tensor<2x16x32xf32> -> tensor<16x2x32xf32>

// TILE: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// TILE-NOT: linalg.matmul
// BAD: error: dlc-tile-and-vectorize: unsupported register tile 9x32 (rows 1..8, columns a multiple of 16 up to 32)
// BAD24: error: dlc-tile-and-vectorize: unsupported register tile 8x24 (rows 1..8, columns a multiple of 16 up to 32)
// BADPANEL: error: dlc-linear-to-matmul: panel-columns must be a positive multiple of 16, got 8
func.func @main(%x: tensor<24x16xf32> {dlc.name = "x"}) -> (tensor<24x64xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<64x16xf32>
  %y = dlc.linear %x, %w : (tensor<24x16xf32>, tensor<64x16xf32>) -> tensor<24x64xf32>
  return %y : tensor<24x64xf32>
}
