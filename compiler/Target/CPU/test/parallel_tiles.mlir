// Rows of output tiles run on the runtime's pool (OutlineParallelLoops.cpp,
// ABI in runtime/include/dlc/parallel.h): the library exports the setter, each
// matmul's launch calls parallel_for through the api it was given, or loops
// serially when no runtime set one; results are bit-identical at any
// --threads (every tile is computed by the same code, whichever thread).
// RUN: dlc compile %s --cpu=x86-64-v4 --emit=llvm | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s -o %t/mm.dlcm
// RUN: dlc run %t/mm.dlcm --threads=1 --output-dir %t/1 > /dev/null
// RUN: dlc run %t/mm.dlcm --threads=2 --output-dir %t/2 > /dev/null
// RUN: dlc run %t/mm.dlcm --threads=3 --output-dir %t/3 > /dev/null
// RUN: cmp %t/1/y.npy %t/2/y.npy
// RUN: cmp %t/1/y.npy %t/3/y.npy
// The example models, likewise: the MLP (three linears).
// RUN: dlc compile %S/../../../../test/models/mlp.mlir -o %t/mlp.dlcm
// RUN: dlc run %t/mlp.dlcm --threads=1 --output-dir %t/mlp1 > /dev/null
// RUN: dlc run %t/mlp.dlcm --threads=2 --output-dir %t/mlp2 > /dev/null
// RUN: cmp %t/mlp1/probs.npy %t/mlp2/probs.npy
// The CNN (convolutions as matmuls on views) and the encoder, likewise.
// RUN: dlc compile %S/../../../../test/models/cnn.mlir --cpu=x86-64-v4 --emit=llvm | FileCheck %s --check-prefix=CNN
// CNN: call void %{{.*}}(ptr %{{.*}}, i64 {{[0-9]+}}, ptr nonnull @{{.*}}_par0_launch_thunk, ptr
// RUN: dlc compile %S/../../../../test/models/cnn.mlir -o %t/cnn.dlcm
// RUN: dlc run %t/cnn.dlcm --threads=1 --output-dir %t/cnn1 > /dev/null
// RUN: dlc run %t/cnn.dlcm --threads=2 --output-dir %t/cnn2 > /dev/null
// RUN: cmp %t/cnn1/logits.npy %t/cnn2/logits.npy
// RUN: dlc compile %S/../../../../test/models/encoder.mlir -o %t/enc.dlcm
// RUN: dlc run %t/enc.dlcm --threads=1 --output-dir %t/enc1 > /dev/null
// RUN: dlc run %t/enc.dlcm --threads=2 --output-dir %t/enc2 > /dev/null
// RUN: cmp %t/enc1/y.npy %t/enc2/y.npy

// 40 rows = 5 rows of 8x32 tiles (one column of them): one launch with 5
// iterations. (A C wider than tall splits its columns of tiles instead:
// tile_and_vectorize.mlir.)
// CHECK: define internal void @{{.*}}_par0_launch_thunk(ptr
// CHECK: define void @dlc_set_parallel_runtime(ptr
// CHECK-NEXT: store ptr %0, ptr @dlc_parallel_api_ptr
// The parallel path: api->parallel_for(ctx, 5, thunk, closure).
// CHECK: load ptr, ptr @dlc_parallel_api_ptr
// CHECK: call void %{{.*}}(ptr %{{.*}}, i64 5, ptr nonnull @{{.*}}_par0_launch_thunk, ptr
func.func @main(%x: tensor<40x64xf32> {dlc.name = "x"}, %w: tensor<64x32xf32> {dlc.name = "w"}) -> (tensor<40x32xf32> {dlc.name = "y"}) {
  %0 = dlc.matmul %x, %w : (tensor<40x64xf32>, tensor<64x32xf32>) -> tensor<40x32xf32>
  return %0 : tensor<40x32xf32>
}
