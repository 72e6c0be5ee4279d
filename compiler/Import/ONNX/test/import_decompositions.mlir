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
// RUN: %make-onnx resize_linear %t/resize.onnx
// RUN: dlc import %t/resize.onnx | FileCheck %s --check-prefix=RESIZE
// RUN: %make-onnx conv_transpose_stride2 %t/convt.onnx
// RUN: dlc import %t/convt.onnx | FileCheck %s --check-prefix=CONVT
// RUN: %make-onnx slice_flip %t/flip.onnx
// RUN: dlc import %t/flip.onnx | FileCheck %s --check-prefix=BACKWARDS
// RUN: %make-onnx resize_antialias %t/antialias.onnx
// RUN: dlc import %t/antialias.onnx | FileCheck %s --check-prefix=ANTIALIAS
// RUN: %make-onnx resize_nearest_u8 %t/nearest.onnx
// RUN: dlc import %t/nearest.onnx | FileCheck %s --check-prefix=NEAREST
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

// Resize is separable: per resized axis, a gather per tap times its constant
// weight column, summed. Linear, align_corners, width 4 -> 8: source x = 3j/7,
// taps ceil(x) - 1 and ceil(x) (clamped), an integral x read exactly.
// RESIZE-DAG: %[[I0:.*]] = dlc.constant dense<[0, 0, 0, 1, 1, 2, 2, 2]> : tensor<8xi64>
// RESIZE-DAG: %[[I1:.*]] = dlc.constant dense<[0, 1, 1, 2, 2, 3, 3, 3]> : tensor<8xi64>
// RESIZE-DAG: %[[W0:.*]] = dlc.constant dense<{{\[\[\[\[}}0.000000e+00, 0.571428597, {{.*}}> : tensor<1x1x1x8xf32>
// RESIZE-DAG: %[[W1:.*]] = dlc.constant dense<{{\[\[\[\[}}1.000000e+00, 0.428571433, {{.*}}> : tensor<1x1x1x8xf32>
// RESIZE: %[[G0:.*]] = dlc.gather %arg0, %[[I0]] {axis = 3 : i64} : (tensor<1x1x2x4xf32>, tensor<8xi64>) -> tensor<1x1x2x8xf32>
// RESIZE: %[[M0:.*]] = dlc.mul %[[G0]], %[[W0]]
// RESIZE: %[[G1:.*]] = dlc.gather %arg0, %[[I1]] {axis = 3 : i64}
// RESIZE: %[[M1:.*]] = dlc.mul %[[G1]], %[[W1]]
// RESIZE: dlc.add %[[M0]], %[[M1]]
// RESIZE-NOT: dlc.gather
// Nearest on integers is a gather alone (asymmetric, floor: each column twice).
// NEAREST: %[[N:.*]] = dlc.constant dense<[0, 0, 1, 1, 2, 2]> : tensor<6xi64>
// NEAREST-NEXT: dlc.gather %arg0, %[[N]] {axis = 1 : i64} : (tensor<2x3xui8>, tensor<6xi64>) -> tensor<2x6xui8>
// NEAREST-NOT: dlc.mul
// Antialiased linear shrinking by 2 stretches the triangle filter over four
// taps (ONNX's reference; its node tests pass, test/onnx/pypi_node_tests.py).
// ANTIALIAS-COUNT-4: dlc.gather %arg0
// ANTIALIAS-NOT: dlc.gather

// ConvTranspose (stride 2, pads 1, output_padding 1, 3x3): zeros inserted
// between the 3 columns (5), padded by 2 - 1 = 1 before and 1 + 1 after (8),
// convolved at stride 1 with the filter's channels swapped and flipped: 6x6.
// CONVT: dlc.reshape %arg0 : tensor<1x2x3x3xf32> -> tensor<1x2x3x1x3xf32>
// CONVT: dlc.concat {{.*}} {axis = 3 : i64} : (tensor<1x2x3x1x3xf32>, tensor<1x2x3x1x3xf32>) -> tensor<1x2x3x2x3xf32>
// CONVT: dlc.slice {{.*}} -> tensor<1x2x5x3xf32>
// CONVT: dlc.concat {{.*}} : (tensor<1x2x1x3xf32>, tensor<1x2x5x3xf32>, tensor<1x2x2x3xf32>) -> tensor<1x2x8x3xf32>
// CONVT: dlc.slice {{.*}} -> tensor<1x2x8x5xf32>
// CONVT: %[[P:.*]] = dlc.concat {{.*}} -> tensor<1x2x8x8xf32>
// The constant filter is swapped and flipped at import (folded).
// CONVT: dlc.conv2d %[[P]], %{{.*}} : (tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>

// A negative Slice step (torch.flip) is a gather of the positions, backwards.
// BACKWARDS: %[[R:.*]] = dlc.constant dense<[4, 3, 2, 1, 0]> : tensor<5xi64>
// BACKWARDS-NEXT: dlc.gather %arg0, %[[R]] {axis = 1 : i64} : (tensor<2x5xf32>, tensor<5xi64>) -> tensor<2x5xf32>

// ScatterND: each index tuple one row (negatives wrapped, an entry out of
// range sent past the end), scatter_elements on axis 0 with the [M, 1] rows
// broadcast along the slice.
// RUN: %make-onnx scatternd_rows %t/scatternd.onnx
// RUN: dlc import %t/scatternd.onnx | FileCheck %s --check-prefix=SCATTERND
// SCATTERND-DAG: %[[END:.*]] = dlc.constant dense<4> : tensor<1x1xi64>
// SCATTERND: dlc.compare "lt"
// SCATTERND: %[[LOW:.*]] = dlc.select %{{.*}}, %[[END]], %{{.*}} : tensor<2x1xi1>, tensor<1x1xi64>, tensor<2x1xi64>
// SCATTERND: dlc.compare "ge", %[[LOW]], %[[END]]
// SCATTERND: %[[ROWS:.*]] = dlc.select %{{.*}}, %[[END]], %[[LOW]]
// SCATTERND: dlc.scatter_elements %arg0, %[[ROWS]], %arg2 {reduction = "add"} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
