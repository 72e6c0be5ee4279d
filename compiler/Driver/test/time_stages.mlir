// dlc compile --time-stages: where the compile's time goes, as MLIR's
// timing tree on stderr: loading, each pass of the graph stages, then code
// generation's parts (the kernels' lowering pass by pass, LLVM IR, O3 and
// machine code (in parts, one per core), linking) and the artifact's
// (buffers, serializing, the schedule's proof). The artifact is written as
// without it.
// RUN: dlc compile %s -o %t.dlcm --time-stages 2>&1 | FileCheck %s
// RUN: dlc compile %s -o %t.plain.dlcm
// RUN: cmp %t.dlcm %t.plain.dlcm

// LLVM's own passes, summed by name over the parts the code is made in
// (printed when code generation ends, before MLIR's tree).
// CHECK: LLVM's passes, summed over the parts of the kernels' code (top 12):
// CHECK-NEXT: O3 (passes and analyses): {{[0-9.]+}} s (the threads' times added)
// CHECK: {{ [0-9.]+ s +[0-9.]+%  }}InstCombinePass ({{[0-9]+}} runs)
// CHECK: machine code: {{[0-9.]+}} s (the threads' times added)
// CHECK: {{ [0-9.]+ s +[0-9.]+%  }}x86-isel ({{[0-9]+}} parts)
// CHECK: Execution time report
// CHECK: load the model
// CHECK: PartitionKernels
// CHECK: SchedulePass
// CHECK: PlanMemoryPass
// CHECK: code generation
// CHECK-NEXT: CUDA kernels: NVRTC
// CHECK-NEXT: CPU kernels: to the LLVM dialect
// CHECK: EmptyTensorElimination
// CHECK-NEXT: GlobalizeTensorConstants
// CHECK-NEXT: 'func.func' Pipeline
// CHECK-NEXT: BufferizeKernel
// CHECK: CPU kernels: to LLVM IR
// CHECK-NEXT: CPU kernels: LLVM O3 and machine code
// CHECK-NEXT: CPU kernels: link
// CHECK-NEXT: artifact
// CHECK-NEXT: buffers and constant segments
// CHECK-NEXT: serialize the artifact
// CHECK-NEXT: verify the artifact's schedule
// CHECK-NEXT: write the artifact
// CHECK: Total

func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = dlc.relu %m : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
