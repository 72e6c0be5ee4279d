// RUN: dlc-opt %s --split-input-file --verify-diagnostics

// Each #dlc.buffer and #dlc.step is checked on its own when parsed.

// expected-error @+1 {{buffer 'x': device, view_of and offset must be non-negative}}
func.func @f() attributes {b = #dlc.buffer<name = "x", device = -1>} { return }

// -----

// expected-error @+1 {{buffer 'x': max_shape must be non-negative}}
func.func @f() attributes {b = #dlc.buffer<name = "x", device = 0, max_shape = [4, -1]>} { return }

// -----

// expected-error @+1 {{unknown step kind 'launch': expected call, copy, record or wait}}
func.func @f() attributes {s = #dlc.step<kind = "launch", event = 0>} { return }

// -----

// expected-error @+1 {{a call step has a kernel, buffers and an output count and nothing else}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [0, 1]>} { return }

// -----

// expected-error @+1 {{a wait step has an event and nothing else}}
func.func @f() attributes {s = #dlc.step<kind = "wait", event = 0, kernel = 2>} { return }

// -----

// expected-error @+1 {{a copy step has two buffers, got 3}}
func.func @f() attributes {s = #dlc.step<kind = "copy", buffers = [0, 1, 2]>} { return }

// -----

// expected-error @+1 {{a call step's buffers must be non-negative}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [-1, 1], outputs = 1>} { return }

// -----

// expected-error @+1 {{a call step has more outputs than buffers}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [1], outputs = 2>} { return }

// -----

// #dlc.library, #dlc.cuda_module and #dlc.kernel_code (dlc-codegen's).

// expected-error @+1 {{a library's code is a 1-D i8 dense_resource}}
func.func @f() attributes {l = #dlc.library<code = dense_resource<b> : tensor<4xf32>, triple = "x86_64-pc-linux-gnu", cpu = "x86-64">} { return }

// -----

// expected-error @+1 {{a library names its target triple and CPU}}
func.func @f() attributes {l = #dlc.library<code = dense_resource<b> : tensor<4xi8>, triple = "", cpu = "x86-64">} { return }

// -----

// expected-error @+1 {{a library's features are strings}}
func.func @f() attributes {l = #dlc.library<code = dense_resource<b> : tensor<4xi8>, triple = "t", cpu = "c", features = [1]>} { return }

// -----

// expected-error @+1 {{a CUDA module has one architecture (a string) per CUBIN, got 2 for 1}}
func.func @f() attributes {m = #dlc.cuda_module<ptx_arch = "compute_90", source = dense_resource<s> : tensor<4xi8>, ptx = dense_resource<p> : tensor<4xi8>, cubin_archs = ["sm_80", "sm_90"], cubins = [dense_resource<c> : tensor<4xi8>]>} { return }

// -----

// expected-error @+1 {{a CUDA module's source, PTX and CUBINs are 1-D i8 dense_resources}}
func.func @f() attributes {m = #dlc.cuda_module<ptx_arch = "compute_90", source = dense_resource<s> : tensor<4xi8>, ptx = dense_resource<p> : tensor<4xi8>, cubin_archs = ["sm_90"], cubins = ["c"]>} { return }

// -----

// expected-error @+1 {{a kernel's code names its library (non-negative) and symbol}}
func.func @f() attributes {k = #dlc.kernel_code<library = -1, symbol = "k0_entry">} { return }

// -----

// expected-error @+1 {{a kernel's CUDA launch has a module, an entry, a grid and a block, or none of them}}
func.func @f() attributes {k = #dlc.kernel_code<library = 0, symbol = "k0_entry", cuda_module = 0, cuda_entry = "k0">} { return }

// -----

// expected-error @+1 {{a kernel's CUDA grid and block are three positive sizes each}}
func.func @f() attributes {k = #dlc.kernel_code<library = 0, symbol = "k0_entry", cuda_module = 0, cuda_entry = "k0", grid = [0, 1, 1], block = [256, 1, 1]>} { return }
