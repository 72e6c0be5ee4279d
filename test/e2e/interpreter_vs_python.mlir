// The reference interpreter against an independent Python computation of the
// same network (Inputs/small_net.py): linear, gelu, layer_norm, softmax in f32,
// and an f16 branch whose rounding (once per op: (x / 3) * 3 is not x) must
// match IEEE binary16 bit for bit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/small_net.py write-inputs %t
// RUN: dlc interpret %s --input=x=%t/x.npy --output-dir %t/out | FileCheck %s
// RUN: %python %S/Inputs/small_net.py check %t | FileCheck %s --check-prefix=PY

// CHECK: probs: f32 [3,4]
// CHECK: half: f16 [3,4]
// PY: probs: 12 values within 2 ulp
// PY: half: 12 values bit-exact
func.func @main(%x: tensor<3x5xf32> {dlc.name = "x"})
    -> (tensor<3x4xf32> {dlc.name = "probs"}, tensor<3x4xf16> {dlc.name = "half"}) {
  %w = dlc.constant dense<[[-0.75, -0.5, -0.25, 0.0, 0.25], [0.5, 0.75, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, -0.75], [-0.5, -0.25, 0.0, 0.25, 0.5]]> : tensor<4x5xf32>
  %b = dlc.constant dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>
  %gamma = dlc.constant dense<[1.0, 0.5, 2.0, 1.5]> : tensor<4xf32>
  %beta = dlc.constant dense<[0.0, 0.25, -0.25, 0.5]> : tensor<4xf32>
  %h = dlc.linear %x, %w, %b : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %g = dlc.gelu %h : tensor<3x4xf32>
  %n = dlc.layer_norm %g, %gamma, %beta {epsilon = 1.0e-05 : f64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %p = dlc.softmax %n : tensor<3x4xf32>
  %gh = dlc.cast %g : tensor<3x4xf32> -> tensor<3x4xf16>
  %three = dlc.constant dense<3.0> : tensor<f16>
  %d = dlc.div %gh, %three : (tensor<3x4xf16>, tensor<f16>) -> tensor<3x4xf16>
  %m = dlc.mul %d, %three : (tensor<3x4xf16>, tensor<f16>) -> tensor<3x4xf16>
  %s3 = dlc.add %m, %gh : tensor<3x4xf16>
  return %p, %s3 : tensor<3x4xf32>, tensor<3x4xf16>
}
