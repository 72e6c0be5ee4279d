// Operators the importer builds from other ops (README.md's decomposition
// table): DepthToSpace as reshape, rank-6 transpose, reshape; EyeLike as a
// constant (it depends on the input's static shape only); Pow of an integer
// base in f64, truncated back; CastLike as a cast to the other input's type;
// opset 18's Split by num_outputs (the last chunk smaller), Mish as
// x tanh(softplus x), ReduceMin of integers as -1 - max(-1 - x) (exact for
// unsigned types, where -x wraps at 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %make-onnx depth_to_space_crd %t/d2s.onnx
// RUN: dlc import %t/d2s.onnx | FileCheck %s --check-prefix=D2S
// RUN: %make-onnx eye_like_k %t/eye.onnx
// RUN: dlc import %t/eye.onnx | FileCheck %s --check-prefix=EYE
// RUN: %make-onnx pow_int %t/pow.onnx
// RUN: dlc import %t/pow.onnx | FileCheck %s --check-prefix=POW
// RUN: %make-onnx split_num_outputs %t/split18.onnx
// RUN: dlc import %t/split18.onnx | FileCheck %s --check-prefix=SPLIT
// RUN: %make-onnx mish %t/mish.onnx
// RUN: dlc import %t/mish.onnx | FileCheck %s --check-prefix=MISH
// RUN: %make-onnx reduce_min_u8 %t/rmin.onnx
// RUN: dlc import %t/rmin.onnx | FileCheck %s --check-prefix=RMIN
// RUN: %make-onnx castlike_u8 %t/castlike.onnx
// RUN: dlc import %t/castlike.onnx | FileCheck %s --check-prefix=CASTLIKE

// D2S: dlc.reshape %{{.*}} : tensor<1x8x2x3xf32> -> tensor<1x2x2x2x2x3xf32>
// D2S: dlc.transpose %{{.*}} {perm = array<i64: 0, 1, 4, 2, 5, 3>} : tensor<1x2x2x2x2x3xf32> -> tensor<1x2x2x2x3x2xf32>
// D2S: dlc.reshape %{{.*}} : tensor<1x2x2x2x3x2xf32> -> tensor<1x2x4x6xf32>

// EYE: dlc.constant dense<{{\[}}[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]> : tensor<3x4xi32>

// POW: dlc.cast %{{.*}} : tensor<3xi32> -> tensor<3xf64>
// POW: dlc.cast %{{.*}} : tensor<3xf32> -> tensor<3xf64>
// POW: dlc.pow %{{.*}}, %{{.*}} : tensor<3xf64>
// POW: dlc.cast %{{.*}} : tensor<3xf64> -> tensor<3xi32>

// CASTLIKE: dlc.cast %{{.*}} : tensor<4xf32> -> tensor<4xui8>

// SPLIT: dlc.split %{{.*}} {axis = 1 : i64, sizes = array<i64: 3, 3, 1>}

// MISH-DAG: dlc.relu
// MISH-DAG: dlc.log
// MISH: dlc.tanh
// MISH: dlc.mul

// RMIN: %[[ONES:.*]] = dlc.constant dense<255> : tensor<1x1xui8>
// RMIN: %[[FLIP:.*]] = dlc.sub %[[ONES]], %arg0
// RMIN: %[[MAX:.*]] = dlc.reduce_max %[[FLIP]] {axes = array<i64: 1>}
// RMIN: dlc.sub %{{.*}}, %[[MAX]]
