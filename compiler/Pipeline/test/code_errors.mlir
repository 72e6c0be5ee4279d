// The artifact stage translates the code dlc-codegen wrote and refuses IR
// without it, or whose code attributes name what does not exist, with an
// error naming what is wrong (compiler/Pipeline/ArtifactStages.h).
// RUN: not dlc-opt %s --split-input-file --dlc-compile-pipeline='start-after=codegen output=%t.dlcm' -o /dev/null 2>&1 | FileCheck %s

// No dlc.libraries: dlc-codegen did not run.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>, dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">}
  return %n : tensor<4xf32>
}
// CHECK: error: no code: @main has no dlc.libraries (run dlc-codegen first)

// -----

// A kernel without its dlc.code.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.libraries = [#dlc.library<code = dense_resource<lib> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "x86-64">],
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: { lib: "0x010000007F454C46" } }
#-}
// CHECK: error: no code: kernel 0 has no dlc.code (run dlc-codegen first)

// -----

// A kernel's code in a library that does not exist.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.libraries = [#dlc.library<code = dense_resource<lib> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "x86-64">],
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>, dlc.code = #dlc.kernel_code<library = 1, symbol = "k0_entry">}
  return %n : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: { lib: "0x010000007F454C46" } }
#-}
// CHECK: error: malformed code: kernel 0's dlc.code names a library or CUDA module that does not exist

// -----

// A library whose resource has no data (its blob is not in the file).
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.libraries = [#dlc.library<code = dense_resource<missing> : tensor<4xi8>, triple = "x86_64-pc-linux-gnu", cpu = "x86-64">],
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>, dlc.code = #dlc.kernel_code<library = 0, symbol = "k0_entry">}
  return %n : tensor<4xf32>
}
// CHECK: error: code resource 'missing' has no data
