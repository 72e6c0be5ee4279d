// dlc import: names, locations, weights as resources, shape arithmetic folded.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %make-onnx add %t/add.onnx
// RUN: dlc import %t/add.onnx | FileCheck %s --check-prefix=ADD
// ADD: func.func @main(%[[X:[^:]*]]: tensor<2x3xf32> {dlc.name = "x"} loc("x"), %[[Y:[^:]*]]: tensor<3xf32> {dlc.name = "y"}
// ADD-SAME: -> (tensor<2x3xf32> {dlc.name = "z"})
// ADD: dlc.add %[[X]], %[[Y]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> loc([[ADDLOC:#loc[0-9]*]])
// ADD: [[ADDLOC]] = loc("/blocks.0/Add")

// Gemm with transB is nn.Linear; the 128-float weight is a resource, the
// 16-float bias inline; -o writes a file that dlc verify reads back.
// RUN: %make-onnx mlp %t/mlp.onnx
// RUN: dlc import %t/mlp.onnx -o %t/mlp.mlir
// RUN: FileCheck %s --check-prefix=MLP < %t/mlp.mlir
// RUN: dlc verify %t/mlp.mlir | FileCheck %s --check-prefix=VERIFY
// MLP: %[[W:.*]] = dlc.constant dense_resource<fc.weight> : tensor<16x8xf32>
// MLP: %[[B:.*]] = dlc.constant dense<[{{.*}}]> : tensor<16xf32>
// MLP: %[[L:.*]] = dlc.linear %{{.*}}, %[[W]], %[[B]] : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// MLP: dlc.relu %[[L]]
// MLP: dialect_resources
// MLP: fc.weight: "0x
// VERIFY: ok, 4 dlc ops

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape folds to one reshape.
// RUN: %make-onnx shape_arith %t/shape.onnx
// RUN: dlc import %t/shape.onnx | FileCheck %s --check-prefix=SHAPE
// SHAPE: func.func @main
// SHAPE-NEXT: dlc.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<2x12xf32>
// SHAPE-NEXT: return

// A shape sliced to nothing (Swin's mask assignment) is an import-time value
// that Concat drops: the reshape keeps only the shape's known part.
// RUN: %make-onnx shape_slice_empty %t/shape_empty.onnx
// RUN: dlc import %t/shape_empty.onnx | FileCheck %s --check-prefix=SLICED-SHAPE
// SLICED-SHAPE: func.func @main
// SLICED-SHAPE-NEXT: dlc.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<2x12xf32>
// SLICED-SHAPE-NEXT: return

// Split and TopK of an initializer fold to constants (Split's results were
// used after the fold erased them: a crash).
// RUN: %make-onnx split_topk_constant %t/split_topk.onnx
// RUN: dlc import %t/split_topk.onnx | FileCheck %s --check-prefix=FOLD-MULTI
// FOLD-MULTI: func.func @main
// FOLD-MULTI-DAG: dlc.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [5.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// FOLD-MULTI-DAG: dlc.constant dense<{{\[\[}}3.000000e+00, 2.000000e+00], [5.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// FOLD-MULTI-DAG: dlc.constant dense<{{\[\[}}0, 2], [1, 2]]> : tensor<2x2xi64>
// FOLD-MULTI-NOT: dlc.split
// FOLD-MULTI-NOT: dlc.top_k

// A dynamic dimension takes its size from --input-shape.
// RUN: %make-onnx dynamic %t/dynamic.onnx
// RUN: dlc import %t/dynamic.onnx --input-shape=x=3x8 | FileCheck %s --check-prefix=DYN
// DYN: func.func @main(%{{.*}}: tensor<3x8xf32> {dlc.name = "x"}

// --max-dim=NAME=N: dim_param NAME on dim 0 is a symbolic batch of at most N,
// imported at the bound.
// RUN: dlc import %t/dynamic.onnx --max-dim=batch=6 | FileCheck %s --check-prefix=SYMBOLIC
// SYMBOLIC: func.func @main(%{{.*}}: tensor<6x8xf32> {dlc.name = "x"}{{.*}}) -> (tensor<6x8xf32> {dlc.name = "y"}) attributes {dlc.symbolic_batch = "batch"}
// Or --input-shape with '?' on dim 0 (also over a static dim 0 of the
// model), bounded by the one --max-dim; the artifact is format 0.8.
// RUN: dlc import %t/dynamic.onnx --input-shape=x=?x8 --max-dim=batch=5 | FileCheck %s --check-prefix=SYMBOLIC-GIVEN
// SYMBOLIC-GIVEN: func.func @main(%{{.*}}: tensor<5x8xf32> {dlc.name = "x"}{{.*}}) -> (tensor<5x8xf32> {dlc.name = "y"}) attributes {dlc.symbolic_batch = "batch"}
// Shape arithmetic from Shape follows the batch: 5x3x4 to 5x12.
// RUN: %make-onnx shape_arith %t/shape_arith_batch.onnx
// RUN: dlc import %t/shape_arith_batch.onnx --input-shape=x=?x3x4 --max-dim=batch=5 | FileCheck %s --check-prefix=SYMBOLIC-SHAPE
// SYMBOLIC-SHAPE: dlc.reshape {{.*}} : tensor<5x3x4xf32> -> tensor<5x12xf32>
// RUN: dlc compile %t/dynamic.onnx --max-dim=batch=6 -o %t/symbolic.dlcm
// RUN: dlc inspect %t/symbolic.dlcm | FileCheck %s --check-prefix=SYMBOLIC-ARTIFACT
// SYMBOLIC-ARTIFACT: format: 0.8
// SYMBOLIC-ARTIFACT: symbolic batch: 'batch', 1 to 6 per run
// SYMBOLIC-ARTIFACT: input  0 'x': f32 [?,8] at most [6,8], 192 bytes, dim 0 = 1 x batch

// --bind makes an input a constant: here the Reshape's target shape.
// RUN: %onnx-python -c "import numpy; numpy.save('%t/shape.npy', numpy.array([3, 4]))"
// RUN: %make-onnx reshape_input %t/reshape.onnx
// RUN: dlc import %t/reshape.onnx --bind=shape=%t/shape.npy | FileCheck %s --check-prefix=BIND
// BIND: func.func @main(%{{.*}}: tensor<2x6xf32> {dlc.name = "x"}{{.*}}) -> (tensor<3x4xf32> {dlc.name = "y"})
// BIND-NEXT: dlc.reshape %{{.*}} : tensor<2x6xf32> -> tensor<3x4xf32>

// On run-time values the comparisons are dlc.compare, Where is dlc.select;
// Not x = (x == false), And a b = a ? b : false, Or a b = a ? true : b,
// Xor = ne. The result compiles for the CPU.
// RUN: %make-onnx logical_runtime %t/logic.onnx
// RUN: dlc import %t/logic.onnx | FileCheck %s --check-prefix=LOGIC
// RUN: dlc compile %t/logic.onnx -o %t/logic.dlcm
// LOGIC: func.func @main(%[[X:[^:]*]]: tensor<2x3xf32> {{.*}}, %[[Y:[^:]*]]: tensor<3xf32>
// LOGIC-DAG: %[[T:.*]] = dlc.constant dense<true> : tensor<1x1xi1>
// LOGIC-DAG: %[[F:.*]] = dlc.constant dense<false> : tensor<1x1xi1>
// LOGIC: %[[EQ:.*]] = dlc.compare "eq", %[[X]], %[[Y]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1> loc([[EQLOC:#loc[0-9]*]])
// LOGIC: %[[LT:.*]] = dlc.compare "lt", %[[X]], %[[Y]]
// LOGIC: %[[GT:.*]] = dlc.compare "gt", %[[X]], %[[Y]]
// LOGIC: %[[LE:.*]] = dlc.compare "le", %[[X]], %[[Y]]
// LOGIC: %[[GE:.*]] = dlc.compare "ge", %[[X]], %[[Y]]
// LOGIC: %[[NOT:.*]] = dlc.compare "eq", %[[EQ]], %[[F]] : (tensor<2x3xi1>, tensor<1x1xi1>) -> tensor<2x3xi1>
// LOGIC: %[[AND:.*]] = dlc.select %[[LT]], %[[LE]], %[[F]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<1x1xi1> -> tensor<2x3xi1>
// LOGIC: %[[OR:.*]] = dlc.select %[[GT]], %[[T]], %[[GE]] : tensor<2x3xi1>, tensor<1x1xi1>, tensor<2x3xi1> -> tensor<2x3xi1>
// LOGIC: %[[XOR:.*]] = dlc.compare "ne", %[[AND]], %[[OR]] : tensor<2x3xi1>
// LOGIC: %[[M:.*]] = dlc.select %[[XOR]], %[[NOT]], %[[F]]
// LOGIC: %[[W:.*]] = dlc.select %[[M]], %[[X]], %[[Y]] : tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
// LOGIC: return %[[W]], %[[M]]
// LOGIC: [[EQLOC]] = loc("/eq/Equal")

// Equal and Where on a shape fold; Expand is an add of a zero splat.
// RUN: %make-onnx where_shape %t/where.onnx
// RUN: dlc import %t/where.onnx | FileCheck %s --check-prefix=WHERE
// WHERE: func.func @main(%[[X:[^:]*]]: tensor<2x3xf32> {{.*}}, %[[Y:[^:]*]]: tensor<1x3xf32>
// WHERE-NOT: dlc.gather
// WHERE: %[[Z:.*]] = dlc.constant dense<0.000000e+00> : tensor<2x3xf32>
// WHERE: %[[E:.*]] = dlc.add %[[Y]], %[[Z]] : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// WHERE: dlc.add %[[X]], %[[E]] : tensor<2x3xf32>

// Pad in constant mode is a concat with splat blocks of the value per padded
// side (a negative pad a slice), one axis at a time; all-zero pads vanish.
// The compiled model matches NumPy's np.pad exactly.
// RUN: %make-onnx pad %t/pad.onnx
// RUN: dlc import %t/pad.onnx | FileCheck %s --check-prefix=PAD
// RUN: dlc compile %t/pad.onnx -o %t/pad.dlcm
// RUN: %onnx-python %S/Inputs/check_pad.py input %t/pad_x.npy
// RUN: dlc run %t/pad.dlcm --input x=%t/pad_x.npy --output-dir %t/pad_out > /dev/null
// RUN: %onnx-python %S/Inputs/check_pad.py compare %t/pad_x.npy %t/pad_out/y.npy | FileCheck %s --check-prefix=PADOK
// PAD: func.func @main(%[[X:[^:]*]]: tensor<1x3x4x5xf32>
// PAD-DAG: %[[V:.*]] = dlc.constant dense<-5.000000e-01> : tensor<1x2x6x3xf32>
// PAD-DAG: %[[W:.*]] = dlc.constant dense<0.000000e+00> : tensor<1x3x6x2xf32>
// PAD-DAG: %[[H:.*]] = dlc.constant dense<0.000000e+00> : tensor<1x3x1x5xf32>
// PAD: %[[P1:.*]] = dlc.concat %[[H]], %[[X]], %[[H]] {axis = 2 : i64}
// PAD: %[[P2:.*]] = dlc.concat %[[W]], %[[P1]] {axis = 3 : i64} {{.*}} -> tensor<1x3x6x7xf32>
// PAD-NOT: /same/Pad
// PAD: %[[C1:.*]] = dlc.slice %[[P2]] {ends = array<i64: 1, 3, 6, 7>, starts = array<i64: 0, 1, 0, 0>
// PAD: %[[C2:.*]] = dlc.slice %[[C1]] {ends = array<i64: 1, 2, 6, 5>, starts = array<i64: 0, 0, 0, 0>
// PAD: dlc.concat %[[V]], %[[C2]] {axis = 3 : i64} {{.*}} -> tensor<1x2x6x8xf32>
// PADOK: pad: exact

// A strided slice whose ends are INT64_MAX (PyTorch's x[:, :, ::2, ::2]):
// the ends clamp to the dimensions.
// RUN: %make-onnx strided_slice %t/strided_slice.onnx
// RUN: dlc import %t/strided_slice.onnx | FileCheck %s --check-prefix=STRIDED
// STRIDED: dlc.slice %{{.*}} {ends = array<i64: 1, 4, 7, 8>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 2, 2>} : tensor<1x4x7x8xf32> -> tensor<1x4x4x4xf32>

// NegativeLogLikelihoodLoss as dlc ops on the run-time target: the class
// picked by a comparison with [0, C), the weight likewise, ignore_index a
// mask, the mean over the kept weights (OnnxLossOps.cpp).
// RUN: %make-onnx nll_loss %t/nll.onnx
// RUN: dlc import %t/nll.onnx | FileCheck %s --check-prefix=NLL
// NLL: %[[IOTA:.*]] = dlc.constant dense<{{\[\[}}0, 1, 2, 3, 4]]> : tensor<1x5xi64>
// NLL: %[[T:.*]] = dlc.reshape %arg1 : tensor<3xi64> -> tensor<3x1xi64>
// NLL: %[[HOT:.*]] = dlc.compare "eq", %[[T]], %[[IOTA]]
// NLL: dlc.select %[[HOT]], %arg0
// NLL: dlc.compare "ne", %arg1
// NLL: dlc.neg
// NLL: %[[LOSS:.*]] = dlc.div {{.*}} : tensor<f32>
// NLL: return %[[LOSS]]

// SoftmaxCrossEntropyLoss: log_softmax over the classes (axis 1), then the
// same; its second output is the log-probabilities.
// RUN: %make-onnx sce_loss %t/sce.onnx
// RUN: dlc import %t/sce.onnx | FileCheck %s --check-prefix=SCE
// SCE: dlc.reduce_max %arg0 {axes = array<i64: 1>, keepdims = true}
// SCE: dlc.log
// SCE: %[[LOGP:.*]] = dlc.sub {{.*}} -> tensor<2x4x3xf32>
// SCE: dlc.compare "eq", {{.*}} : (tensor<2x1x3xi64>, tensor<1x4x1xi64>) -> tensor<2x4x3xi1>
// SCE: %[[LOSS:.*]] = dlc.neg {{.*}} : tensor<2x3xf32>
// SCE: return %[[LOSS]], %[[LOGP]]

// Trilu: a constant mask over the last two dimensions, broadcast.
// RUN: %make-onnx trilu %t/trilu.onnx
// RUN: dlc import %t/trilu.onnx | FileCheck %s --check-prefix=TRILU
// TRILU: dlc.constant dense<{{\[\[}}true, true, false, false], [true, true, true, false], [true, true, true, true]]> : tensor<3x4xi1>
// TRILU: dlc.select {{.*}} : tensor<3x4xi1>, tensor<2x3x4xf32>, tensor<1x1x1xf32> -> tensor<2x3x4xf32>

// IsInf (here +inf only) and IsNaN as comparisons.
// RUN: %make-onnx is_inf_nan %t/is_inf_nan.onnx
// RUN: dlc import %t/is_inf_nan.onnx | FileCheck %s --check-prefix=ISINF
// ISINF: %[[INF:.*]] = dlc.constant dense<0x7F800000> : tensor<1xf32>
// ISINF: dlc.compare "eq", %arg0, %[[INF]]
// ISINF: dlc.compare "ne", %arg0, %arg0

// ArgMax: the positions equal to the maximum (or NaN) select their index from
// a constant [0, D); select_last_index takes the largest of them.
// RUN: %make-onnx argmax_last %t/argmax.onnx
// RUN: dlc import %t/argmax.onnx | FileCheck %s --check-prefix=ARGMAX
// ARGMAX: %[[MAX:.*]] = dlc.reduce_max %arg0 {axes = array<i64: 1>, keepdims = true}
// ARGMAX: %[[HIT:.*]] = dlc.compare "eq", %arg0, %[[MAX]]
// ARGMAX: %[[NAN:.*]] = dlc.compare "ne", %arg0, %arg0
// ARGMAX: %[[EITHER:.*]] = dlc.select %[[HIT]], %{{.*}}, %[[NAN]]
// ARGMAX: %[[IDX:.*]] = dlc.select %[[EITHER]], %{{.*}}, %{{.*}} : tensor<2x5xi1>, tensor<1x5xi64>, tensor<1x1xi64> -> tensor<2x5xi64>
// ARGMAX: dlc.reduce_max %[[IDX]] {axes = array<i64: 1>} : tensor<2x5xi64> -> tensor<2xi64>

// Dropout in training mode with a ratio of 0 keeps everything: the input,
// and a mask that is all true.
// RUN: %make-onnx dropout_training_zero %t/dropout_zero.onnx
// RUN: dlc import %t/dropout_zero.onnx | FileCheck %s --check-prefix=DROPZERO
// DROPZERO: %[[MASK:.*]] = dlc.constant dense<true> : tensor<2x3xi1>
// DROPZERO: return %arg0, %[[MASK]]
