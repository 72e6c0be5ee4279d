// The CPU target description (CpuTarget.h) and the tiles derived from it
// (CpuTiles.h kernelTilesFor): registers and vector width from LLVM's
// features, FMA latency and rate from its scheduling model.
// RUN: dlc target --cpu=x86-64-v4 | FileCheck %s --check-prefix=V4
// RUN: dlc target --cpu=x86-64-v3 | FileCheck %s --check-prefix=V3
// RUN: dlc target --cpu=znver1 | FileCheck %s --check-prefix=ZEN1
// RUN: dlc target --cpu=x86-64 | FileCheck %s --check-prefix=SSE
// RUN: dlc target | FileCheck %s --check-prefix=NATIVE
// RUN: not dlc target --cpu=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// The pixel-row convolution's tile follows the target: 8 pixels x 32
// filters on AVX-512, 6 x 16 on AVX2 (panels of 16 filters), and a tile
// forced with --kernel-tiles.
// RUN: dlc compile %s --cpu=x86-64-v4 --emit=mlir | FileCheck %s --check-prefix=CONV512
// RUN: dlc compile %s --cpu=x86-64-v3 --emit=mlir | FileCheck %s --check-prefix=CONV256
// RUN: dlc compile %s --cpu=x86-64-v3 --kernel-tiles=4x32 --emit=mlir | FileCheck %s --check-prefix=CONV4x32
// RUN: not dlc compile %s --kernel-tiles=9x16 --emit=mlir 2>&1 | FileCheck %s --check-prefix=BADTILES
// RUN: not dlc compile %s --kernel-tiles=six --emit=mlir 2>&1 | FileCheck %s --check-prefix=BADTILES2
// The passes' own checks of their tile options.
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-pack-conv-weights{panel-filters=24}))' 2>&1 | FileCheck %s --check-prefix=BADPANEL
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=0}))' 2>&1 | FileCheck %s --check-prefix=BADPIXELS

// V4: cpu: x86-64-v4 (x86_64): 32 x 512-bit vector registers, {{.*}}avx512f
// V4-SAME: FMA latency 4, 2/cycle
// V4-SAME: (assumed)
// The peak is lanes x 2 x FMAs per cycle x the clock (assumed for a named CPU).
// V4-SAME: ; 3.00 GHz (assumed), f32 peak 192 GFLOP/s per core
// Blocked matmuls pack an eighth of L2 (1 MiB assumed for a named CPU).
// V4: tiles: matmul 8x32, pixel-row convolution 8x32 (latency-bound below 4 pixels), panel prefetch 8 KiB ahead, window taps shifted in registers on rows up to 64 floats, blocked matmuls pack B 128 KiB at a time
// V4-SAME: strided 1x1 convolutions as im2col from 0 output pixels
// V3: cpu: x86-64-v3 (x86_64): 16 x 256-bit vector registers, {{.*}}avx2 fma
// V3-NOT: avx512f
// V3: tiles: matmul 6x16, pixel-row convolution 6x16 (latency-bound below 5 pixels){{.*}} rows up to 16 floats
// Strided 1x1 convolutions take im2col from 784 output pixels on AVX2, at
// every size on AVX-512 (KernelTiles::stridedIm2colPixels).
// V3-SAME: strided 1x1 convolutions as im2col from 784 output pixels
// ZEN1: FMA latency 5, 1/cycle
// ZEN1: tiles: matmul 5x16, pixel-row convolution 5x16 (latency-bound below 3 pixels)
// SSE: cpu: x86-64 (x86_64): 16 x 128-bit vector registers; FMA timing unknown
// SSE: tiles: matmul 2x16
// NATIVE: cpu: {{.*}}(this machine){{.*}} GHz
// NATIVE: tiles: matmul {{[1-8]}}x{{16|32}}
// BOGUS: error: unknown target CPU 'bogus' (try an LLVM CPU name such as x86-64-v3, znver4 or native)

// The packed weight is [F/P, KH, KW, C, P] (the tile's T: conv_to_matmul.mlir).
// CONV512: func.func @k0(%{{.*}}: memref<2x3x3x16x32xf32>
// CONV256: func.func @k0(%{{.*}}: memref<4x3x3x16x16xf32>
// CONV4x32: func.func @k0(%{{.*}}: memref<2x3x3x16x32xf32>
// BADTILES: error: --kernel-tiles: expected ROWSxCOLUMNS with rows 1..8 and columns a multiple of 16 up to 32, got '9x16'
// BADTILES2: error: --kernel-tiles: expected ROWSxCOLUMNS {{.*}}, got 'six'
// BADPANEL: error: dlc-pack-conv-weights: unsupported panel-filters 24 (a multiple of 16 up to 32)
// BADPIXELS: error: dlc-conv-to-matmul: unsupported tile-pixels 0 (1..8)
func.func @main(%x: tensor<1x16x20x20xf32> {dlc.name = "x"}) -> (tensor<1x64x20x20xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<64x16x3x3xf32>
  %y = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x20x20xf32>, tensor<64x16x3x3xf32>) -> tensor<1x64x20x20xf32>
  return %y : tensor<1x64x20x20xf32>
}
