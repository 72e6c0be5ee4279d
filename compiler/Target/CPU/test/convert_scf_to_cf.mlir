// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-convert-scf-to-cf))' | FileCheck %s

// A kept loop's back edge (LLVM reads loop metadata there; kept_loops.mlir
// checks it reaches LLVM IR) carries LLVM loop metadata that disables unrolling
// and vectorising; an ordinary loop, lowered by upstream's patterns, none.
// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[VECTORIZE:.*]] = #llvm.loop_vectorize<disable = true>
// CHECK-DAG: #[[INTERLEAVE:.*]] = #llvm.loop_interleave<count = 1 : i32>
// CHECK-DAG: #[[KEPT:.*]] = #llvm.loop_annotation<vectorize = #[[VECTORIZE]], unroll = #[[UNROLL]]>
// CHECK-DAG: #[[RUNTIME:.*]] = #llvm.loop_annotation<interleave = #[[INTERLEAVE]], unroll = #[[UNROLL]]>
// CHECK-DAG: #[[FOUR:.*]] = #llvm.loop_unroll<count = 4 : i32>
// CHECK-DAG: #[[TILE:.*]] = #llvm.loop_annotation<unroll = #[[FOUR]]>
// CHECK-LABEL: func.func @loops
// CHECK: ^[[HEAD:.*]](%[[I:.*]]: index):
// CHECK: cf.cond_br
// CHECK: memref.store
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: cf.br ^[[HEAD]](%[[NEXT]] : index) {loop_annotation = #[[KEPT]]}
// CHECK: ^[[HEAD2:.*]](%[[J:.*]]: index):
// CHECK: memref.store
// CHECK: cf.br ^[[HEAD2]](%{{.*}} : index)
// CHECK-NOT: loop_annotation
// CHECK: return
func.func @loops(%m: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c128 step %c1 {
    memref.store %z, %m[%i] : memref<128xf32>
  } {dlc.kept_loop}
  scf.for %j = %c0 to %c128 step %c1 {
    memref.store %z, %m[%j] : memref<128xf32>
  }
  return
}

// A loop of run-time trip count (a kernel sized at run time,
// SizeLoopsAtRunTime.cpp): LLVM may vectorise it, but neither unroll nor
// interleave it.
// CHECK-LABEL: func.func @run_time_loop
// CHECK: cf.br ^{{.*}}(%{{.*}} : index) {loop_annotation = #[[RUNTIME]]}
func.func @run_time_loop(%m: memref<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %m[%i] : memref<128xf32>
  } {dlc.run_time_loop}
  return
}

// A register tile's K loop (UnrollTileLoops.cpp): unrolled 4 times by LLVM.
// CHECK-LABEL: func.func @tile_loop
// CHECK: cf.br ^{{.*}}(%{{.*}} : index) {loop_annotation = #[[TILE]]}
func.func @tile_loop(%m: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c128 step %c1 {
    memref.store %z, %m[%i] : memref<128xf32>
  } {dlc.unroll_count = 4 : i64}
  return
}
