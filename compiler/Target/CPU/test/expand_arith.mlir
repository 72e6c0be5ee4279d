// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-expand-arith))' | FileCheck %s

// Float max/min stay ops (LLVM vectorises llvm.maximum reductions); integer
// ceil/floor division and bf16 casts, which the LLVM lowering lacks, expand.
// CHECK-LABEL: func.func @kept
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.cmpf
func.func @kept(%a: f32, %b: f32) -> (f32, f32) {
  %0 = arith.maximumf %a, %b : f32
  %1 = arith.minimumf %a, %b : f32
  return %0, %1 : f32, f32
}

// CHECK-LABEL: func.func @expanded
// CHECK-NOT: arith.ceildivsi
// CHECK-NOT: arith.floordivsi
// CHECK-NOT: arith.extf
// CHECK: arith.divsi
// CHECK: return
func.func @expanded(%a: i32, %b: i32, %h: bf16) -> (i32, i32, f32) {
  %0 = arith.ceildivsi %a, %b : i32
  %1 = arith.floordivsi %a, %b : i32
  %2 = arith.extf %h : bf16 to f32
  return %0, %1, %2 : i32, i32, f32
}
