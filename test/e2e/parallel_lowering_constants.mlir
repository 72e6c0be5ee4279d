// Kernels are bufferized in parallel, one per thread; each of these 64 has
// a tensor constant of its own (gather indices), and bufferizing a constant
// once inserted its memref.global into the module from the kernel's thread:
// two at once lost one ("'memref.get_global' op '__constant_8xi64' does not
// reference a valid global memref", 22 of 30 compiles of this file on two
// cores). The globals are now made first, on one thread. Three compiles, so
// that a race back in the lowering fails here with near certainty.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --devices=cpu,cuda:0 --no-cuda -o %t/a.dlcm
// RUN: dlc compile %s --devices=cpu,cuda:0 --no-cuda -o %t/b.dlcm
// RUN: dlc compile %s --devices=cpu,cuda:0 --no-cuda -o %t/c.dlcm
// RUN: dlc inspect %t/c.dlcm | FileCheck %s
// RUN: dlc run %t/a.dlcm --gpu=sim --compare-reference %s | FileCheck %s --check-prefix=REF
// RUN: dlc run %t/c.dlcm --gpu=sim --compare-reference %s | FileCheck %s --check-prefix=REF

// CHECK: 63: 'k63'
// REF: compare-reference: {{[0-9]+}} step outputs compared with the reference, all within

func.func @main(%x: tensor<1x8x4x4xf32> {dlc.name = "x"}) -> (tensor<1x8x4x4xf32> {dlc.name = "y"}) {
  %c0 = dlc.constant dense<[4, 5, 0, 7, 3, 0, 2, 1]> : tensor<8xi64>
  %g0 = dlc.gather %x, %c0 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c1 = dlc.constant dense<[5, 7, 3, 6, 1, 3, 0, 3]> : tensor<8xi64>
  %g1 = dlc.gather %g0, %c1 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c2 = dlc.constant dense<[6, 4, 2, 6, 2, 1, 2, 7]> : tensor<8xi64>
  %g2 = dlc.gather %g1, %c2 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c3 = dlc.constant dense<[2, 2, 0, 0, 3, 3, 2, 2]> : tensor<8xi64>
  %g3 = dlc.gather %g2, %c3 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c4 = dlc.constant dense<[4, 5, 3, 3, 2, 3, 6, 4]> : tensor<8xi64>
  %g4 = dlc.gather %g3, %c4 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c5 = dlc.constant dense<[0, 5, 6, 2, 2, 4, 1, 5]> : tensor<8xi64>
  %g5 = dlc.gather %g4, %c5 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c6 = dlc.constant dense<[4, 0, 5, 1, 4, 5, 4, 7]> : tensor<8xi64>
  %g6 = dlc.gather %g5, %c6 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c7 = dlc.constant dense<[5, 2, 7, 7, 2, 0, 4, 0]> : tensor<8xi64>
  %g7 = dlc.gather %g6, %c7 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c8 = dlc.constant dense<[5, 6, 0, 6, 5, 6, 0, 7]> : tensor<8xi64>
  %g8 = dlc.gather %g7, %c8 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c9 = dlc.constant dense<[0, 2, 3, 1, 3, 7, 5, 5]> : tensor<8xi64>
  %g9 = dlc.gather %g8, %c9 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c10 = dlc.constant dense<[4, 7, 1, 5, 4, 0, 6, 1]> : tensor<8xi64>
  %g10 = dlc.gather %g9, %c10 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c11 = dlc.constant dense<[3, 5, 5, 2, 5, 4, 1, 4]> : tensor<8xi64>
  %g11 = dlc.gather %g10, %c11 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c12 = dlc.constant dense<[5, 4, 2, 1, 2, 4, 7, 2]> : tensor<8xi64>
  %g12 = dlc.gather %g11, %c12 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c13 = dlc.constant dense<[0, 1, 6, 0, 3, 5, 4, 7]> : tensor<8xi64>
  %g13 = dlc.gather %g12, %c13 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c14 = dlc.constant dense<[6, 2, 0, 0, 7, 5, 3, 2]> : tensor<8xi64>
  %g14 = dlc.gather %g13, %c14 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c15 = dlc.constant dense<[2, 6, 1, 2, 6, 5, 2, 0]> : tensor<8xi64>
  %g15 = dlc.gather %g14, %c15 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c16 = dlc.constant dense<[6, 4, 2, 7, 2, 7, 7, 5]> : tensor<8xi64>
  %g16 = dlc.gather %g15, %c16 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c17 = dlc.constant dense<[7, 4, 4, 7, 6, 2, 1, 6]> : tensor<8xi64>
  %g17 = dlc.gather %g16, %c17 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c18 = dlc.constant dense<[2, 7, 5, 2, 1, 7, 4, 5]> : tensor<8xi64>
  %g18 = dlc.gather %g17, %c18 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c19 = dlc.constant dense<[1, 5, 0, 4, 5, 4, 7, 4]> : tensor<8xi64>
  %g19 = dlc.gather %g18, %c19 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c20 = dlc.constant dense<[4, 5, 2, 0, 7, 4, 5, 4]> : tensor<8xi64>
  %g20 = dlc.gather %g19, %c20 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c21 = dlc.constant dense<[7, 4, 5, 5, 4, 5, 6, 5]> : tensor<8xi64>
  %g21 = dlc.gather %g20, %c21 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c22 = dlc.constant dense<[2, 7, 5, 5, 2, 2, 3, 5]> : tensor<8xi64>
  %g22 = dlc.gather %g21, %c22 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c23 = dlc.constant dense<[7, 4, 1, 6, 2, 6, 4, 4]> : tensor<8xi64>
  %g23 = dlc.gather %g22, %c23 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c24 = dlc.constant dense<[0, 3, 2, 7, 2, 3, 2, 0]> : tensor<8xi64>
  %g24 = dlc.gather %g23, %c24 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c25 = dlc.constant dense<[7, 3, 2, 0, 2, 1, 5, 2]> : tensor<8xi64>
  %g25 = dlc.gather %g24, %c25 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c26 = dlc.constant dense<[7, 3, 0, 6, 7, 5, 6, 1]> : tensor<8xi64>
  %g26 = dlc.gather %g25, %c26 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c27 = dlc.constant dense<[3, 3, 5, 0, 5, 6, 4, 6]> : tensor<8xi64>
  %g27 = dlc.gather %g26, %c27 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c28 = dlc.constant dense<[1, 5, 0, 4, 1, 4, 5, 4]> : tensor<8xi64>
  %g28 = dlc.gather %g27, %c28 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c29 = dlc.constant dense<[5, 2, 6, 6, 5, 7, 2, 2]> : tensor<8xi64>
  %g29 = dlc.gather %g28, %c29 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c30 = dlc.constant dense<[6, 7, 3, 2, 1, 5, 0, 6]> : tensor<8xi64>
  %g30 = dlc.gather %g29, %c30 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c31 = dlc.constant dense<[1, 5, 2, 5, 6, 6, 6, 3]> : tensor<8xi64>
  %g31 = dlc.gather %g30, %c31 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c32 = dlc.constant dense<[7, 4, 7, 6, 6, 2, 4, 4]> : tensor<8xi64>
  %g32 = dlc.gather %g31, %c32 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c33 = dlc.constant dense<[7, 4, 6, 0, 5, 4, 7, 4]> : tensor<8xi64>
  %g33 = dlc.gather %g32, %c33 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c34 = dlc.constant dense<[2, 7, 0, 1, 7, 3, 4, 0]> : tensor<8xi64>
  %g34 = dlc.gather %g33, %c34 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c35 = dlc.constant dense<[2, 6, 0, 7, 4, 3, 7, 0]> : tensor<8xi64>
  %g35 = dlc.gather %g34, %c35 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c36 = dlc.constant dense<[3, 7, 4, 2, 4, 4, 7, 7]> : tensor<8xi64>
  %g36 = dlc.gather %g35, %c36 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c37 = dlc.constant dense<[1, 0, 2, 4, 4, 5, 4, 0]> : tensor<8xi64>
  %g37 = dlc.gather %g36, %c37 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c38 = dlc.constant dense<[7, 5, 5, 2, 0, 0, 4, 7]> : tensor<8xi64>
  %g38 = dlc.gather %g37, %c38 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c39 = dlc.constant dense<[1, 3, 0, 6, 6, 7, 6, 7]> : tensor<8xi64>
  %g39 = dlc.gather %g38, %c39 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c40 = dlc.constant dense<[6, 3, 4, 7, 1, 4, 0, 6]> : tensor<8xi64>
  %g40 = dlc.gather %g39, %c40 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c41 = dlc.constant dense<[4, 7, 4, 2, 2, 7, 7, 5]> : tensor<8xi64>
  %g41 = dlc.gather %g40, %c41 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c42 = dlc.constant dense<[2, 6, 0, 1, 3, 4, 1, 1]> : tensor<8xi64>
  %g42 = dlc.gather %g41, %c42 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c43 = dlc.constant dense<[0, 5, 6, 1, 6, 7, 0, 1]> : tensor<8xi64>
  %g43 = dlc.gather %g42, %c43 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c44 = dlc.constant dense<[1, 3, 1, 2, 4, 7, 2, 2]> : tensor<8xi64>
  %g44 = dlc.gather %g43, %c44 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c45 = dlc.constant dense<[2, 6, 2, 1, 3, 0, 1, 6]> : tensor<8xi64>
  %g45 = dlc.gather %g44, %c45 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c46 = dlc.constant dense<[1, 4, 0, 1, 6, 2, 0, 6]> : tensor<8xi64>
  %g46 = dlc.gather %g45, %c46 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c47 = dlc.constant dense<[1, 5, 7, 7, 5, 5, 0, 2]> : tensor<8xi64>
  %g47 = dlc.gather %g46, %c47 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c48 = dlc.constant dense<[4, 2, 4, 3, 4, 1, 3, 4]> : tensor<8xi64>
  %g48 = dlc.gather %g47, %c48 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c49 = dlc.constant dense<[4, 2, 3, 5, 7, 6, 2, 2]> : tensor<8xi64>
  %g49 = dlc.gather %g48, %c49 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c50 = dlc.constant dense<[0, 5, 1, 0, 1, 1, 7, 3]> : tensor<8xi64>
  %g50 = dlc.gather %g49, %c50 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c51 = dlc.constant dense<[6, 7, 7, 5, 1, 0, 6, 0]> : tensor<8xi64>
  %g51 = dlc.gather %g50, %c51 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c52 = dlc.constant dense<[2, 6, 3, 1, 1, 7, 3, 2]> : tensor<8xi64>
  %g52 = dlc.gather %g51, %c52 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c53 = dlc.constant dense<[6, 5, 3, 4, 5, 5, 6, 6]> : tensor<8xi64>
  %g53 = dlc.gather %g52, %c53 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c54 = dlc.constant dense<[2, 5, 4, 6, 5, 0, 3, 2]> : tensor<8xi64>
  %g54 = dlc.gather %g53, %c54 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c55 = dlc.constant dense<[6, 1, 1, 0, 0, 2, 3, 3]> : tensor<8xi64>
  %g55 = dlc.gather %g54, %c55 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c56 = dlc.constant dense<[0, 7, 7, 5, 0, 6, 7, 4]> : tensor<8xi64>
  %g56 = dlc.gather %g55, %c56 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c57 = dlc.constant dense<[6, 5, 7, 7, 1, 3, 2, 2]> : tensor<8xi64>
  %g57 = dlc.gather %g56, %c57 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c58 = dlc.constant dense<[1, 5, 6, 7, 2, 4, 1, 4]> : tensor<8xi64>
  %g58 = dlc.gather %g57, %c58 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c59 = dlc.constant dense<[2, 4, 3, 0, 7, 0, 5, 5]> : tensor<8xi64>
  %g59 = dlc.gather %g58, %c59 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c60 = dlc.constant dense<[5, 0, 0, 7, 7, 2, 1, 5]> : tensor<8xi64>
  %g60 = dlc.gather %g59, %c60 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c61 = dlc.constant dense<[4, 7, 3, 2, 0, 3, 0, 3]> : tensor<8xi64>
  %g61 = dlc.gather %g60, %c61 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c62 = dlc.constant dense<[1, 6, 5, 4, 2, 7, 5, 4]> : tensor<8xi64>
  %g62 = dlc.gather %g61, %c62 {axis = 1 : i64, device = #dlc.device<cpu>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  %c63 = dlc.constant dense<[1, 7, 2, 3, 2, 3, 0, 6]> : tensor<8xi64>
  %g63 = dlc.gather %g62, %c63 {axis = 1 : i64, device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<8xi64>) -> tensor<1x8x4x4xf32>
  return %g63 : tensor<1x8x4x4xf32>
}
