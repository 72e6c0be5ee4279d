// A dimension known only at run time in the scheduled IR and the artifact:
// the entry argument's dlc.max_shape bounds it, every buffer holding the
// value (here moved to a GPU and back) records that max_shape and is sized
// for it, and the artifact says so (format 0.6: shape -1, max_shape).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc-opt %s --dlc-schedule --dlc-plan-memory | FileCheck %s
// RUN: dlc-opt %s --dlc-compile-pipeline='start-after=kernels output=%t/m.dlcm' -o /dev/null
// RUN: dlc inspect %t/m.dlcm | FileCheck %s --check-prefix=INSPECT
// This runtime verifies and describes such an artifact but runs only a
// symbolic batch (format 0.8, Pipeline/test/symbolic_batch.mlir), which this
// is not: a clear refusal, not a run at the wrong size.
// RUN: not dlc run %t/m.dlcm --gpu=sim 2>&1 | FileCheck %s --check-prefix=REFUSED

func.func @main(%x: tensor<?x4xf32> {dlc.max_shape = array<i64: 64, 4>, dlc.name = "x"})
    -> (tensor<?x4xf32> {dlc.name = "y"}) {
  %g = dlc.copy %x to cuda:0 : tensor<?x4xf32>
  %b = dlc.copy %g to cpu : tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}

// 64 x 4 f32: 1024 bytes each.
// CHECK: dlc.arena_bytes = array<i64: 2048, 1024>
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, max_shape = [64, 4], offset = 0>,
// CHECK-SAME: #dlc.buffer<name = "copy_0", device = 1, cross_device = true, max_shape = [64, 4], offset = 0>,
// CHECK-SAME: #dlc.buffer<name = "copy_1", device = 0, cross_device = true, max_shape = [64, 4], offset = 1024>]

// INSPECT: format: 0.6
// INSPECT: input  0 'x': f32 [?,4] at most [64,4], 1024 bytes
// INSPECT-NEXT: output 0 'y': f32 [?,4] at most [64,4], 1024 bytes
// INSPECT: %1('copy_0') on cuda:0: F32 [?,4], 1024 bytes, sized for at most [64,4]

// REFUSED: model '{{.*}}m.dlcm': buffer 0 ('input:0') has a dimension known only at run time that is not the symbolic batch; this runtime runs static shapes and the batch only

