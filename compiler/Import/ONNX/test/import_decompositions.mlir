// Operators the importer builds from other ops (README.md's decomposition
// table): DepthToSpace as reshape, rank-6 transpose, reshape; EyeLike as a
// constant (it depends on the input's static shape only); Pow of an integer
// base in f64, truncated back; CastLike as a cast to the other input's type;
// opset 18's Split by num_outputs (the last chunk smaller), Mish as
// x tanh(softplus x), ReduceMin of integers as -1 - max(-1 - x) (exact for
// unsigned types, where -x wraps at 0); CumSum as a matmul with a triangle
// of ones along the axis; OneHot as compare with [0, depth) and select; Pad's
// reflect, edge and wrap modes as a gather with constant indices per axis.
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
// RUN: %make-onnx cumsum_reverse %t/cumsum.onnx
// RUN: dlc import %t/cumsum.onnx | FileCheck %s --check-prefix=CUMSUM
// RUN: %make-onnx one_hot %t/onehot.onnx
// RUN: dlc import %t/onehot.onnx | FileCheck %s --check-prefix=ONEHOT
// RUN: %make-onnx pad_reflect %t/reflect.onnx
// RUN: dlc import %t/reflect.onnx | FileCheck %s --check-prefix=REFLECT
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

// A reversed exclusive sum takes the elements after each: a strict lower
// triangle [from j][to i], j > i.
// CUMSUM: %[[T:.*]] = dlc.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<3x3xf32>
// CUMSUM: %[[X:.*]] = dlc.transpose %arg0 {perm = array<i64: 1, 0>}
// CUMSUM: %[[Y:.*]] = dlc.matmul %[[X]], %[[T]] : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
// CUMSUM: dlc.transpose %[[Y]] {perm = array<i64: 1, 0>}

// ONEHOT: dlc.compare "lt"
// ONEHOT: dlc.select
// ONEHOT: %[[HIT:.*]] = dlc.compare "eq", %{{.*}}, %{{.*}} : (tensor<1x2xi64>, tensor<3x1xi64>) -> tensor<3x2xi1>
// ONEHOT: %[[OFF:.*]] = dlc.slice %arg1 {ends = array<i64: 1>, starts = array<i64: 0>
// ONEHOT: %[[OFF2:.*]] = dlc.reshape %[[OFF]]
// ONEHOT: %[[ON:.*]] = dlc.slice %arg1 {ends = array<i64: 2>, starts = array<i64: 1>
// ONEHOT: %[[ON2:.*]] = dlc.reshape %[[ON]]
// ONEHOT: dlc.select %[[HIT]], %[[ON2]], %[[OFF2]]

// Reflect-padding [2, 4] by one column each side: columns 1, 0 1 2 3, 2.
// REFLECT: %[[I:.*]] = dlc.constant dense<[1, 0, 1, 2, 3, 2]> : tensor<6xi64>
// REFLECT: dlc.gather %arg0, %[[I]] {axis = 1 : i64} : (tensor<2x4xf32>, tensor<6xi64>) -> tensor<2x6xf32>
