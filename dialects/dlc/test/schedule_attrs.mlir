// RUN: dlc-opt %s | FileCheck %s
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// #dlc.buffer and #dlc.step round-trip; fields at their defaults (no view,
// not cross-device, not persistent, no max shape, no offset; a step's
// fields of other kinds) are not printed, and fields may come in any order.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0>,
// CHECK-SAME: #dlc.buffer<name = "copy_0", device = 1, cross_device = true, offset = 64>,
// CHECK-SAME: #dlc.buffer<name = "/flat", device = 1, view_of = 1, offset = 64>,
// CHECK-SAME: #dlc.buffer<name = "s", device = 0, persistent = true, max_shape = [8, 4], offset = 0>]
// CHECK-SAME: dlc.steps = {{\[\[}}#dlc.step<kind = "copy", buffers = [0, 1]>, #dlc.step<kind = "record", event = 0>],
// CHECK-SAME: [#dlc.step<kind = "wait", event = 0>, #dlc.step<kind = "call", kernel = 0, buffers = [1, 2], outputs = 1>]]
func.func @attrs() attributes {
    dlc.buffers = [#dlc.buffer<device = 0, name = "input:0">,
                   #dlc.buffer<name = "copy_0", device = 1, cross_device = true, offset = 64>,
                   #dlc.buffer<name = "/flat", device = 1, view_of = 1, offset = 64, cross_device = false>,
                   #dlc.buffer<name = "s", device = 0, persistent = true, max_shape = [8, 4], offset = 0>],
    dlc.steps = [[#dlc.step<buffers = [0, 1], kind = "copy">, #dlc.step<kind = "record", event = 0>],
                 [#dlc.step<kind = "wait", event = 0>,
                  #dlc.step<kind = "call", outputs = 1, kernel = 0, buffers = [1, 2]>]]} {
  return
}

// The code attributes (dlc-codegen's) round-trip; a kernel's launch fields
// are printed only for a GPU kernel, features only when given.
// CHECK-LABEL: func.func @code
// CHECK-SAME: dlc.cuda_modules = [#dlc.cuda_module<ptx_arch = "compute_90", source = dense_resource<src> : tensor<4xi8>, ptx = dense_resource<ptx> : tensor<4xi8>, cubin_archs = ["sm_90"], cubins = [dense_resource<cubin> : tensor<4xi8>]>]
// CHECK-SAME: dlc.libraries = [#dlc.library<code = dense_resource<lib> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "znver3", features = ["avx2", "fma"]>,
// CHECK-SAME: #dlc.library<code = dense_resource<lib> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "generic">]
// CHECK-SAME: k0 = #dlc.kernel_code<library = 0, symbol = "k0_entry">
// CHECK-SAME: k1 = #dlc.kernel_code<library = 1, symbol = "k1_entry", cuda_module = 0, cuda_entry = "k1", grid = [4, 1, 1], block = [256, 1, 1], shared_bytes = 1024>
func.func @code() attributes {
    dlc.libraries = [#dlc.library<code = dense_resource<lib> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "znver3", features = ["avx2", "fma"]>,
                     #dlc.library<cpu = "generic", triple = "x86_64-pc-linux-gnu", code = dense_resource<lib> : tensor<4xi8>>],
    dlc.cuda_modules = [#dlc.cuda_module<ptx_arch = "compute_90", source = dense_resource<src> : tensor<4xi8>, ptx = dense_resource<ptx> : tensor<4xi8>, cubin_archs = ["sm_90"], cubins = [dense_resource<cubin> : tensor<4xi8>]>],
    k0 = #dlc.kernel_code<library = 0, symbol = "k0_entry">,
    k1 = #dlc.kernel_code<symbol = "k1_entry", library = 1, cuda_module = 0, cuda_entry = "k1", grid = [4, 1, 1], block = [256, 1, 1], shared_bytes = 1024>} {
  return
}
