// dlc.compare and dlc.select compiled to native code against the reference
// interpreter: every predicate, broadcasting, ties (relu(a) == a), f16 and
// integer operands, i1 masks combined (xor = ne, not = eq false, and/or =
// select) and i1 outputs (one byte each), on the CPU and on simulated GPUs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s predicates %t | FileCheck %s
// RUN: %check-e2e %s masks_select %t | FileCheck %s --check-prefix=SEL
// The CUDA backend runs them (elementwise kernels: C++ comparisons and ?:,
// i1 as one byte): placed on a simulated GPU whose host code is the kernels'
// CUDA C++ on the emulation, compared with the interpreter.
// RUN: dlc compile %s --entry=masks_select --devices=cpu,cuda:0 --placement=gpu --no-cuda -o %t/gpu.dlcm --print-placement 2>&1 | FileCheck %s --check-prefix=PLACE
// RUN: %check-e2e %s masks_select %t/gpu --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=SEL
// RUN: %check-e2e %s predicates %t/gpu --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s
// RUN: dlc compile %s --entry=predicates --devices=cpu,cuda:0 --placement=gpu --no-cuda --emit=cuda | FileCheck %s --check-prefix=CUDA
// CUDA: (elementwise): dlc.relu 'relu_{{[0-9]+}}' -> dlc.compare 'compare_{{[0-9]+}}'
// CUDA: const bool [[C:compare_[0-9_]+]] = (relu_{{[0-9_]+}} == x0);  // dlc.compare
// CUDA-NEXT: (unsigned char)([[C]]);
// CUDA: = (x0 < x1);  // dlc.compare
// PLACE-LABEL: placement of @masks_select
// PLACE: cuda:0 {{.*}} dlc.abs
// PLACE: cuda:0 {{.*}} dlc.compare
// PLACE: cuda:0 {{.*}} dlc.select
// Data-parallel splits them along the batch like the binary ops (a mask and
// a select with an unbatched row).
// RUN: %check-e2e %S/Inputs/compare_select_batched.mlir main %t/dp --placement=data-parallel:2 --devices=cpu,cuda:0,cuda:1 --no-cuda --gpu=sim | FileCheck %s --check-prefix=DP
// DP: main result0: ok
// DP: main result1: ok (exact)
// CHECK-COUNT-6: predicates {{.*}}: ok (exact)
// SEL: masks_select {{.*}}: ok

func.func @predicates(%a: tensor<5x9xf32>, %b: tensor<9xf32>, %i: tensor<3x7xi32>, %h: tensor<4x6xf16>)
    -> (tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xi1>, tensor<3x7xi1>, tensor<4x6xi1>, tensor<5x9xi1>) {
  %r = dlc.relu %a : tensor<5x9xf32>
  %0 = dlc.compare "eq", %r, %a : (tensor<5x9xf32>, tensor<5x9xf32>) -> tensor<5x9xi1>
  %1 = dlc.compare "lt", %a, %b : (tensor<5x9xf32>, tensor<9xf32>) -> tensor<5x9xi1>
  %2 = dlc.compare "ge", %b, %a : (tensor<9xf32>, tensor<5x9xf32>) -> tensor<5x9xi1>
  %z = dlc.constant dense<0> : tensor<1x1xi32>
  %3 = dlc.compare "le", %i, %z : (tensor<3x7xi32>, tensor<1x1xi32>) -> tensor<3x7xi1>
  %hz = dlc.constant dense<0.0> : tensor<f16>
  %4 = dlc.compare "gt", %h, %hz : (tensor<4x6xf16>, tensor<f16>) -> tensor<4x6xi1>
  %5 = dlc.compare "ne", %r, %a : (tensor<5x9xf32>, tensor<5x9xf32>) -> tensor<5x9xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xi1>, tensor<3x7xi1>, tensor<4x6xi1>, tensor<5x9xi1>
}

func.func @masks_select(%a: tensor<5x9xf32>, %b: tensor<9xf32>, %x: tensor<5x1xf32>)
    -> (tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xf32>) {
  %zero = dlc.constant dense<0.0> : tensor<f32>
  %abs = dlc.abs %a : tensor<5x9xf32>
  %p = dlc.compare "gt", %abs, %b : (tensor<5x9xf32>, tensor<9xf32>) -> tensor<5x9xi1>
  %q = dlc.compare "lt", %b, %zero : (tensor<9xf32>, tensor<f32>) -> tensor<9xi1>
  %false = dlc.constant dense<false> : tensor<1x1xi1>
  %true = dlc.constant dense<true> : tensor<1x1xi1>
  %xor = dlc.compare "ne", %p, %q : (tensor<5x9xi1>, tensor<9xi1>) -> tensor<5x9xi1>
  %not = dlc.compare "eq", %xor, %false : (tensor<5x9xi1>, tensor<1x1xi1>) -> tensor<5x9xi1>
  %and = dlc.select %p, %q, %false : tensor<5x9xi1>, tensor<9xi1>, tensor<1x1xi1> -> tensor<5x9xi1>
  %or = dlc.select %not, %true, %and : tensor<5x9xi1>, tensor<1x1xi1>, tensor<5x9xi1> -> tensor<5x9xi1>
  %y = dlc.select %or, %b, %x : tensor<5x9xi1>, tensor<9xf32>, tensor<5x1xf32> -> tensor<5x9xf32>
  return %not, %and, %or, %y : tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xi1>, tensor<5x9xf32>
}
