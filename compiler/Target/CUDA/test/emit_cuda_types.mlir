// Kernels on f64 and on the 8/16-bit and unsigned integers: buffers of their
// C types, integers computed in 32 bits and wrapped after every op, unsigned
// arithmetic unsigned, double math functions on f64, integer clip bounds
// saturated to the type. Reductions of integers accumulate in wrapping
// 64-bit arithmetic (the pointwise kernel, not the float row kernel); pools
// on f64 in double. An f64 matmul has no CUDA kernel: it is placed on the
// CPU (reason unsupported).
// RUN: dlc compile %s --entry=typed --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s
// RUN: dlc compile %s --entry=reduce_u8 --devices=cpu,cuda:0 --placement=gpu --print-placement --emit=mlir 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: dlc compile %s --entry=reduce_u8 --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=REDUCE-CODE

// CHECK: const unsigned char *__restrict__ p0, const unsigned char *__restrict__ p1, unsigned char *__restrict__ p2
// CHECK: const unsigned int x0 = p0[c0];
// CHECK: = (unsigned int)(unsigned char)(x0 + x1);  // dlc.add
// CHECK: = (unsigned int)(unsigned char)(add_0_2 / x1);  // dlc.div
// CHECK: p2[c0] = (unsigned char)(div_1_3);
// CHECK: = (int)(short)((int)(short)(x0));  // dlc.cast
// CHECK: const double *__restrict__ p0, double *__restrict__ p1
// CHECK: = tanh(x0);  // dlc.tanh
// CHECK: (x0 < -32768 ? -32768 : (x0 > 100 ? 100 : x0))
// REDUCE-DAG: cuda:0    default {{.*}} ui8   dlc.reduce_sum
// REDUCE-DAG: cuda:0    default {{.*}} f64   dlc.max_pool2d
// REDUCE-DAG: cpu       unsupported {{.*}} f64   dlc.matmul
// REDUCE-CODE: unsigned long long acc_{{[0-9]+}} = 0;  // dlc.reduce_sum
// REDUCE-CODE: acc_{{[0-9]+}} += (unsigned long long)x{{[0-9]+}};
// REDUCE-CODE: = (unsigned int)(unsigned char)((unsigned int)(acc_{{[0-9]+}}));
// REDUCE-CODE: long long acc_{{[0-9]+}} = 1;  // dlc.reduce_prod
// REDUCE-CODE: acc_{{[0-9]+}} *= (unsigned long long)(long long)x{{[0-9]+}};
// REDUCE-CODE: = (int)((long long)acc_{{[0-9]+}});
// REDUCE-CODE: double max_{{[0-9]+}} = (-(double)DLC_INF);  // dlc.max_pool2d
func.func @typed(%a: tensor<8xui8>, %b: tensor<8xui8>, %d: tensor<8xf64>) -> (tensor<8xui8>, tensor<8xi16>, tensor<8xf64>) {
  %0 = dlc.add %a, %b : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  %1 = dlc.div %0, %b : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  %2 = dlc.cast %1 : tensor<8xui8> -> tensor<8xi16>
  %3 = dlc.tanh %d : tensor<8xf64>
  %4 = dlc.clip %2 {min = -40000.0, max = 100.5} : tensor<8xi16>
  return %1, %4, %3 : tensor<8xui8>, tensor<8xi16>, tensor<8xf64>
}
func.func @reduce_u8(%a: tensor<4x8xui8>, %b: tensor<4x8xi32>, %d: tensor<2x3x5x5xf64>, %m: tensor<3x3xf64>) -> (tensor<4xui8>, tensor<4x1xi32>, tensor<2x3x2x2xf64>, tensor<3x3xf64>) {
  %0 = dlc.reduce_sum %a {axes = array<i64: 1>} : tensor<4x8xui8> -> tensor<4xui8>
  %1 = dlc.reduce_prod %b {axes = array<i64: 1>, keepdims = true} : tensor<4x8xi32> -> tensor<4x1xi32>
  %2 = dlc.max_pool2d %d {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : tensor<2x3x5x5xf64> -> tensor<2x3x2x2xf64>
  %3 = dlc.matmul %m, %m : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4x1xi32>, tensor<2x3x2x2xf64>, tensor<3x3xf64>
}
