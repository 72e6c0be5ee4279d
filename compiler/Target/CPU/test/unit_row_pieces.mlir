// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-vectorize-rows{vector-bits=256}))' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-vectorize-rows{vector-bits=512}))' | FileCheck %s --check-prefix=AVX512

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#chan = affine_map<(d0, d1, d2) -> (d1)>

// Nine taps of 56-float rows, a depthwise window read from a padded copy,
// with its weights and a ReLU6: as whole rows they would take 70 AVX2
// registers, so each row goes in pieces of one register (8 floats), the
// weights broadcast to one register each. With AVX-512 (16 floats) 56 is
// not a whole number of registers: the whole row in whole registers (64
// floats, masked at the end), below.
// CHECK-LABEL: func.func @nine_taps
// CHECK: scf.for %{{.*}} = %{{.*}} to %c56 step %c8
// CHECK-COUNT-9: vector.transfer_read {{.*}} : tensor<1x1x8xf32>, vector<1x1x8xf32>
// CHECK: arith.minimumf {{.*}} : vector<1x1x8xf32>
// CHECK-NOT: vector<1x1x56xf32>
// AVX512-LABEL: func.func @nine_taps
// AVX512-NOT: step %c8
// AVX512: arith.minimumf {{.*}} : vector<64xf32>
func.func @nine_taps(%t0: tensor<1x4x56xf32>, %t1: tensor<1x4x56xf32>, %t2: tensor<1x4x56xf32>,
                     %t3: tensor<1x4x56xf32>, %t4: tensor<1x4x56xf32>, %t5: tensor<1x4x56xf32>,
                     %t6: tensor<1x4x56xf32>, %t7: tensor<1x4x56xf32>, %t8: tensor<1x4x56xf32>,
                     %w: tensor<4xf32>) -> tensor<1x4x56xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x4x56xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #chan, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8, %w : tensor<1x4x56xf32>, tensor<1x4x56xf32>,
          tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>,
          tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<4xf32>)
      outs(%e : tensor<1x4x56xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %k: f32, %o: f32):
    %s0 = arith.addf %a0, %a1 : f32
    %s1 = arith.addf %a2, %a3 : f32
    %s2 = arith.addf %a4, %a5 : f32
    %s3 = arith.addf %a6, %a7 : f32
    %s4 = arith.addf %s0, %s1 : f32
    %s5 = arith.addf %s2, %s3 : f32
    %s6 = arith.addf %s4, %s5 : f32
    %s7 = math.fma %a8, %k, %s6 : f32
    %lo = arith.maximumf %s7, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x4x56xf32>
  return %0 : tensor<1x4x56xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// The same taps with an exponential (SiLU's sigmoid, expanded later) keep
// whole rows: in pieces, its latency chain ran one register at a time.
// CHECK-LABEL: func.func @nine_taps_exp
// CHECK-NOT: step %c8
// CHECK: math.exp {{.*}} : vector<1x1x56xf32>
func.func @nine_taps_exp(%t0: tensor<1x4x56xf32>, %t1: tensor<1x4x56xf32>, %t2: tensor<1x4x56xf32>,
                         %t3: tensor<1x4x56xf32>, %t4: tensor<1x4x56xf32>, %t5: tensor<1x4x56xf32>,
                         %t6: tensor<1x4x56xf32>, %t7: tensor<1x4x56xf32>, %t8: tensor<1x4x56xf32>) -> tensor<1x4x56xf32> {
  %e = tensor.empty() : tensor<1x4x56xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8 : tensor<1x4x56xf32>, tensor<1x4x56xf32>,
          tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>,
          tensor<1x4x56xf32>, tensor<1x4x56xf32>, tensor<1x4x56xf32>)
      outs(%e : tensor<1x4x56xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %o: f32):
    %s0 = arith.addf %a0, %a1 : f32
    %s1 = arith.addf %a2, %a3 : f32
    %s2 = arith.addf %a4, %a5 : f32
    %s3 = arith.addf %a6, %a7 : f32
    %s4 = arith.addf %s0, %s1 : f32
    %s5 = arith.addf %s2, %s3 : f32
    %s6 = arith.addf %s4, %s5 : f32
    %s7 = arith.addf %s6, %a8 : f32
    %x = math.exp %s7 : f32
    linalg.yield %x : f32
  } -> tensor<1x4x56xf32>
  return %0 : tensor<1x4x56xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#chan = affine_map<(d0, d1, d2) -> (d1)>

// A window's rows of 28 (three taps; not a whole number of AVX2 registers)
// with a weight broadcast along them and an exponential (no pieces): computed in whole registers,
// 32 floats, the last four lanes never stored; at their own width the
// broadcast became a vector LLVM built lane by lane. A power-of-two row (32)
// keeps linalg's vectoriser.
// CHECK-LABEL: func.func @odd_row_broadcast
// CHECK: vector.broadcast %{{.*}} : f32 to vector<32xf32>
// CHECK: math.exp {{.*}} : vector<32xf32>
// CHECK-NOT: vector<1x1x28xf32>
// CHECK-LABEL: func.func @even_row_broadcast
// CHECK: math.exp {{.*}} : vector<1x1x32xf32>
func.func @odd_row_broadcast(%t0: tensor<1x4x28xf32>, %t1: tensor<1x4x28xf32>, %t2: tensor<1x4x28xf32>, %w: tensor<4xf32>) -> tensor<1x4x28xf32> {
  %e = tensor.empty() : tensor<1x4x28xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t0, %t1, %t2, %w : tensor<1x4x28xf32>, tensor<1x4x28xf32>, tensor<1x4x28xf32>, tensor<4xf32>) outs(%e : tensor<1x4x28xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %k: f32, %o: f32):
    %t = math.fma %a, %k, %b : f32
    %s = arith.addf %t, %c : f32
    %x = math.exp %s : f32
    linalg.yield %x : f32
  } -> tensor<1x4x28xf32>
  return %0 : tensor<1x4x28xf32>
}
func.func @even_row_broadcast(%t0: tensor<1x4x32xf32>, %t1: tensor<1x4x32xf32>, %t2: tensor<1x4x32xf32>, %w: tensor<4xf32>) -> tensor<1x4x32xf32> {
  %e = tensor.empty() : tensor<1x4x32xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t0, %t1, %t2, %w : tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<4xf32>) outs(%e : tensor<1x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %k: f32, %o: f32):
    %t = math.fma %a, %k, %b : f32
    %s = arith.addf %t, %c : f32
    %x = math.exp %s : f32
    linalg.yield %x : f32
  } -> tensor<1x4x32xf32>
  return %0 : tensor<1x4x32xf32>
}
