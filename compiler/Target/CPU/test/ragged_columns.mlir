// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{tile-rows=6 tile-columns=16 vector-bits=256}), canonicalize)' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{tile-rows=8 tile-columns=32 vector-bits=512}), canonicalize)' | FileCheck %s --check-prefix=AVX512
// RUN: not dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize{vector-bits=384}))' 2>&1 | FileCheck %s --check-prefix=BAD

// The last column of register tiles is N % tile-columns wide. Wider than
// one vector register and not a multiple of it, LLVM built its accumulators
// lane by lane: the matmul is split so that those columns are whole vectors
// and at most one narrower one. With AVX2 (8 floats), 10 columns are 8 + 2,
// each with the bias add on its tile; with AVX-512 (16 floats) 10 columns
// are one register and stay whole.
// CHECK-LABEL: func.func @head_of_ten
// CHECK: vector.contract {{.*}} into vector<6x8xf32>
// CHECK: arith.addf %{{.*}} : vector<6x8xf32>
// CHECK: vector.contract {{.*}} into vector<6x2xf32>
// CHECK: arith.addf %{{.*}} : vector<6x2xf32>
// CHECK-NOT: vector<6x10xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return
// AVX512-LABEL: func.func @head_of_ten
// AVX512: vector.contract {{.*}} into vector<8x10xf32>
// AVX512: vector.contract {{.*}} into vector<4x10xf32>
// AVX512-NOT: vector.contract
// AVX512: return
// BAD: error: dlc-tile-and-vectorize: unsupported vector-bits 384 (128, 256 or 512)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @head_of_ten(%a: tensor<12x64xf32>, %b: tensor<64x10xf32>, %bias: tensor<12x10xf32>) -> tensor<12x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<12x10xf32>) -> tensor<12x10xf32>
  %m = linalg.matmul ins(%a, %b : tensor<12x64xf32>, tensor<64x10xf32>) outs(%c : tensor<12x10xf32>) -> tensor<12x10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<12x10xf32>) outs(%m : tensor<12x10xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<12x10xf32>
  return %r : tensor<12x10xf32>
}

// -----

// 58 columns: three full tiles of 16 and 10 more with AVX2 (48 + 8, then
// 2); with AVX-512 one tile of 32 and 26 more (16, then 10).
// CHECK-LABEL: func.func @fifty_eight
// CHECK: vector.contract {{.*}} into vector<6x16xf32>
// CHECK: vector.contract {{.*}} into vector<6x8xf32>
// CHECK: vector.contract {{.*}} into vector<6x2xf32>
// CHECK-NOT: vector<6x10xf32>
// CHECK: return
// AVX512-LABEL: func.func @fifty_eight
// AVX512: vector.contract {{.*}} into vector<6x32xf32>
// AVX512: vector.contract {{.*}} into vector<6x16xf32>
// AVX512: vector.contract {{.*}} into vector<6x10xf32>
// AVX512-NOT: vector<6x26xf32>
// AVX512: return
func.func @fifty_eight(%a: tensor<6x40xf32>, %b: tensor<40x58xf32>) -> tensor<6x58xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x58xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<6x58xf32>) -> tensor<6x58xf32>
  %m = linalg.matmul ins(%a, %b : tensor<6x40xf32>, tensor<40x58xf32>) outs(%c : tensor<6x58xf32>) -> tensor<6x58xf32>
  return %m : tensor<6x58xf32>
}
