// dlc-codegen writes the kernels' code onto the IR: the shared objects and
// the CUDA module as resource blobs in the function's dlc.libraries and
// dlc.cuda_modules, and where each kernel's code is as its dlc.code. The
// artifact stage, resumed from that text, only translates it
// (compiler/Pipeline/ArtifactStages.h).
// RUN: dlc-opt %s --dlc-compile-pipeline='stop-after=codegen' -mlir-print-debuginfo -o %t.cpu.mlir
// RUN: FileCheck %s --check-prefix=CPU < %t.cpu.mlir
// RUN: dlc-opt %t.cpu.mlir --dlc-compile-pipeline='start-after=codegen output=%t.resumed.dlcm' -o /dev/null
// RUN: dlc compile %s -o %t.full.dlcm
// RUN: cmp %t.full.dlcm %t.resumed.dlcm
// RUN: dlc inspect %t.resumed.dlcm | FileCheck %s --check-prefix=INSPECT

// A GPU kernel (the exp, pinned) with emulated host code (library 1, one function per
// kernel); the CPU kernels in library 0.
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=cpu pin=exp=cuda:0 gpu-host-code=emulated cuda=false stop-after=codegen' | FileCheck %s --check-prefix=EMULATED

// The two matmul+relu kernels outline to the same code (their weights are
// arguments): compiled once, both name k0's symbol.
// CPU: dlc.kernel
// CPU: dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">
// CPU: dlc.kernel
// CPU: dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">
// CPU: dlc.kernel
// CPU: dlc.code = #dlc.kernel_code<library = 0, symbol = "k2_entry">
// CPU-NOT: dlc.cuda_modules
// CPU: dialect_resources
// The shared object: an ELF file, after the blob's 4-byte alignment.
// CPU: dlc_library: "0x010000007F454C46

// INSPECT: 0: 'k0' = k0_entry in library 0
// INSPECT: 1: 'k1' = k0_entry in library 0
// INSPECT: 2: 'k2' = k2_entry in library 0

// EMULATED: dlc.libraries = [#dlc.library<code = dense_resource<dlc_library> : tensor<{{[0-9]+}}xi8>, triple = "{{[^"]+}}", cpu = "{{[^"]+}}"
// EMULATED-SAME: #dlc.library<code = dense_resource<dlc_emulated_gpu> : tensor<{{[0-9]+}}xi8>, triple = "{{[^"]+}}", cpu = "generic">]
// Placement's per-op records (dlc.order, dlc.reason) do not keep the two
// matmul+relu kernels from sharing their code.
// EMULATED: dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">
// EMULATED: dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">
// EMULATED: dlc.code = #dlc.kernel_code<library = 0, symbol = "k2_entry">
// EMULATED: dlc.copy
// EMULATED: dlc.kernel on cuda:0
// EMULATED: dlc.code = #dlc.kernel_code<library = 1, symbol = "k3_entry">

func.func @main(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>,
                %w3: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %a = dlc.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = dlc.relu %a : tensor<4x8xf32>
  %c = dlc.matmul %b, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %d = dlc.relu %c : tensor<4x8xf32>
  %e = dlc.matmul %d, %w3 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %f = dlc.exp %e : tensor<4x4xf32>
  return %f : tensor<4x4xf32>
}
