// dlc compile --progress: progress lines on stderr ("\r" then the line, the
// line cleared at the end), by default only when stderr is a terminal, as a
// long compile's: kernels lowered (those compiled: identical ones count
// once), then parts of machine code.
// RUN: dlc compile %s -o %t.dlcm --progress=always 2>&1 | FileCheck %s
// Not a terminal (lit's pipe): nothing, and the same artifact.
// RUN: dlc compile %s -o %t.auto.dlcm 2>&1 | count 0
// RUN: cmp %t.dlcm %t.auto.dlcm
// RUN: not dlc compile %s -o %t.bad.dlcm --progress=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: dlc compile: 1/2 kernels lowered
// CHECK: dlc compile: 2/2 kernels lowered
// CHECK: dlc compile: {{[0-9]+}}/{{[0-9]+}} parts of machine code
// BAD: error: --progress expects auto, always or never, got 'sometimes'

func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %v: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %n = dlc.matmul %m, %v : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %n : tensor<4x16xf32>
}
