// Every error of dlc import / dlc compile on ONNX input: a message naming the
// thing at fault, a non-zero exit, never a crash.
// RUN: rm -rf %t && mkdir -p %t

// RUN: %make-onnx unsupported %t/unsupported.onnx
// RUN: not dlc import %t/unsupported.onnx 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: not dlc compile %t/unsupported.onnx -o %t/u.dlcm 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: error: {{.*}}unsupported.onnx: unsupported op 'Det' (node '/m/Det', opset 13)

// RUN: %make-onnx mod_float %t/mod_float.onnx
// RUN: not dlc import %t/mod_float.onnx 2>&1 | FileCheck %s --check-prefix=MODFLOAT
// MODFLOAT: error: {{.*}}mod_float.onnx: node '/m/Mod' (Mod): fmod = 0 on floats (the spec asks for fmod = 1)

// RUN: %make-onnx corrupt %t/corrupt.onnx
// RUN: not dlc import %t/corrupt.onnx 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: {{.*}}corrupt.onnx: not a valid ONNX model (the protobuf does not parse: corrupt or truncated file?)

// RUN: %make-onnx truncated %t/truncated.onnx
// RUN: not dlc import %t/truncated.onnx 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: {{.*}}truncated.onnx: {{not a valid ONNX model|the ONNX model has no graph}}

// RUN: %make-onnx empty %t/empty.onnx
// RUN: not dlc import %t/empty.onnx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: {{.*}}empty.onnx: the file is empty, not an ONNX model

// RUN: not dlc import %t/missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing.onnx: cannot open: No such file or directory

// RUN: %make-onnx dynamic %t/dynamic.onnx
// RUN: not dlc import %t/dynamic.onnx 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not dlc compile %t/dynamic.onnx -o %t/d.dlcm 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: error: {{.*}}dynamic.onnx: input 'x' has a dynamic dimension 'batch': pass --input-shape=x=DIMS (e.g. 1x3x224x224)

// RUN: not dlc import %t/dynamic.onnx --max-dim=nosuch=4 2>&1 | FileCheck %s --check-prefix=MAXDIM-NAME
// MAXDIM-NAME: error: {{.*}}dynamic.onnx: --max-dim names 'nosuch', which is not a dim_param of any input
// RUN: not dlc import %t/dynamic.onnx --max-dim=batch=6 --input-shape=x=2x8 2>&1 | FileCheck %s --check-prefix=MAXDIM-FIXED
// MAXDIM-FIXED: error: {{.*}}dynamic.onnx: --max-dim names 'batch', but --input-shape fixes every input that has it
// RUN: not dlc import %t/dynamic.onnx --max-dim=batch=0 2>&1 | FileCheck %s --check-prefix=MAXDIM-SYNTAX
// MAXDIM-SYNTAX: error: --max-dim expects NAME=N (a dim_param and its largest value, e.g. batch=64), got 'batch=0'
// RUN: %make-onnx dynamic_sequence %t/dynamic_sequence.onnx
// RUN: not dlc import %t/dynamic_sequence.onnx --max-dim=seq=4 2>&1 | FileCheck %s --check-prefix=MAXDIM-DIM
// Constants indexed by position along a symbolic sequence: only x[:t] of a
// constant is its leading part at every length, and only what dlc follows
// may fold from positions (SymbolicSizes.cpp, positionDimsOf).
// RUN: %make-onnx sequence_slice_offset %t/sequence_slice_offset.onnx
// RUN: not dlc import %t/sequence_slice_offset.onnx --max-dim=seq=8 2>&1 | FileCheck %s --check-prefix=SEQ-SLICE
// SEQ-SLICE: error: {{.*}}sequence_slice_offset.onnx: node '/Slice' (Slice): slices a constant along axis 0 by the size of 'seq' from another start than 0 or with a step: only x[:t] is its leading part at every size
// RUN: %make-onnx sequence_positions_mod %t/sequence_positions_mod.onnx
// RUN: not dlc import %t/sequence_positions_mod.onnx --max-dim=seq=8 2>&1 | FileCheck %s --check-prefix=SEQ-MOD
// SEQ-MOD: error: {{.*}}sequence_positions_mod.onnx: node '/Mod' (Mod): computes a constant from positions along the symbolic 'seq' (such as arange(t) or a mask sliced to t) in a way dlc cannot follow
// MAXDIM-DIM: error: {{.*}}dynamic_sequence.onnx: --max-dim: 'seq' is dimension 1 of input 'x', after a dimension other than 1; a symbolic dimension must be the first one, or follow dimensions of 1 only
// RUN: %make-onnx dynamic_two_symbols %t/dynamic_two.onnx
// RUN: not dlc import %t/dynamic_two.onnx --max-dim=batch=4 --max-dim=n=4 2>&1 | FileCheck %s --check-prefix=MAXDIM-TWO
// MAXDIM-TWO: error: {{.*}}dynamic_two.onnx: --max-dim: two symbolic dimensions ('batch', 'n'); one symbolic batch is built so far
// A model exported at a fixed batch that keeps it in a Reshape's shape cannot
// take a symbolic one: the error says why (shape arithmetic from Shape works:
// import.mlir, SYMBOLIC-SHAPE).
// RUN: %make-onnx reshape_fixed_batch %t/reshape_fixed_batch.onnx
// RUN: not dlc import %t/reshape_fixed_batch.onnx --input-shape=x=?x3x4 --max-dim=batch=5 2>&1 | FileCheck %s --check-prefix=FIXED-BATCH
// FIXED-BATCH: error: {{.*}}reshape_fixed_batch.onnx: node '/Reshape' (Reshape): {{.*}} (dim 0 was made a symbolic batch with --input-shape=NAME=?x...; a model exported at a fixed batch may keep that batch in its shapes, such as a Reshape's: export it with dynamic_axes on dim 0 instead)
// The batch's size is imported at the bound: computing with it (x / x.size(0)),
// putting it in a shape other than as dim 0, or returning it would be wrong at
// any other batch, so each is refused by name.
// RUN: %make-onnx batch_size_as_value %t/batch_size_as_value.onnx
// RUN: not dlc import %t/batch_size_as_value.onnx --max-dim=batch=4 2>&1 | FileCheck %s --check-prefix=SIZE-VALUE
// SIZE-VALUE: error: {{.*}}batch_size_as_value.onnx: node '/Div' (Div): uses the size of the symbolic batch 'batch' as a value: the artifact would keep the bound 4 there at every batch (dlc imports a symbolic batch at its bound; its size may only shape dim 0)
// RUN: not dlc import %t/batch_size_as_value.onnx --input-shape=x=?x3 --max-dim=b=4 2>&1 | FileCheck %s --check-prefix=SIZE-VALUE-GIVEN
// SIZE-VALUE-GIVEN: error: {{.*}}node '/Div' (Div): uses the size of the symbolic batch 'b' as a value
// RUN: %make-onnx batch_size_off_dim0 %t/batch_size_off_dim0.onnx
// RUN: not dlc compile %t/batch_size_off_dim0.onnx --max-dim=batch=4 -o %t/off_dim0.dlcm 2>&1 | FileCheck %s --check-prefix=SIZE-DIM1
// SIZE-DIM1: error: {{.*}}symbolic batch 'batch': op '/Reshape' (dlc.reshape) mixes the rows of the batch: it merges the batch with an outer dimension or splits it
// A shape fixed at export that a -1 or the batch's size does not stand in:
// a reshape to itself at the bound, another shape at any other batch.
// RUN: %make-onnx reshape_fixed_rows %t/reshape_fixed_rows.onnx
// RUN: not dlc import %t/reshape_fixed_rows.onnx --max-dim=batch=3 2>&1 | FileCheck %s --check-prefix=FIXED-ROWS
// FIXED-ROWS: error: {{.*}}reshape_fixed_rows.onnx: node '/Reshape' (Reshape): its shape puts the symbolic batch 'batch' on dimension 0 with a number fixed at export, not -1, 0 or the batch's size: at another batch it would take another shape (export with dynamic_axes, or use -1 there)
// RUN: %make-onnx batch_size_output %t/batch_size_output.onnx
// RUN: not dlc import %t/batch_size_output.onnx --max-dim=batch=4 2>&1 | FileCheck %s --check-prefix=SIZE-OUTPUT
// SIZE-OUTPUT: error: {{.*}}batch_size_output.onnx: output 's' is computed from the size of the symbolic batch 'batch', which is imported at its bound 4: it would be wrong at any other batch
// A static dimension's size is a plain constant; a fixed batch's too.
// RUN: %make-onnx batch_size_dim1_value %t/batch_size_dim1_value.onnx
// RUN: dlc import %t/batch_size_dim1_value.onnx --max-dim=batch=4 | FileCheck %s --check-prefix=SIZE-DIM1-VALUE
// SIZE-DIM1-VALUE: dlc.mul {{.*}} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// ViT's class token expanded to the batch through Where (the size followed
// element by element: only the shape's dim 0 holds it):
// RUN: %make-onnx class_token_expand %t/class_token_expand.onnx
// RUN: dlc import %t/class_token_expand.onnx --max-dim=batch=4 | FileCheck %s --check-prefix=SIZE-TOKEN
// SIZE-TOKEN: dlc.concat {{.*}} : (tensor<4x1x3xf32>, tensor<4x2x3xf32>) -> tensor<4x3x3xf32>
// RUN: dlc import %t/batch_size_as_value.onnx --input-shape=x=4x3 | FileCheck %s --check-prefix=SIZE-FIXED
// SIZE-FIXED: dlc.div
// A symbolic dim 0 given by --input-shape needs exactly one --max-dim.
// RUN: not dlc import %t/dynamic.onnx --input-shape=x=?x8 2>&1 | FileCheck %s --check-prefix=MAXDIM-GIVEN
// MAXDIM-GIVEN: error: {{.*}}dynamic.onnx: --input-shape for 'x' makes dimension 0 symbolic ('?'): give its bound with exactly one --max-dim=NAME=N (e.g. --max-dim=batch=64)
// RUN: not dlc import %t/dynamic.onnx --input-shape=x=3x? --max-dim=batch=4 2>&1 | FileCheck %s --check-prefix=MAXDIM-GIVEN-DIM
// MAXDIM-GIVEN-DIM: error: --input-shape expects NAME=DIMS (e.g. x=1x3x224x224, or x=?x3x224x224 with --max-dim=batch=N), got 'x=3x?'
// RUN: not dlc import %t/dynamic.onnx --input-shape=x=3x4x5 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: {{.*}}: --input-shape for 'x' has rank 3, the model's input has rank 2
// RUN: not dlc import %t/dynamic.onnx --input-shape=x=3x9 2>&1 | FileCheck %s --check-prefix=FIXED
// FIXED: error: {{.*}}: --input-shape for 'x' gives dimension 1 as 9, the model fixes it to 8
// RUN: not dlc import %t/dynamic.onnx --input-shape=z=3x8 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: error: {{.*}}: --input-shape names 'z', which is not an input of the graph
// RUN: not dlc import %t/dynamic.onnx --input-shape=x=3xq 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: --input-shape expects NAME=DIMS (e.g. x=1x3x224x224, or x=?x3x224x224 with --max-dim=batch=N), got 'x=3xq'

// RUN: %make-onnx reshape_input %t/reshape.onnx
// RUN: not dlc import %t/reshape.onnx 2>&1 | FileCheck %s --check-prefix=NEEDBIND
// NEEDBIND: error: {{.*}}reshape.onnx: node '/Reshape' (Reshape): the target shape (input 1 'shape') must be known at import time: bind it with --bind=shape=FILE.npy
// RUN: not dlc import %t/reshape.onnx --bind=nope=%t/x.npy 2>&1 | FileCheck %s --check-prefix=BADBIND
// BADBIND: error: --bind nope: {{.*}}x.npy
// RUN: %onnx-python -c "import numpy; numpy.save('%t/s.npy', numpy.array([3, 4]))"
// RUN: not dlc import %t/reshape.onnx --bind=nope=%t/s.npy 2>&1 | FileCheck %s --check-prefix=BINDNAME
// BINDNAME: error: {{.*}}: --bind names 'nope', which is not an input of the graph
// RUN: not dlc import %t/reshape.onnx --bind=shape 2>&1 | FileCheck %s --check-prefix=BINDSYNTAX
// BINDSYNTAX: error: --bind expects NAME=FILE.npy, got 'shape'

// RUN: %make-onnx opset29 %t/opset29.onnx
// RUN: not dlc import %t/opset29.onnx 2>&1 | FileCheck %s --check-prefix=OPSET
// OPSET: error: {{.*}}opset29.onnx: opset 29 is not supported (dlc reads opsets 7 to 28)
// RUN: %make-onnx reduce_empty %t/reduce_empty.onnx
// RUN: not dlc import %t/reduce_empty.onnx 2>&1 | FileCheck %s --check-prefix=REDUCE-EMPTY
// REDUCE-EMPTY: error: {{.*}}: unsupported op 'ReduceSum' (node '/ReduceSum', opset 15): an empty input

// RUN: %make-onnx complex64 %t/complex64.onnx
// RUN: not dlc import %t/complex64.onnx 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: error: {{.*}}complex64.onnx: input 'x' has element type COMPLEX64, which dlc does not support

// RUN: %make-onnx undefined %t/undefined.onnx
// RUN: not dlc import %t/undefined.onnx 2>&1 | FileCheck %s --check-prefix=UNDEF
// UNDEF: error: {{.*}}undefined.onnx: node '/Relu' (Relu): input 'nowhere' is not produced by any earlier node, initializer or graph input

// Logical ops on run-time values: operand element types and shapes.
// RUN: %make-onnx and_float %t/and_float.onnx
// RUN: not dlc import %t/and_float.onnx 2>&1 | FileCheck %s --check-prefix=ANDF
// ANDF: error: {{.*}}and_float.onnx: node '/mask/And' (And): input 'x' must be bool
// RUN: %make-onnx where_types %t/where_types.onnx
// RUN: not dlc import %t/where_types.onnx 2>&1 | FileCheck %s --check-prefix=WHERET
// WHERET: error: {{.*}}where_types.onnx: node '/Where' (Where): X and Y have different element types
// RUN: %make-onnx less_broadcast %t/less_broadcast.onnx
// RUN: not dlc import %t/less_broadcast.onnx 2>&1 | FileCheck %s --check-prefix=LESSB
// LESSB: error: {{.*}}less_broadcast.onnx: node '/Less' (Less): operand shapes 4 and 3 do not broadcast

// Malformed attributes are errors naming the node (an unnamed node by its output).
// RUN: %make-onnx bad_stride %t/bad_stride.onnx
// RUN: not dlc import %t/bad_stride.onnx 2>&1 | FileCheck %s --check-prefix=STRIDE
// STRIDE: error: {{.*}}bad_stride.onnx: node <unnamed, output 'y'> (MaxPool): expects kernel_shape, strides and dilations >= 1
// RUN: %make-onnx bad_axes %t/bad_axes.onnx
// RUN: not dlc import %t/bad_axes.onnx 2>&1 | FileCheck %s --check-prefix=AXES
// AXES: error: {{.*}}bad_axes.onnx: node '/mean' (ReduceMean): axes out of range or repeated

// A Pad mode ONNX does not define is refused with its name.
// RUN: %make-onnx pad_mirror %t/mirror.onnx
// RUN: not dlc import %t/mirror.onnx 2>&1 | FileCheck %s --check-prefix=MIRROR
// MIRROR: error: {{.*}}mirror.onnx: node '/r/Pad' (Pad): unknown mode 'mirror'

// RUN: %make-onnx nll_bad_target %t/nll_bad_target.onnx
// RUN: not dlc import %t/nll_bad_target.onnx 2>&1 | FileCheck %s --check-prefix=NLLTARGET
// NLLTARGET: error: {{.*}}nll_bad_target.onnx: node '/nll' (NegativeLogLikelihoodLoss): the target's shape is not the input's without its class dimension

// RUN: %make-onnx dropout_training %t/dropout_training.onnx
// RUN: not dlc import %t/dropout_training.onnx 2>&1 | FileCheck %s --check-prefix=DROPOUT
// DROPOUT: error: {{.*}}dropout_training.onnx: unsupported op 'Dropout' (node '/drop', opset 13): training mode with a ratio above 0 (random)

// RUN: %make-onnx depth_to_space_bad_mode %t/d2s_mode.onnx
// RUN: not dlc import %t/d2s_mode.onnx 2>&1 | FileCheck %s --check-prefix=D2SMODE
// D2SMODE: error: {{.*}}d2s_mode.onnx: node '/DepthToSpace' (DepthToSpace): mode must be DCR or CRD, got XYZ
// RUN: %make-onnx depth_to_space_channels %t/d2s_channels.onnx
// RUN: not dlc import %t/d2s_channels.onnx 2>&1 | FileCheck %s --check-prefix=D2SCHANNELS
// D2SCHANNELS: error: {{.*}}: node '/DepthToSpace' (DepthToSpace): the channels are not a multiple of blocksize^2
// RUN: %make-onnx space_to_depth_odd %t/s2d.onnx
// RUN: not dlc import %t/s2d.onnx 2>&1 | FileCheck %s --check-prefix=S2D
// S2D: error: {{.*}}: node '/SpaceToDepth' (SpaceToDepth): the height and width are not multiples of blocksize
// RUN: %make-onnx eye_like_3d %t/eye3.onnx
// RUN: not dlc import %t/eye3.onnx 2>&1 | FileCheck %s --check-prefix=EYE3
// EYE3: error: {{.*}}: node '/EyeLike' (EyeLike): expects a 2-D input

// Resize: a mode or nearest_mode ONNX does not define, and a scales input
// that does not match the rank, each named.
// RUN: %make-onnx resize_area %t/resize_area.onnx
// RUN: not dlc import %t/resize_area.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-MODE
// RESIZE-MODE: error: {{.*}}resize_area.onnx: node '/up/Resize' (Resize): unknown mode 'area'
// RUN: %make-onnx resize_bad_nearest %t/resize_round.onnx
// RUN: not dlc import %t/resize_round.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-NEAREST
// RESIZE-NEAREST: error: {{.*}}resize_round.onnx: node '/up/Resize' (Resize): unknown nearest_mode 'round'
// RUN: %make-onnx resize_scale_count %t/resize_count.onnx
// RUN: not dlc import %t/resize_count.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE-COUNT
// RESIZE-COUNT: error: {{.*}}resize_count.onnx: node '/up/Resize' (Resize): scales has 2 values for 4 axes

// ConvTranspose: an auto_pad ONNX does not define; a 3-D one (not yet).
// RUN: %make-onnx conv_transpose_bad_autopad %t/convt_pad.onnx
// RUN: not dlc import %t/convt_pad.onnx 2>&1 | FileCheck %s --check-prefix=CONVT-PAD
// CONVT-PAD: error: {{.*}}convt_pad.onnx: node '/up/ConvTranspose' (ConvTranspose): unknown auto_pad 'SAME'
// RUN: %make-onnx conv_transpose_3d %t/convt_3d.onnx
// RUN: not dlc import %t/convt_3d.onnx 2>&1 | FileCheck %s --check-prefix=CONVT-3D
// CONVT-3D: error: {{.*}}unsupported op 'ConvTranspose' (node '/up/ConvTranspose', opset 13): a 3-D transposed convolution

// Einsum: a term per input, and no output letter that no input has.
// RUN: %make-onnx einsum_terms %t/einsum_terms.onnx
// RUN: not dlc import %t/einsum_terms.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-TERMS
// EINSUM-TERMS: error: {{.*}}einsum_terms.onnx: node '/e/Einsum' (Einsum): the equation 'ij->ij' has 1 terms for 2 inputs
// RUN: %make-onnx einsum_output_letter %t/einsum_letter.onnx
// RUN: not dlc import %t/einsum_letter.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-LETTER
// EINSUM-LETTER: error: {{.*}}einsum_letter.onnx: node '/e/Einsum' (Einsum): the output letter 'z' is in no input

// RUN: %make-onnx slice_step_zero %t/slice0.onnx
// RUN: not dlc import %t/slice0.onnx 2>&1 | FileCheck %s --check-prefix=SLICE0
// SLICE0: error: {{.*}}slice0.onnx: node '/flip/Slice' (Slice): a step of 0

// LRN's window and MeanVarianceNormalization's axes.
// RUN: %make-onnx lrn_size0 %t/lrn0.onnx
// RUN: not dlc import %t/lrn0.onnx 2>&1 | FileCheck %s --check-prefix=LRN0
// LRN0: error: {{.*}}lrn0.onnx: node '/LRN' (LRN): size must be at least 1
// RUN: %make-onnx mvn_bad_axes %t/mvn_axes.onnx
// RUN: not dlc import %t/mvn_axes.onnx 2>&1 | FileCheck %s --check-prefix=MVN-AXES
// MVN-AXES: error: {{.*}}mvn_axes.onnx: node '/MeanVarianceNormalization' (MeanVarianceNormalization): axes out of range

// RUN: %make-onnx gathernd_long_tuples %t/gathernd.onnx
// RUN: not dlc import %t/gathernd.onnx 2>&1 | FileCheck %s --check-prefix=GATHERND
// GATHERND: error: {{.*}}gathernd.onnx: node '/GatherND' (GatherND): index tuples of 3 entries for data of rank 2 after 0 batch dimensions

// ScatterElements/ScatterND and TopK.
// RUN: %make-onnx scatter_bad_reduction %t/scatter_red.onnx
// RUN: not dlc import %t/scatter_red.onnx 2>&1 | FileCheck %s --check-prefix=SCATTER-RED
// SCATTER-RED: error: {{.*}}scatter_red.onnx: node '/ScatterElements' (ScatterElements): unknown reduction 'sum' (none, add, mul, max or min)
// RUN: %make-onnx scatter_bool_add %t/scatter_bool.onnx
// RUN: not dlc import %t/scatter_bool.onnx 2>&1 | FileCheck %s --check-prefix=SCATTER-BOOL
// SCATTER-BOOL: error: {{.*}}scatter_bool.onnx: node '/ScatterElements' (ScatterElements): reduction 'add' on bool data
// RUN: %make-onnx scatternd_bad_updates %t/scatternd.onnx
// RUN: not dlc import %t/scatternd.onnx 2>&1 | FileCheck %s --check-prefix=SCATTERND
// SCATTERND: error: {{.*}}scatternd.onnx: node '/ScatterND' (ScatterND): the updates' shape is not indices.shape[:-1] + data.shape[k:]
// RUN: %make-onnx topk_k_too_large %t/topk_k.onnx
// RUN: not dlc import %t/topk_k.onnx 2>&1 | FileCheck %s --check-prefix=TOPK-K
// TOPK-K: error: {{.*}}topk_k.onnx: node '/TopK' (TopK): k = 6 outside [0, 5] (axis 1)
// RUN: %make-onnx topk_k_input %t/topk_input.onnx
// RUN: not dlc import %t/topk_input.onnx 2>&1 | FileCheck %s --check-prefix=TOPK-BIND
// TOPK-BIND: error: {{.*}}topk_input.onnx: node '/TopK' (TopK): k (input 1 'k') must be known at import time: bind it with --bind=k=FILE.npy

// 3-D windows are refused by name (1-D ones are 2-D over a height of 1).
// RUN: %make-onnx maxpool_3d %t/maxpool3d.onnx
// RUN: not dlc import %t/maxpool3d.onnx 2>&1 | FileCheck %s --check-prefix=POOL3D
// POOL3D: error: {{.*}}maxpool3d.onnx: unsupported op 'MaxPool' (node '/MaxPool', opset 15): a 3-D window (dlc has 1-D and 2-D ops)

// Recurrences over a symbolic batch: unrolled up to 1024 steps (longer ones
// are loops only with a fixed batch); activations by name.
// RUN: %make-onnx rnn_long_symbolic_batch %t/rnn_long.onnx
// RUN: not dlc import %t/rnn_long.onnx --max-dim=N=4 2>&1 | FileCheck %s --check-prefix=RNN-LONG
// RNN-LONG: error: {{.*}}rnn_long.onnx: unsupported op 'RNN' (node '/RNN', opset 14): a sequence of 1200 steps with a symbolic batch (dlc unrolls recurrences over a symbolic batch up to 1024 steps; fix the batch with --input-shape to compile it as a loop)
// RUN: %make-onnx gru_bad_activation %t/gru_act.onnx
// RUN: not dlc import %t/gru_act.onnx 2>&1 | FileCheck %s --check-prefix=GRU-ACT
// GRU-ACT: error: {{.*}}gru_act.onnx: node '/GRU' (GRU): unknown activation 'Swish'

// A run-time tensor sliced to nothing: dlc has no empty tensors.
// RUN: %make-onnx slice_empty_runtime %t/slice_empty.onnx
// RUN: not dlc import %t/slice_empty.onnx 2>&1 | FileCheck %s --check-prefix=SLICE-EMPTY
// SLICE-EMPTY: error: {{.*}}: unsupported op 'Slice' (node '/Slice', opset 13): an empty result
