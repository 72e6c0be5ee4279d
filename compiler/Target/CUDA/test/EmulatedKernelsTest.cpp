//===- EmulatedKernelsTest.cpp - generated CUDA kernels vs the interpreter -===//
//
// Every kernel kind the emitter produces, on small ragged shapes, in f32 and
// f16 (bf16 for the tensor-core GEMM too): the CUDA C++ source is compiled by
// the host C++ compiler against emulation/cuda_emu.h (threads as fibers,
// warp shuffles, mma.sync with the PTX fragment layout) into one shared
// object, run, and compared with the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Interpreter.h"
#include "compiler/Target/CUDA/CudaEmitter.h"
#include "compiler/Target/CUDA/Nvrtc.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <set>
#include <random>

using namespace mlir;
namespace ref = dlc::ref;

namespace {

struct Case {
  const char *name;
  const char *mlir; // func.func @main: one kernel (constants inlined)
  double tolerance; // relative to max(1, |expected|)
};

// Shapes are ragged on purpose: not multiples of the tiles, vectors or warps.
const Case kCases[] = {
    {"chain_f32_vectorised",
     "func.func @main(%a: tensor<6x20xf32>, %b: tensor<6x20xf32>) -> tensor<6x20xf32> {\n"
     "  %m = dlc.mul %a, %b : tensor<6x20xf32>\n"
     "  %e = dlc.exp %m : tensor<6x20xf32>\n"
     "  %s = dlc.sub %e, %a : tensor<6x20xf32>\n"
     "  %r = dlc.gelu %s : tensor<6x20xf32>\n"
     "  return %r : tensor<6x20xf32> }",
     1e-5},
    {"chain_f32_broadcast_two_outputs",
     "func.func @main(%a: tensor<3x5x7xf32>, %b: tensor<7xf32>, %c: tensor<5x1xf32>) -> (tensor<3x5x7xf32>, tensor<3x5x7xf32>) {\n"
     "  %k = dlc.constant dense<[0.5, -1.0, 2.0, 0.25, 3.0, -0.5, 1.5]> : tensor<7xf32>\n"
     "  %x = dlc.add %a, %b : (tensor<3x5x7xf32>, tensor<7xf32>) -> tensor<3x5x7xf32>\n"
     "  %y = dlc.mul %x, %c : (tensor<3x5x7xf32>, tensor<5x1xf32>) -> tensor<3x5x7xf32>\n"
     "  %z = dlc.max %y, %k : (tensor<3x5x7xf32>, tensor<7xf32>) -> tensor<3x5x7xf32>\n"
     "  %t = dlc.tanh %z : tensor<3x5x7xf32>\n"
     "  return %x, %t : tensor<3x5x7xf32>, tensor<3x5x7xf32> }",
     1e-5},
    {"chain_broadcast_smaller_output",
     "func.func @main(%a: tensor<7xf32>, %b: tensor<3x7xf32>) -> (tensor<7xf32>, tensor<3x7xf32>) {\n"
     "  %x = dlc.sigmoid %a : tensor<7xf32>\n"
     "  %y = dlc.div %b, %x : (tensor<3x7xf32>, tensor<7xf32>) -> tensor<3x7xf32>\n"
     "  return %x, %y : tensor<7xf32>, tensor<3x7xf32> }",
     1e-5},
    {"chain_f16_half2",
     "func.func @main(%a: tensor<5x12xf16>, %b: tensor<5x12xf16>) -> tensor<5x12xf16> {\n"
     "  %s = dlc.constant dense<0.5> : tensor<f16>\n"
     "  %m = dlc.mul %a, %b : tensor<5x12xf16>\n"
     "  %x = dlc.add %m, %s : (tensor<5x12xf16>, tensor<f16>) -> tensor<5x12xf16>\n"
     "  %r = dlc.relu %x : tensor<5x12xf16>\n"
     "  return %r : tensor<5x12xf16> }",
     0},
    {"chain_f16_widened",
     "func.func @main(%a: tensor<4x6xf16>) -> tensor<4x6xf16> {\n"
     "  %e = dlc.erf %a : tensor<4x6xf16>\n"
     "  %r = dlc.gelu %e {tanh_approximation = true} : tensor<4x6xf16>\n"
     "  return %r : tensor<4x6xf16> }",
     2e-3},
    {"chain_f16_scalar_ragged_cast",
     "func.func @main(%a: tensor<3x7xf16>) -> tensor<3x7xf32> {\n"
     "  %c = dlc.clip %a {min = -0.5, max = 0.75} : tensor<3x7xf16>\n"
     "  %f = dlc.cast %c : tensor<3x7xf16> -> tensor<3x7xf32>\n"
     "  %r = dlc.sqrt %f : tensor<3x7xf32>\n"
     "  return %f : tensor<3x7xf32> }",
     0},
    {"softmax_f32_warp",
     "func.func @main(%a: tensor<5x37xf32>) -> tensor<5x37xf32> {\n"
     "  %r = dlc.softmax %a : tensor<5x37xf32>\n"
     "  return %r : tensor<5x37xf32> }",
     1e-5},
    {"softmax_f16_block_scaled",
     "func.func @main(%a: tensor<3x1500xf16>) -> tensor<3x1500xf16> {\n"
     "  %s = dlc.constant dense<2.0> : tensor<f16>\n"
     "  %r = dlc.softmax %a : tensor<3x1500xf16>\n"
     "  %m = dlc.mul %r, %s : (tensor<3x1500xf16>, tensor<f16>) -> tensor<3x1500xf16>\n"
     "  return %m : tensor<3x1500xf16> }",
     1e-3},
    {"softmax_f32_inner_axis",
     "func.func @main(%a: tensor<2x9x5xf32>) -> tensor<2x9x5xf32> {\n"
     "  %r = dlc.softmax %a {axis = 1} : tensor<2x9x5xf32>\n"
     "  return %r : tensor<2x9x5xf32> }",
     1e-5},
    {"layer_norm_f32",
     "func.func @main(%a: tensor<6x50xf32>, %g: tensor<50xf32>, %b: tensor<50xf32>) -> tensor<6x50xf32> {\n"
     "  %r = dlc.layer_norm %a, %g, %b : (tensor<6x50xf32>, tensor<50xf32>, tensor<50xf32>) -> tensor<6x50xf32>\n"
     "  return %r : tensor<6x50xf32> }",
     1e-4},
    {"layer_norm_f16_block",
     "func.func @main(%a: tensor<2x1100xf16>, %g: tensor<1100xf16>) -> tensor<2x1100xf16> {\n"
     "  %r = dlc.layer_norm %a, %g : (tensor<2x1100xf16>, tensor<1100xf16>) -> tensor<2x1100xf16>\n"
     "  return %r : tensor<2x1100xf16> }",
     4e-3},
    {"reduce_sum_trailing",
     "func.func @main(%a: tensor<4x3x33xf32>) -> tensor<4x3xf32> {\n"
     "  %r = dlc.reduce_sum %a {axes = array<i64: 2>} : tensor<4x3x33xf32> -> tensor<4x3xf32>\n"
     "  return %r : tensor<4x3xf32> }",
     1e-5},
    {"reduce_max_f16_keepdims",
     "func.func @main(%a: tensor<5x70xf16>) -> tensor<5x1xf16> {\n"
     "  %r = dlc.reduce_max %a {axes = array<i64: -1>, keepdims = true} : tensor<5x70xf16> -> tensor<5x1xf16>\n"
     "  return %r : tensor<5x1xf16> }",
     0},
    {"reduce_mean_inner_axis",
     "func.func @main(%a: tensor<4x6x5xf32>) -> tensor<4x5xf32> {\n"
     "  %r = dlc.reduce_mean %a {axes = array<i64: 1>} : tensor<4x6x5xf32> -> tensor<4x5xf32>\n"
     "  return %r : tensor<4x5xf32> }",
     1e-5},
    {"matmul_f32_bias_relu",
     "func.func @main(%a: tensor<70x45xf32>, %w: tensor<45x66xf32>, %b: tensor<66xf32>) -> tensor<70x66xf32> {\n"
     "  %m = dlc.matmul %a, %w : (tensor<70x45xf32>, tensor<45x66xf32>) -> tensor<70x66xf32>\n"
     "  %x = dlc.add %m, %b : (tensor<70x66xf32>, tensor<66xf32>) -> tensor<70x66xf32>\n"
     "  %r = dlc.relu %x : tensor<70x66xf32>\n"
     "  return %r : tensor<70x66xf32> }",
     1e-5},
    {"matmul_f32_batched_broadcast",
     "func.func @main(%a: tensor<2x3x9x17xf32>, %w: tensor<3x17x5xf32>) -> tensor<2x3x9x5xf32> {\n"
     "  %m = dlc.matmul %a, %w : (tensor<2x3x9x17xf32>, tensor<3x17x5xf32>) -> tensor<2x3x9x5xf32>\n"
     "  return %m : tensor<2x3x9x5xf32> }",
     1e-5},
    {"matmul_f16_tensor_core_bias_gelu",
     "func.func @main(%a: tensor<70x40xf16>, %w: tensor<40x66xf16>, %b: tensor<66xf16>) -> tensor<70x66xf16> {\n"
     "  %m = dlc.matmul %a, %w : (tensor<70x40xf16>, tensor<40x66xf16>) -> tensor<70x66xf16>\n"
     "  %x = dlc.add %m, %b : (tensor<70x66xf16>, tensor<66xf16>) -> tensor<70x66xf16>\n"
     "  %r = dlc.gelu %x : tensor<70x66xf16>\n"
     "  return %r : tensor<70x66xf16> }",
     2e-3},
    {"matmul_f16_vector_loads_ragged",
     "func.func @main(%a: tensor<3x70x48xf16>, %w: tensor<48x72xf16>) -> tensor<3x70x72xf16> {\n"
     "  %m = dlc.matmul %a, %w : (tensor<3x70x48xf16>, tensor<48x72xf16>) -> tensor<3x70x72xf16>\n"
     "  return %m : tensor<3x70x72xf16> }",
     2e-3},
    {"linear_bf16_vector_loads",
     "func.func @main(%x: tensor<33x40xbf16>, %w: tensor<72x40xbf16>, %b: tensor<72xbf16>) -> tensor<33x72xbf16> {\n"
     "  %y = dlc.linear %x, %w, %b : (tensor<33x40xbf16>, tensor<72x40xbf16>, tensor<72xbf16>) -> tensor<33x72xbf16>\n"
     "  return %y : tensor<33x72xbf16> }",
     1e-2},
    {"matmul_bf16_tensor_core_batched",
     "func.func @main(%a: tensor<2x20x33xbf16>, %w: tensor<2x33x24xbf16>) -> tensor<2x20x24xbf16> {\n"
     "  %m = dlc.matmul %a, %w : (tensor<2x20x33xbf16>, tensor<2x33x24xbf16>) -> tensor<2x20x24xbf16>\n"
     "  return %m : tensor<2x20x24xbf16> }",
     1e-2},
    {"linear_f32_weight_operand",
     "func.func @main(%x: tensor<2x35x20xf32>, %w: tensor<70x20xf32>, %b: tensor<70xf32>) -> tensor<2x35x70xf32> {\n"
     "  %y = dlc.linear %x, %w, %b : (tensor<2x35x20xf32>, tensor<70x20xf32>, tensor<70xf32>) -> tensor<2x35x70xf32>\n"
     "  %r = dlc.sigmoid %y : tensor<2x35x70xf32>\n"
     "  return %r : tensor<2x35x70xf32> }",
     1e-5},
    {"linear_f16_tensor_core",
     "func.func @main(%x: tensor<9x40xf16>, %w: tensor<20x40xf16>) -> tensor<9x20xf16> {\n"
     "  %y = dlc.linear %x, %w : (tensor<9x40xf16>, tensor<20x40xf16>) -> tensor<9x20xf16>\n"
     "  return %y : tensor<9x20xf16> }",
     2e-3},
    {"matmul_i32",
     "func.func @main(%a: tensor<5x7xi32>, %b: tensor<7x3xi32>) -> tensor<5x3xi32> {\n"
     "  %m = dlc.matmul %a, %b : (tensor<5x7xi32>, tensor<7x3xi32>) -> tensor<5x3xi32>\n"
     "  return %m : tensor<5x3xi32> }",
     0},
    {"reduce_then_broadcast_add",
     "func.func @main(%a: tensor<4x6x5xf32>, %b: tensor<3x4x5xf32>) -> (tensor<4x5xf32>, tensor<3x4x5xf32>) {\n"
     "  %r = dlc.reduce_sum %a {axes = array<i64: 1>} : tensor<4x6x5xf32> -> tensor<4x5xf32>\n"
     "  %s = dlc.add %r, %b : (tensor<4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xf32>\n"
     "  return %r, %s : tensor<4x5xf32>, tensor<3x4x5xf32> }",
     1e-5},
    {"inlined_constants_layer_norm",
     "func.func @main(%a: tensor<5x6xf32>) -> tensor<5x6xf32> {\n"
     "  %g = dlc.constant dense<[1.0, 0.5, -2.0, 1.5, 0.25, 3.0]> : tensor<6xf32>\n"
     "  %b = dlc.constant dense<0.125> : tensor<6xf32>\n"
     "  %r = dlc.layer_norm %a, %g, %b : (tensor<5x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<5x6xf32>\n"
     "  return %r : tensor<5x6xf32> }",
     1e-5},
    {"inlined_constant_f16_weight",
     "func.func @main(%a: tensor<5x8xf16>) -> tensor<5x6xf16> {\n"
     "  %w = dlc.constant dense<[[-0.750, 0.125, -0.625, 0.250, -0.500, 0.375], [-0.375, 0.500, -0.250, 0.625, -0.125, 0.750], [0.000, -0.750, 0.125, -0.625, 0.250, -0.500], [0.375, -0.375, 0.500, -0.250, 0.625, -0.125], [0.750, 0.000, -0.750, 0.125, -0.625, 0.250], [-0.500, 0.375, -0.375, 0.500, -0.250, 0.625], [-0.125, 0.750, 0.000, -0.750, 0.125, -0.625], [0.250, -0.500, 0.375, -0.375, 0.500, -0.250]]> : tensor<8x6xf16>\n"
     "  %m = dlc.matmul %a, %w : (tensor<5x8xf16>, tensor<8x6xf16>) -> tensor<5x6xf16>\n"
     "  return %m : tensor<5x6xf16> }",
     2e-3},
    {"transpose_f16",
     "func.func @main(%a: tensor<3x5x7xf16>) -> tensor<7x3x5xf16> {\n"
     "  %r = dlc.transpose %a {perm = array<i64: 2, 0, 1>} : tensor<3x5x7xf16> -> tensor<7x3x5xf16>\n"
     "  return %r : tensor<7x3x5xf16> }",
     0},
    {"slice_strided",
     "func.func @main(%a: tensor<6x9xf32>) -> tensor<3x3xf32> {\n"
     "  %s = dlc.slice %a {starts = array<i64: 1, 2>, ends = array<i64: 6, 9>, steps = array<i64: 2, 3>} : tensor<6x9xf32> -> tensor<3x3xf32>\n"
     "  return %s : tensor<3x3xf32> }",
     0},
    {"concat_neg",
     "func.func @main(%a: tensor<6x9xf16>, %b: tensor<6x4xf16>) -> tensor<6x13xf16> {\n"
     "  %c = dlc.concat %a, %b {axis = 1} : (tensor<6x9xf16>, tensor<6x4xf16>) -> tensor<6x13xf16>\n"
     "  %n = dlc.neg %c : tensor<6x13xf16>\n"
     "  return %n : tensor<6x13xf16> }",
     0},
    {"split_uneven_then_add",
     "func.func @main(%a: tensor<3x10xf32>, %b: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x6xf32>) {\n"
     "  %x, %y = dlc.split %a {axis = 1, sizes = array<i64: 4, 6>} : tensor<3x10xf32> -> tensor<3x4xf32>, tensor<3x6xf32>\n"
     "  %s = dlc.add %x, %b : tensor<3x4xf32>\n"
     "  return %s, %y : tensor<3x4xf32>, tensor<3x6xf32> }",
     0},
    {"gather_rows",
     "func.func @main(%t: tensor<10x6xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x6xf32> {\n"
     "  %r = dlc.gather %t, %i {axis = 0} : (tensor<10x6xf32>, tensor<2x3xi64>) -> tensor<2x3x6xf32>\n"
     "  return %r : tensor<2x3x6xf32> }",
     0},
    {"scatter_rows_add_then_mul",
     "func.func @main(%d: tensor<7x5xf32>, %i: tensor<9x1xi64>, %u: tensor<9x5xf32>) -> tensor<7x5xf32> {\n"
     "  %r = dlc.scatter_elements %d, %i, %u {axis = 0, reduction = \"add\"} : (tensor<7x5xf32>, tensor<9x1xi64>, tensor<9x5xf32>) -> tensor<7x5xf32>\n"
     "  %m = dlc.mul %r, %d : tensor<7x5xf32>\n"
     "  return %m : tensor<7x5xf32> }",
     1e-6},
    {"scatter_axis1_duplicates_f16",
     "func.func @main(%d: tensor<4x8xf16>, %i: tensor<3x6xi32>, %u: tensor<3x6xf16>) -> tensor<4x8xf16> {\n"
     "  %r = dlc.scatter_elements %d, %i, %u {axis = 1} : (tensor<4x8xf16>, tensor<3x6xi32>, tensor<3x6xf16>) -> tensor<4x8xf16>\n"
     "  return %r : tensor<4x8xf16> }",
     0},
    {"scatter_max_i32",
     "func.func @main(%d: tensor<7x3xi32>, %i: tensor<10x3xi64>, %u: tensor<10x3xi32>) -> tensor<7x3xi32> {\n"
     "  %r = dlc.scatter_elements %d, %i, %u {axis = 0, reduction = \"max\"} : (tensor<7x3xi32>, tensor<10x3xi64>, tensor<10x3xi32>) -> tensor<7x3xi32>\n"
     "  return %r : tensor<7x3xi32> }",
     0},
    {"top_k_axis1_fused_add",
     "func.func @main(%x: tensor<5x13x3xf32>) -> (tensor<5x4x3xf32>, tensor<5x4x3xi64>) {\n"
     "  %v, %i = dlc.top_k %x {axis = 1, k = 4} : tensor<5x13x3xf32> -> tensor<5x4x3xf32>, tensor<5x4x3xi64>\n"
     "  %s = dlc.add %v, %v : tensor<5x4x3xf32>\n"
     "  return %s, %i : tensor<5x4x3xf32>, tensor<5x4x3xi64> }",
     0},
    {"top_k_smallest_i32_ties",
     "func.func @main(%x: tensor<4x9xi32>) -> (tensor<4x9xi32>, tensor<4x9xi64>) {\n"
     "  %v, %i = dlc.top_k %x {axis = -1, k = 9, largest = false} : tensor<4x9xi32> -> tensor<4x9xi32>, tensor<4x9xi64>\n"
     "  return %v, %i : tensor<4x9xi32>, tensor<4x9xi64> }",
     0},
    {"top_k_f16_indices_only",
     "func.func @main(%x: tensor<6x5xf16>) -> tensor<1x5xi64> {\n"
     "  %v, %i = dlc.top_k %x {axis = 0, k = 1} : tensor<6x5xf16> -> tensor<1x5xf16>, tensor<1x5xi64>\n"
     "  return %i : tensor<1x5xi64> }",
     0},
    {"reduce_prod_i32_wraps",
     "func.func @main(%a: tensor<4x24xi32>) -> tensor<4x1xi32> {\n"
     "  %p = dlc.reduce_prod %a {axes = array<i64: 1>, keepdims = true} : tensor<4x24xi32> -> tensor<4x1xi32>\n"
     "  return %p : tensor<4x1xi32> }",
     0},
    {"reduce_max_i32",
     "func.func @main(%a: tensor<4x24xi32>) -> tensor<4xi32> {\n"
     "  %m = dlc.reduce_max %a {axes = array<i64: 1>} : tensor<4x24xi32> -> tensor<4xi32>\n"
     "  return %m : tensor<4xi32> }",
     0},
    {"reduce_mean_f64_trailing",
     "func.func @main(%a: tensor<3x5x7xf64>) -> tensor<3xf64> {\n"
     "  %m = dlc.reduce_mean %a {axes = array<i64: 1, 2>} : tensor<3x5x7xf64> -> tensor<3xf64>\n"
     "  return %m : tensor<3xf64> }",
     1e-15},
    {"max_pool_f64",
     "func.func @main(%a: tensor<2x3x9x7xf64>) -> tensor<2x3x5x4xf64> {\n"
     "  %m = dlc.max_pool2d %a {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 1>} : tensor<2x3x9x7xf64> -> tensor<2x3x5x4xf64>\n"
     "  return %m : tensor<2x3x5x4xf64> }",
     0},
    {"avg_pool_f64",
     "func.func @main(%a: tensor<2x3x9x7xf64>) -> tensor<2x3x9x7xf64> {\n"
     "  %v = dlc.avg_pool2d %a {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<2x3x9x7xf64> -> tensor<2x3x9x7xf64>\n"
     "  return %v : tensor<2x3x9x7xf64> }",
     1e-15},
    {"global_avg_pool_f64",
     "func.func @main(%a: tensor<2x3x9x7xf64>) -> tensor<2x3x1x1xf64> {\n"
     "  %g = dlc.global_avg_pool %a : tensor<2x3x9x7xf64> -> tensor<2x3x1x1xf64>\n"
     "  return %g : tensor<2x3x1x1xf64> }",
     1e-15},
    {"batch_norm_f64",
     "func.func @main(%a: tensor<2x3x4x5xf64>, %s: tensor<3xf64>) -> tensor<2x3x4x5xf64> {\n"
     "  %var = dlc.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf64>\n"
     "  %b = dlc.batch_norm %a, %s, %s, %s, %var : (tensor<2x3x4x5xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x4x5xf64>\n"
     "  return %b : tensor<2x3x4x5xf64> }",
     1e-14},
    {"max_pool",
     "func.func @main(%a: tensor<2x3x9x7xf32>) -> tensor<2x3x5x4xf32> {\n"
     "  %m = dlc.max_pool2d %a {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 1>} : tensor<2x3x9x7xf32> -> tensor<2x3x5x4xf32>\n"
     "  return %m : tensor<2x3x5x4xf32> }",
     0},
    {"avg_pool_f16",
     "func.func @main(%a: tensor<2x3x9x7xf16>) -> tensor<2x3x9x7xf16> {\n"
     "  %v = dlc.avg_pool2d %a {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<2x3x9x7xf16> -> tensor<2x3x9x7xf16>\n"
     "  return %v : tensor<2x3x9x7xf16> }",
     1e-3},
    {"global_avg_pool",
     "func.func @main(%a: tensor<2x3x9x7xf32>) -> tensor<2x3x1x1xf32> {\n"
     "  %g = dlc.global_avg_pool %a : tensor<2x3x9x7xf32> -> tensor<2x3x1x1xf32>\n"
     "  return %g : tensor<2x3x1x1xf32> }",
     1e-5},
    {"conv2d_grouped_relu",
     "func.func @main(%x: tensor<2x4x9x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x5x4xf32> {\n"
     "  %c = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 0>, groups = 2} : (tensor<2x4x9x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<2x6x5x4xf32>\n"
     "  %r = dlc.relu %c : tensor<2x6x5x4xf32>\n"
     "  return %r : tensor<2x6x5x4xf32> }",
     1e-5},
    {"conv2d_f16_tensor_core_dilated",
     "func.func @main(%x: tensor<2x5x11x9xf16>, %w: tensor<7x5x3x2xf16>, %b: tensor<7xf16>) -> tensor<2x7x4x4xf16> {\n"
     "  %c = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, dilations = array<i64: 2, 3>} : (tensor<2x5x11x9xf16>, tensor<7x5x3x2xf16>, tensor<7xf16>) -> tensor<2x7x4x4xf16>\n"
     "  %r = dlc.relu %c : tensor<2x7x4x4xf16>\n"
     "  return %r : tensor<2x7x4x4xf16> }",
     2e-3},
    {"batch_norm_f32",
     "func.func @main(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>) -> tensor<2x3x4x5xf32> {\n"
     "  %v = dlc.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf32>\n"
     "  %r = dlc.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>\n"
     "  return %r : tensor<2x3x4x5xf32> }",
     1e-5},
};

ref::DType refType(Type t) { return *dlc::refDTypeOf(t); }

size_t elementBytes(ref::DType t) { return static_cast<size_t>(ref::storageBytes(t)); }

std::vector<unsigned char> toBytes(const ref::Tensor &t) {
  size_t size = elementBytes(t.dtype);
  std::vector<unsigned char> out(t.data.size() * size);
  for (size_t i = 0; i < t.data.size(); ++i) {
    uint64_t bits = ref::encodeElement(t.dtype, t.data[i]);
    std::memcpy(&out[i * size], &bits, size); // little-endian: the low bytes
  }
  return out;
}

double fromBytes(ref::DType t, const unsigned char *p) { return ref::decodeElement(t, p); }

/// All cases' kernels in one shared object, built once.
class Emulated {
public:
  static Emulated &get() {
    static Emulated e;
    return e;
  }
  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::vector<std::string> errors; // per case: emitter errors
  std::string buildError;
  void *library = nullptr;

private:
  Emulated() {
    context.loadDialect<dlc::DlcDialect, func::FuncDialect>();
    std::string source = "#include \"cuda_emu.h\"\n" + dlc::cuda::preamble();
    std::string launchers =
        "#include <utility>\n"
        "template <typename... P, size_t... I>\n"
        "void dlc_call(void (*k)(P...), void **b, std::index_sequence<I...>) { k(static_cast<P>(b[I])...); }\n";
    for (auto [index, c] : llvm::enumerate(kCases)) {
      modules.push_back(parseSourceString<ModuleOp>(c.mlir, &context));
      errors.emplace_back();
      if (!*modules.back()) { errors.back() = "parse error"; continue; }
      auto func = modules.back()->lookupSymbol<func::FuncOp>("main");
      std::vector<Operation *> ops;
      std::vector<std::string> names;
      unsigned ordinal = 0;
      for (Operation &op : func.getBody().front()) {
        ++ordinal;
        if (isa<dlc::ConstantOp, func::ReturnOp>(op)) continue;
        ops.push_back(&op);
        names.push_back(dlc::opName(&op, ordinal));
      }
      std::vector<Value> inputs(func.getArguments().begin(), func.getArguments().end());
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      std::vector<Value> outputs(ret.getOperands().begin(), ret.getOperands().end());
      std::string entry = "k" + std::to_string(index);
      std::string diagnostics;
      ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
        diagnostics += d.str() + "\n";
        return success();
      });
      FailureOr<dlc::cuda::KernelSource> kernel =
          dlc::cuda::emitKernel(ops, inputs, outputs, entry, names);
      if (failed(kernel)) { errors.back() = "emitter: " + diagnostics; continue; }
      source += "\n" + kernel->code;
      launchers += "extern \"C\" void run_" + entry + "(void **b) {\n  ::dlc_emu::launch(dim3(" +
                   std::to_string(kernel->grid[0]) + ", " + std::to_string(kernel->grid[1]) + ", " +
                   std::to_string(kernel->grid[2]) + "), dim3(" + std::to_string(kernel->block[0]) +
                   ", " + std::to_string(kernel->block[1]) + ", " + std::to_string(kernel->block[2]) +
                   "), [&] { dlc_call(" + entry + ", b, std::make_index_sequence<" +
                   std::to_string(inputs.size() + outputs.size()) + ">()); });\n}\n";
    }
    llvm::SmallString<128> dir;
    llvm::sys::fs::createUniqueDirectory("dlc-cuda-emu", dir);
    std::string cpp = (dir + "/kernels.cpp").str(), so = (dir + "/kernels.so").str();
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(cpp, ec);
      os << source << "\n" << launchers;
    }
    std::string command = std::string(DLC_HOST_CXX) + " -std=c++17 -O1 -shared -fPIC -w -I" +
                          DLC_CUDA_EMU_DIR + " " + cpp + " -o " + so + " 2>" + (dir + "/log").str();
    if (std::system(command.c_str()) != 0) {
      buildError = "host compile failed: " + command + " (sources in " + dir.str().str() + ")";
      return;
    }
    library = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) buildError = dlerror();
  }
};

class EmulatedKernel : public ::testing::TestWithParam<unsigned> {};

TEST_P(EmulatedKernel, MatchesInterpreter) {
  Emulated &e = Emulated::get();
  const Case &c = kCases[GetParam()];
  ASSERT_EQ(e.errors[GetParam()], "");
  ASSERT_NE(e.library, nullptr) << e.buildError;
  auto func = e.modules[GetParam()]->lookupSymbol<func::FuncOp>("main");
  std::mt19937 rng(GetParam() + 1);
  std::vector<ref::Tensor> inputs;
  for (BlockArgument arg : func.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    ref::DType dt = refType(type.getElementType());
    std::vector<double> values(type.getNumElements());
    for (double &v : values) {
      if (dt == ref::DType::I64 || dt == ref::DType::I32)
        v = static_cast<int>(rng() % 10) - 3; // gather indices, negatives included
      else
        v = std::uniform_real_distribution<double>(-2.0, 2.0)(rng);
    }
    if (c.name == std::string("layer_norm_f16_block") && arg.getArgNumber() == 0)
      for (double &v : values) v += 3.0; // a mean far from zero
    if (c.name == std::string("reduce_prod_i32_wraps"))
      for (double &v : values) v += 10.0; // no zero: 24 factors of 7..16 wrap
    inputs.push_back(ref::Tensor::fromValues(dt, shape, values));
  }
  FailureOr<std::vector<ref::Tensor>> expected = dlc::interpretFunction(func, inputs);
  ASSERT_TRUE(succeeded(expected));
  std::vector<std::vector<unsigned char>> storage;
  for (const ref::Tensor &t : inputs) storage.push_back(toBytes(t));
  for (const ref::Tensor &t : *expected) // outputs start as NaN garbage
    storage.emplace_back(t.data.size() * elementBytes(t.dtype), 0xff);
  std::vector<void *> pointers;
  for (auto &s : storage) pointers.push_back(s.data());
  auto run = reinterpret_cast<void (*)(void **)>(
      dlsym(e.library, ("run_k" + std::to_string(GetParam())).c_str()));
  ASSERT_NE(run, nullptr);
  run(pointers.data());
  for (auto [k, t] : llvm::enumerate(*expected)) {
    const auto &bytes = storage[inputs.size() + k];
    size_t size = elementBytes(t.dtype);
    int bad = 0;
    for (size_t i = 0; i < t.data.size() && bad < 5; ++i) {
      double got = fromBytes(t.dtype, &bytes[i * size]), want = t.data[i];
      double allowed = c.tolerance * std::max(1.0, std::fabs(want));
      if (!(std::fabs(got - want) <= allowed)) {
        ++bad;
        ADD_FAILURE() << c.name << ": output " << k << " element " << i << ": got " << got
                      << ", expected " << want;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, EmulatedKernel,
                         ::testing::Range(0u, static_cast<unsigned>(std::size(kCases))),
                         [](const auto &info) { return std::string(kCases[info.param].name); });

TEST(EmulatedKernelSource, RefusesWhatItCannotRun) {
  // A row reduction's epilogue cannot broadcast its result: the diagnostic
  // names the op.
  MLIRContext &ctx = Emulated::get().context;
  auto module = parseSourceString<ModuleOp>(
      "func.func @main(%a: tensor<4x8xf32>, %b: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {\n"
      "  %m = dlc.softmax %a : tensor<4x8xf32>\n"
      "  %s = dlc.add %m, %b : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>\n"
      "  return %s : tensor<3x4x8xf32> }",
      &ctx);
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<func::FuncOp>("main");
  Operation *softmax = &func.getBody().front().front();
  Operation *add = softmax->getNextNode();
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  std::vector<Value> ins(func.getArguments().begin(), func.getArguments().end());
  std::vector<Value> outs{add->getResult(0)};
  EXPECT_TRUE(failed(dlc::cuda::emitKernel({softmax, add}, ins, outs, "k", {"/sm", "/add"})));
  EXPECT_NE(message.find("cannot fuse an elementwise op that broadcasts the result of '/sm'"),
            std::string::npos) << message;
  EXPECT_TRUE(dlc::cuda::supportsOpKind("split"));
  EXPECT_TRUE(dlc::cuda::supportsOpKind("matmul"));
  EXPECT_FALSE(dlc::cuda::supportsOpKind("no_such_op"));
}

TEST(Nvrtc, ErrorsNameTheKernelAndItsOps) {
  if (llvm::Error unavailable = dlc::cuda::nvrtcAvailable())
    GTEST_SKIP() << llvm::toString(std::move(unavailable));
  dlc::cuda::KernelSource good, bad;
  good.entry = "k0";
  good.ops = {"/fine/Relu"};
  good.code = "extern \"C\" __global__ void k0(float *p0) { p0[threadIdx.x] = 0.0f; }\n";
  bad.entry = "k1";
  bad.ops = {"/broken/MatMul", "/broken/Add"};
  bad.code = "extern \"C\" __global__ void k1(float *p0) { p0[0] = undeclared_name; }\n";
  llvm::Expected<dlc::cuda::CompiledModule> ok = dlc::cuda::compileKernels({good}, {"sm_80", "sm_90"});
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  EXPECT_EQ(ok->ptxArch, "compute_80");
  EXPECT_NE(ok->ptx.find(".entry k0"), std::string::npos);
  ASSERT_EQ(ok->cubins.size(), 2u);
  EXPECT_EQ(ok->cubins[1].first, "sm_90");
  EXPECT_EQ(ok->cubins[1].second.substr(0, 4), "\x7f" "ELF");

  llvm::Expected<dlc::cuda::CompiledModule> failed = dlc::cuda::compileKernels({good, bad}, {"sm_90"});
  ASSERT_FALSE(bool(failed));
  std::string message = llvm::toString(failed.takeError());
  EXPECT_NE(message.find("kernel k1 (ops: /broken/MatMul, /broken/Add): NVRTC failed to compile k1.cu"),
            std::string::npos) << message;
  EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message; // the log
  EXPECT_EQ(message.find("kernel k0"), std::string::npos) << message;
}

} // namespace

// Every op of the dialect has a CUDA kernel, or is structure that never runs
// as one, or is listed here as CPU-only: a new op cannot quietly fall back to
// the CPU on GPU placements.
TEST(CudaBackend, CoversEveryOpOfTheDialect) {
  MLIRContext ctx;
  ctx.loadDialect<dlc::DlcDialect>();
  const std::set<std::string> structure = {"kernel", "yield"};
  // dlc.loop: the CUDA code generator has no loops yet; placement puts a
  // loop on the CPU with reason `unsupported` (test/e2e/loops.mlir).
  const std::set<std::string> cpuOnly = {"loop"};
  int ops = 0;
  for (RegisteredOperationName op : ctx.getRegisteredOperations()) {
    if (op.getDialectNamespace() != "dlc")
      continue;
    ++ops;
    std::string kind = op.getStringRef().drop_front(4).str(); // "dlc."
    if (structure.count(kind) || cpuOnly.count(kind))
      EXPECT_FALSE(dlc::cuda::supportsOpKind(kind)) << kind;
    else
      EXPECT_TRUE(dlc::cuda::supportsOpKind(kind)) << "dlc." << kind << " has no CUDA kernel";
  }
  EXPECT_GT(ops, 50);
}
