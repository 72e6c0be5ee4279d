// Rows of output tiles run on the runtime's pool (OutlineParallelLoops.cpp,
// ABI in runtime/include/dlc/parallel.h): the library exports the setter, each
// matmul's launch calls parallel_for through the api it was given, or loops
// serially when no runtime set one; results are bit-identical at any
// --threads (every tile is computed by the same code, whichever thread).
// RUN: dlc compile %s --emit=llvm | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s -o %t/mm.dlcm
// RUN: dlc run %t/mm.dlcm --threads=1 --output-dir %t/1 > /dev/null
// RUN: dlc run %t/mm.dlcm --threads=2 --output-dir %t/2 > /dev/null
// RUN: dlc run %t/mm.dlcm --threads=3 --output-dir %t/3 > /dev/null
// RUN: cmp %t/1/y.npy %t/2/y.npy
// RUN: cmp %t/1/y.npy %t/3/y.npy
// The MLP (three linears), likewise.
// RUN: dlc compile %S/../../../test/models/mlp.mlir -o %t/mlp.dlcm
// RUN: dlc run %t/mlp.dlcm --threads=1 --output-dir %t/mlp1 > /dev/null
// RUN: dlc run %t/mlp.dlcm --threads=2 --output-dir %t/mlp2 > /dev/null
// RUN: cmp %t/mlp1/probs.npy %t/mlp2/probs.npy

// 40 rows = 5 rows of 8x32 tiles: one launch with 5 iterations.
// CHECK: define internal void @{{.*}}_par0_launch_thunk(ptr
// CHECK: define void @dlc_set_parallel_runtime(ptr
// CHECK-NEXT: store ptr %0, ptr @dlc_parallel_api_ptr
// The parallel path: api->parallel_for(ctx, 5, thunk, closure).
// CHECK: load ptr, ptr @dlc_parallel_api_ptr
// CHECK: call void %{{.*}}(ptr %{{.*}}, i64 5, ptr nonnull @{{.*}}_par0_launch_thunk, ptr
func.func @main(%x: tensor<40x64xf32> {dlc.name = "x"}, %w: tensor<64x64xf32> {dlc.name = "w"}) -> (tensor<40x64xf32> {dlc.name = "y"}) {
  %0 = dlc.matmul %x, %w : (tensor<40x64xf32>, tensor<64x64xf32>) -> tensor<40x64xf32>
  return %0 : tensor<40x64xf32>
}
