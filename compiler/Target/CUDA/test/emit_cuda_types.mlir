// Kernels on f64 and on the 8/16-bit and unsigned integers: buffers of their
// C types, integers computed in 32 bits and wrapped after every op, unsigned
// arithmetic unsigned, double math functions on f64, integer clip bounds
// saturated to the type. A reduction on u8 has no CUDA kernel: it is placed
// on the CPU (reason unsupported).
// RUN: dlc compile %s --entry=typed --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s
// RUN: dlc compile %s --entry=reduce_u8 --devices=cpu,cuda:0 --placement=gpu --print-placement --emit=mlir 2>&1 | FileCheck %s --check-prefix=REDUCE

// CHECK: const unsigned char *__restrict__ p0, const unsigned char *__restrict__ p1, unsigned char *__restrict__ p2
// CHECK: const unsigned int x0 = p0[c0];
// CHECK: = (unsigned int)(unsigned char)(x0 + x1);  // dlc.add
// CHECK: = (unsigned int)(unsigned char)(add_0_2 / x1);  // dlc.div
// CHECK: p2[c0] = (unsigned char)(div_1_3);
// CHECK: = (int)(short)((int)(short)(x0));  // dlc.cast
// CHECK: const double *__restrict__ p0, double *__restrict__ p1
// CHECK: = tanh(x0);  // dlc.tanh
// CHECK: (x0 < -32768 ? -32768 : (x0 > 100 ? 100 : x0))
// REDUCE: cpu       unsupported {{.*}} ui8   dlc.reduce_sum
func.func @typed(%a: tensor<8xui8>, %b: tensor<8xui8>, %d: tensor<8xf64>) -> (tensor<8xui8>, tensor<8xi16>, tensor<8xf64>) {
  %0 = dlc.add %a, %b : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  %1 = dlc.div %0, %b : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  %2 = dlc.cast %1 : tensor<8xui8> -> tensor<8xi16>
  %3 = dlc.tanh %d : tensor<8xf64>
  %4 = dlc.clip %2 {min = -40000.0, max = 100.5} : tensor<8xi16>
  return %1, %4, %3 : tensor<8xui8>, tensor<8xi16>, tensor<8xf64>
}
func.func @reduce_u8(%a: tensor<4x8xui8>) -> tensor<4xui8> {
  %0 = dlc.reduce_sum %a {axes = array<i64: 1>} : tensor<4x8xui8> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}
