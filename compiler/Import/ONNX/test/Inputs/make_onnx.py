#!/usr/bin/env python3
"""Writes the small ONNX models the importer's lit tests read.

usage: make_onnx.py NAME OUT.onnx  (NAME: one of MODELS below)

Built with onnx.helper (Debian's python3-onnx): seeded weights, named nodes
as PyTorch names them, so the tests can check names, locations and errors.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64
I32 = TensorProto.INT32
B = TensorProto.BOOL
rng = np.random.default_rng(7)


def tensor(name, shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def vi(name, shape, et=F):
    return helper.make_tensor_value_info(name, et, shape)


def add():
    return model([helper.make_node("Add", ["x", "y"], ["z"], name="/blocks.0/Add")],
                 [vi("x", [2, 3]), vi("y", [3])], [vi("z", [2, 3])])


def mlp():
    nodes = [
        helper.make_node("Gemm", ["x", "fc.weight", "fc.bias"], ["h"], name="/fc/Gemm", transB=1),
        helper.make_node("Relu", ["h"], ["r"], name="/act/Relu"),
        helper.make_node("Flatten", ["r"], ["out"], name="/Flatten"),
    ]
    return model(nodes, [vi("x", [4, 8])], [vi("out", [4, 16])],
                 [tensor("fc.weight", [16, 8]), tensor("fc.bias", [16])])


def dynamic():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="/Relu")]
    return model(nodes, [vi("x", ["batch", 8])], [vi("y", ["batch", 8])])


def dynamic_sequence():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="/Relu")]
    return model(nodes, [vi("x", [2, "seq"])], [vi("y", [2, "seq"])])


def _sequence_positions(tail):
    """x [1, seq, 4] plus a table's rows picked by the sequence's positions:
    t = x.size(1), then `tail` (nodes from "t1" = [t] to "rows" [seq, 4])."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Gather", ["s", "one"], ["t"], name="/Gather", axis=0),
        helper.make_node("Unsqueeze", ["t", "zero1"], ["t1"], name="/Unsqueeze"),
    ] + tail + [helper.make_node("Add", ["x", "rows"], ["y"], name="/Add")]
    table = numpy_helper.from_array(np.arange(32, dtype=np.float32).reshape(8, 4), "table")
    return model(nodes, [vi("x", [1, "seq", 4])], [vi("y", [1, "seq", 4])],
                 [i64("one", 1), i64("zero1", [0]), i64("starts", [1]), i64("axes", [0]), table])


def sequence_slice_offset():
    """table[1:t]: not the leading part of the table at every length."""
    return _sequence_positions(
        [helper.make_node("Slice", ["table", "starts", "t1", "axes"], ["rows"], name="/Slice")])


def sequence_positions_mod():
    """table[arange(t) % 2]: positions folded by an op dlc does not follow."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    m = _sequence_positions([
        helper.make_node("Range", ["zero", "t", "step"], ["pos"], name="/Range"),
        helper.make_node("Mod", ["pos", "two"], ["parity"], name="/Mod"),
        helper.make_node("Gather", ["table", "parity"], ["rows"], name="/Gather_1", axis=0),
    ])
    m.graph.initializer.extend([i64("zero", 0), i64("step", 1), i64("two", 2)])
    return m


def dynamic_two_symbols():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="/Relu"),
             helper.make_node("Relu", ["z"], ["w"], name="/Relu_1")]
    return model(nodes, [vi("x", ["batch", 8]), vi("z", ["n", 8])],
                 [vi("y", ["batch", 8]), vi("w", ["n", 8])])


def unsupported():
    nodes = [helper.make_node("Det", ["x"], ["d"], name="/m/Det")]
    return model(nodes, [vi("x", [2, 3, 3])], [vi("d", [2])])


def mod_float():
    """Mod on floats with fmod = 0, which the spec does not allow."""
    nodes = [helper.make_node("Mod", ["x", "y"], ["z"], name="/m/Mod")]
    return model(nodes, [vi("x", [4]), vi("y", [4])], [vi("z", [4])])


def opset29():
    m = add()
    m.opset_import[0].version = 29
    return m


def split_num_outputs():
    """Opset 18's Split into 3 by num_outputs: 7 = 3 + 3 + 1."""
    node = helper.make_node("Split", ["x"], ["a", "b", "c"], name="/Split", axis=1,
                            num_outputs=3)
    return model([node], [vi("x", [2, 7])],
                 [vi("a", [2, 3]), vi("b", [2, 3]), vi("c", [2, 1])], opset=18)


def mish():
    return one_node("Mish", [4], [4])


def reduce_min_u8():
    """Opset 18's ReduceMin, its axes an initializer, on u8 (0 is its minimum)."""
    axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
    node = helper.make_node("ReduceMin", ["x", "axes"], ["y"], name="/ReduceMin", keepdims=0)
    return model([node], [vi("x", [2, 3], TensorProto.UINT8)], [vi("y", [2], TensorProto.UINT8)],
                 [axes], opset=18)


def reduce_empty():
    return one_node("ReduceSum", [2, 0], [2, 1])


def complex64():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="/Relu")]
    return model(nodes, [vi("x", [4], TensorProto.COMPLEX64)],
                 [vi("y", [4], TensorProto.COMPLEX64)])


def reshape_input():
    """A Reshape whose target shape is a graph input: needs --bind."""
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"], name="/Reshape")]
    return model(nodes, [vi("x", [2, 6]), vi("shape", [2], TensorProto.INT64)], [vi("y", [3, 4])])


def shape_arith():
    """PyTorch-style shape arithmetic: Shape -> Gather -> Unsqueeze -> Concat -> Reshape."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Gather", ["s", "zero"], ["b"], name="/Gather", axis=0),
        helper.make_node("Unsqueeze", ["b", "axes"], ["bu"], name="/Unsqueeze"),
        helper.make_node("Concat", ["bu", "minus1"], ["target"], name="/Concat", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="/Reshape"),
    ]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 12])],
                 [i64("zero", 0), i64("axes", [0]), i64("minus1", [-1])])


def batch_size_as_value():
    """x / x.size(0): the batch's size used in arithmetic (Shape -> Gather ->
    Cast -> Div), which a symbolic batch imported at its bound would bake in."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Gather", ["s", "zero"], ["b"], name="/Gather", axis=0),
        helper.make_node("Cast", ["b"], ["bf"], name="/Cast", to=TensorProto.FLOAT),
        helper.make_node("Div", ["x", "bf"], ["y"], name="/Div"),
    ]
    return model(nodes, [vi("x", ["batch", 3])], [vi("y", ["batch", 3])], [i64("zero", 0)])


def batch_size_off_dim0():
    """A Reshape whose dim 1 is the batch's size (x.view(3, x.size(0)))."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Slice", ["s", "zero", "one"], ["b"], name="/Slice"),
        helper.make_node("Concat", ["three", "b"], ["target"], name="/Concat", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="/Reshape"),
    ]
    return model(nodes, [vi("x", ["batch", 3])], [vi("y", [3, "batch"])],
                 [i64("zero", [0]), i64("one", [1]), i64("three", [3])])


def reshape_fixed_rows():
    """x.view(3, -1) on x [batch, 6]: at batch 3 a reshape to itself, at any
    other batch another shape (the batch would have to sit in the -1)."""
    target = numpy_helper.from_array(np.array([3, -1], dtype=np.int64), "target")
    nodes = [helper.make_node("Reshape", ["x", "target"], ["y"], name="/Reshape")]
    return model(nodes, [vi("x", ["batch", 6])], [vi("y", [3, "n"])], [target])


def class_token_expand():
    """ViT's class token as PyTorch 1.13 exports token.expand(n, -1, -1) with
    a dynamic batch: the shape [n, -1, -1] passes a Where(Equal(shape, -1),
    1, shape) before the Expand, then the token joins x along axis 1."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    token = numpy_helper.from_array(np.array([[[0.5, -1.0, 2.0]]], dtype=np.float32), "token")
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Gather", ["s", "zero"], ["n"], name="/Gather", axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["nu"], name="/Unsqueeze"),
        helper.make_node("Concat", ["nu", "minus1", "minus1"], ["shape"], name="/Concat", axis=0),
        helper.make_node("Equal", ["shape", "minus1"], ["is_minus1"], name="/Equal"),
        helper.make_node("Where", ["is_minus1", "one", "shape"], ["target"], name="/Where"),
        helper.make_node("Expand", ["token", "target"], ["tokens"], name="/Expand"),
        helper.make_node("Concat", ["tokens", "x"], ["y"], name="/Concat_1", axis=1),
    ]
    return model(nodes, [vi("x", ["batch", 2, 3])], [vi("y", ["batch", 3, 3])],
                 [token, i64("zero", 0), i64("axes", [0]), i64("minus1", [-1]), i64("one", [1])])


def batch_size_output():
    """The model returns x.shape (Shape of the input as an output)."""
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="/Relu"),
             helper.make_node("Shape", ["x"], ["s"], name="/Shape")]
    return model(nodes, [vi("x", ["batch", 3])], [vi("y", ["batch", 3]), vi("s", [2], TensorProto.INT64)])


def batch_size_dim1_value():
    """x * x.size(1): a static dimension's size is a constant like any other."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Gather", ["s", "one"], ["c"], name="/Gather", axis=0),
        helper.make_node("Cast", ["c"], ["cf"], name="/Cast", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["x", "cf"], ["y"], name="/Mul"),
    ]
    return model(nodes, [vi("x", ["batch", 3])], [vi("y", ["batch", 3])], [i64("one", 1)])


def reshape_fixed_batch():
    """A Reshape to a constant shape whose dim 0 is the export's batch (2)."""
    target = numpy_helper.from_array(np.array([2, 12], dtype=np.int64), "target")
    nodes = [helper.make_node("Reshape", ["x", "target"], ["y"], name="/Reshape")]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 12])], [target])


def shape_slice_empty():
    """Swin's mask assignment as PyTorch 1.13 exports it: the shape of a 2-D
    value sliced from 2 on (nothing), concatenated onto another shape."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["m"], ["ms"], name="/Shape_m"),
        helper.make_node("Slice", ["ms", "two", "end", "zero"], ["rest"], name="/Slice_9"),
        helper.make_node("Shape", ["x"], ["xs"], name="/Shape_x"),
        helper.make_node("Slice", ["xs", "zero", "one", "zero"], ["lead"], name="/Slice_lead"),
        helper.make_node("Concat", ["lead", "minus1", "rest"], ["target"], name="/Concat", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="/Reshape"),
    ]
    return model(nodes, [vi("x", [2, 3, 4]), vi("m", [5, 6])], [vi("y", [2, 12])],
                 [i64("zero", [0]), i64("one", [1]), i64("two", [2]), i64("minus1", [-1]),
                  i64("end", [2**63 - 1])])


def slice_empty_runtime():
    """A slice of run-time data with nothing in it: refused by name."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [helper.make_node("Slice", ["x", "s", "e"], ["y"], name="/Slice")]
    return model(nodes, [vi("x", [4, 3])], [vi("y", [0, 3])], [i64("s", [3]), i64("e", [1])])


def layernorm(opset=13):
    """torch.nn.LayerNorm(16) as PyTorch exports it at opset 13."""
    c = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float32), name)
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], name="/ln/ReduceMean", axes=[-1]),
        helper.make_node("Sub", ["x", "m"], ["d"], name="/ln/Sub"),
        helper.make_node("Pow", ["d", "two"], ["p"], name="/ln/Pow"),
        helper.make_node("ReduceMean", ["p"], ["v"], name="/ln/ReduceMean_1", axes=[-1]),
        helper.make_node("Add", ["v", "eps"], ["ve"], name="/ln/Add"),
        helper.make_node("Sqrt", ["ve"], ["s"], name="/ln/Sqrt"),
        helper.make_node("Div", ["d", "s"], ["n"], name="/ln/Div"),
        helper.make_node("Mul", ["n", "ln.weight"], ["sc"], name="/ln/Mul"),
        helper.make_node("Add", ["sc", "ln.bias"], ["y"], name="/ln/Add_1"),
    ]
    return model(nodes, [vi("x", [2, 5, 16])], [vi("y", [2, 5, 16])],
                 [c("two", 2.0), c("eps", 1e-5), tensor("ln.weight", [16]), tensor("ln.bias", [16])])


def gelu():
    """torch.nn.GELU() as PyTorch exports it at opset 13."""
    c = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float32), name)
    nodes = [
        helper.make_node("Div", ["x", "sqrt2"], ["a"], name="/act/Div"),
        helper.make_node("Erf", ["a"], ["e"], name="/act/Erf"),
        helper.make_node("Add", ["e", "one"], ["b"], name="/act/Add"),
        helper.make_node("Mul", ["x", "b"], ["c"], name="/act/Mul"),
        helper.make_node("Mul", ["c", "half"], ["y"], name="/act/Mul_1"),
    ]
    return model(nodes, [vi("x", [4, 8])], [vi("y", [4, 8])],
                 [c("sqrt2", 1.4142135381698608), c("one", 1.0), c("half", 0.5)])


def gelu_tanh():
    """torch.nn.GELU(approximate='tanh') as PyTorch 1.13 exports it at opset 13."""
    c = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float32), name)
    nodes = [
        helper.make_node("Mul", ["x", "x"], ["sq"], name="/act/Mul"),
        helper.make_node("Mul", ["x", "sq"], ["cube"], name="/act/Mul_1"),
        helper.make_node("Mul", ["k", "cube"], ["kc"], name="/act/Mul_2"),
        helper.make_node("Add", ["x", "kc"], ["s"], name="/act/Add"),
        helper.make_node("Mul", ["beta", "s"], ["bs"], name="/act/Mul_3"),
        helper.make_node("Tanh", ["bs"], ["t"], name="/act/Tanh"),
        helper.make_node("Add", ["one", "t"], ["g"], name="/act/Add_1"),
        helper.make_node("Mul", ["x", "g"], ["xg"], name="/act/Mul_4"),
        helper.make_node("Mul", ["half", "xg"], ["y"], name="/act/Mul_5"),
    ]
    return model(nodes, [vi("x", [4, 8])], [vi("y", [4, 8])],
                 [c("k", 0.044715), c("beta", 0.7978845834732056), c("one", 1.0), c("half", 0.5)])


def linear():
    """torch.nn.Linear(8, 16) on a rank-3 input: MatMul with Wᵀ stored, then Add."""
    nodes = [
        helper.make_node("MatMul", ["x", "w_t"], ["h"], name="/fc/MatMul"),
        helper.make_node("Add", ["fc.bias", "h"], ["y"], name="/fc/Add"),
    ]
    return model(nodes, [vi("x", [2, 3, 8])], [vi("y", [2, 3, 16])],
                 [tensor("w_t", [8, 16]), tensor("fc.bias", [16])])


def where_shape():
    """Expand's target from Shape/Equal/Where, as PyTorch writes expand_as: folded."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
        helper.make_node("Equal", ["s", "minus1"], ["m"], name="/Equal"),
        helper.make_node("Where", ["m", "ones", "s"], ["t"], name="/Where"),
        helper.make_node("Expand", ["y", "t"], ["e"], name="/Expand"),
        helper.make_node("Add", ["x", "e"], ["z"], name="/Add"),
    ]
    return model(nodes, [vi("x", [2, 3]), vi("y", [1, 3])], [vi("z", [2, 3])],
                 [i64("minus1", [-1, -1]), i64("ones", [1, 1])])


def logical_runtime():
    """Every comparison, Not/And/Or/Xor and Where on run-time values."""
    B = TensorProto.BOOL
    n = lambda op, ins, out: helper.make_node(op, ins, [out], name="/" + out + "/" + op)
    nodes = [
        n("Equal", ["x", "y"], "eq"), n("Less", ["x", "y"], "lt"),
        n("Greater", ["x", "y"], "gt"), n("LessOrEqual", ["x", "y"], "le"),
        n("GreaterOrEqual", ["x", "y"], "ge"), n("Not", ["eq"], "not"),
        n("And", ["lt", "le"], "and"), n("Or", ["gt", "ge"], "or"),
        n("Xor", ["and", "or"], "xor"), n("And", ["xor", "not"], "mask"),
        n("Where", ["mask", "x", "y"], "w"),
    ]
    return model(nodes, [vi("x", [2, 3]), vi("y", [3])], [vi("w", [2, 3]), vi("mask", [2, 3], B)])


def and_float():
    nodes = [helper.make_node("And", ["x", "y"], ["z"], name="/mask/And")]
    return model(nodes, [vi("x", [4]), vi("y", [4])], [vi("z", [4], TensorProto.BOOL)])


def where_types():
    nodes = [helper.make_node("Where", ["c", "x", "y"], ["z"], name="/Where")]
    return model(nodes, [vi("c", [4], TensorProto.BOOL), vi("x", [4]),
                         vi("y", [4], TensorProto.INT64)], [vi("z", [4])])


def less_broadcast():
    nodes = [helper.make_node("Less", ["x", "y"], ["z"], name="/Less")]
    return model(nodes, [vi("x", [4]), vi("y", [3])], [vi("z", [4], TensorProto.BOOL)])


def bad_stride():
    """A malformed model: stride 0 (must be an error, not a division by zero)."""
    nodes = [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[0, 1])]
    return model(nodes, [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 3, 3])])


def bad_axes():
    nodes = [helper.make_node("ReduceMean", ["x"], ["y"], name="/mean", axes=[5])]
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 1])])


def undefined():
    nodes = [helper.make_node("Relu", ["nowhere"], ["y"], name="/Relu")]
    return model(nodes, [vi("x", [4])], [vi("y", [4])])


def strided_slice():
    """x[:, :, ::2, ::2] as PyTorch exports it: the ends are INT64_MAX."""
    i64 = lambda name, vals: numpy_helper.from_array(np.array(vals, dtype=np.int64), name)
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"], name="/Slice")]
    return model(nodes, [vi("x", [1, 4, 7, 8])], [vi("y", [1, 4, 4, 4])],
                 [i64("starts", [0, 0]), i64("ends", [9223372036854775807, 9223372036854775807]),
                  i64("axes", [2, 3]), i64("steps", [2, 2])])


def pad():
    """Pad in constant mode as PyTorch exports it (Inception's avg-pool
    padding, DenseNet's all-zero pads), plus a crop (negative pads) and a
    value, followed by a relu so the padding is computed, not just returned."""
    i64 = TensorProto.INT64
    pads = numpy_helper.from_array(np.array([0, 0, 1, 2, 0, 0, 1, 0], np.int64), "pads")
    zeros = numpy_helper.from_array(np.zeros(8, np.int64), "zeros")
    crop = numpy_helper.from_array(np.array([0, -1, 0, 3, 0, 0, 0, -2], np.int64), "crop")
    value = numpy_helper.from_array(np.array(-0.5, np.float32), "value")
    nodes = [
        helper.make_node("Pad", ["x", "pads"], ["p"], name="/pool/Pad", mode="constant"),
        helper.make_node("Pad", ["p", "zeros"], ["q"], name="/same/Pad"),
        helper.make_node("Pad", ["q", "crop", "value"], ["c"], name="/crop/Pad"),
        helper.make_node("Relu", ["c"], ["y"], name="/Relu"),
    ]
    return model(nodes, [vi("x", [1, 3, 4, 5])], [vi("y", [1, 2, 6, 8])], [pads, zeros, crop, value])


def pad_reflect(mode="reflect"):
    pads = numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), "pads")
    nodes = [helper.make_node("Pad", ["x", "pads"], ["y"], name="/r/Pad", mode=mode)]
    return model(nodes, [vi("x", [2, 4])], [vi("y", [2, 6])], [pads])


def pad_mirror():
    return pad_reflect("mirror")


def nll_loss(target_shape=(3,)):
    """NegativeLogLikelihoodLoss with a class weight, ignore_index 2, mean."""
    w = numpy_helper.from_array(np.array([1.0, 2.0, 0.5, 1.5, 1.0], dtype=np.float32), "w")
    nodes = [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["loss"], name="/nll",
                              reduction="mean", ignore_index=2)]
    return model(nodes, [vi("x", [3, 5]), vi("t", list(target_shape), I64)], [vi("loss", [])], [w])


def nll_bad_target():
    return nll_loss((4,))


def sce_loss():
    """SoftmaxCrossEntropyLoss on [N, C, d1] with its log_prob output, no reduction."""
    nodes = [helper.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["loss", "logp"], name="/sce",
                              reduction="none")]
    return model(nodes, [vi("x", [2, 4, 3]), vi("t", [2, 3], I64)],
                 [vi("loss", [2, 3]), vi("logp", [2, 4, 3])])


def trilu():
    """The lower triangle (upper=0) from one diagonal above the main (k=1)."""
    k = numpy_helper.from_array(np.array(1, dtype=np.int64), "k")
    nodes = [helper.make_node("Trilu", ["x", "k"], ["y"], name="/tril", upper=0)]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], [k], opset=14)


def is_inf_nan():
    nodes = [helper.make_node("IsInf", ["x"], ["inf"], name="/isinf", detect_negative=0),
             helper.make_node("IsNaN", ["x"], ["nan"], name="/isnan")]
    B = TensorProto.BOOL
    return model(nodes, [vi("x", [6])], [vi("inf", [6], B), vi("nan", [6], B)])


def dropout_training(ratio=0.3):
    """Dropout in training mode: random unless the ratio is 0."""
    c = lambda name, v, dt: numpy_helper.from_array(np.array(v, dtype=dt), name)
    nodes = [helper.make_node("Dropout", ["x", "r", "t"], ["y", "m"], name="/drop")]
    B = TensorProto.BOOL
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3]), vi("m", [2, 3], B)],
                 [c("r", ratio, np.float32), c("t", True, np.bool_)])


def dropout_training_zero():
    return dropout_training(0.0)


def argmax_last():
    """ArgMax along axis 1, the last of equal maxima, dims dropped."""
    nodes = [helper.make_node("ArgMax", ["x"], ["i"], name="/argmax", axis=1, keepdims=0,
                              select_last_index=1)]
    return model(nodes, [vi("x", [2, 5])], [vi("i", [2], I64)])


def one_node(op, in_shape, out_shape, in_type=F, out_type=F, extra_inputs=(), **attrs):
    names = ["x"] + [n for n, _, _ in extra_inputs]
    node = helper.make_node(op, names, ["y"], name="/" + op, **attrs)
    inputs = [vi("x", in_shape, in_type)] + [vi(n, s, t) for n, s, t in extra_inputs]
    return model([node], inputs, [vi("y", out_shape, out_type)], opset=15)


def depth_to_space_crd():
    return one_node("DepthToSpace", [1, 8, 2, 3], [1, 2, 4, 6], blocksize=2, mode="CRD")


def depth_to_space_bad_mode():
    return one_node("DepthToSpace", [1, 8, 2, 3], [1, 2, 4, 6], blocksize=2, mode="XYZ")


def depth_to_space_channels():
    return one_node("DepthToSpace", [1, 8, 2, 3], [1, 1, 6, 9], blocksize=3)


def space_to_depth_odd():
    return one_node("SpaceToDepth", [1, 1, 3, 4], [1, 4, 1, 2], blocksize=2)


def eye_like_k():
    return one_node("EyeLike", [3, 4], [3, 4], out_type=TensorProto.INT32, k=1,
                    dtype=TensorProto.INT32)


def eye_like_3d():
    return one_node("EyeLike", [2, 2, 2], [2, 2, 2])


def pow_int():
    return one_node("Pow", [3], [3], in_type=TensorProto.INT32, out_type=TensorProto.INT32,
                    extra_inputs=[("e", [3], F)])


def cumsum_reverse():
    """CumSum along axis 0 of [3, 2], reversed and exclusive, the axis an initializer."""
    axis = numpy_helper.from_array(np.array(0, dtype=np.int64), "axis")
    node = helper.make_node("CumSum", ["x", "axis"], ["y"], name="/CumSum", reverse=1,
                            exclusive=1)
    return model([node], [vi("x", [3, 2])], [vi("y", [3, 2])], [axis], opset=14)


def one_hot():
    """OneHot of [2] indices, depth 3 (an initializer), values at run time, axis 0."""
    depth = numpy_helper.from_array(np.array(3, dtype=np.int64), "depth")
    node = helper.make_node("OneHot", ["i", "depth", "v"], ["y"], name="/OneHot", axis=0)
    return model([node], [vi("i", [2], I64), vi("v", [2])], [vi("y", [3, 2])], [depth], opset=11)


def castlike_u8():
    return one_node("CastLike", [4], [4], out_type=TensorProto.UINT8,
                    extra_inputs=[("like", [1], TensorProto.UINT8)])


def resize(mode="linear", scales=(1.0, 1.0, 1.0, 2.0), out_w=8, opset=13, **attrs):
    """Resize of [1, 1, 2, 4] by constant scales (roi and sizes left empty)."""
    s = numpy_helper.from_array(np.array(scales, np.float32), "scales")
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="/up/Resize", mode=mode, **attrs)
    return model([node], [vi("x", [1, 1, 2, 4])], [vi("y", [1, 1, 2, out_w])], [s], opset=opset)


def resize_linear():
    return resize(coordinate_transformation_mode="align_corners")


def resize_nearest_u8():
    s = numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "scales")
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="/up/Resize", mode="nearest",
                            coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    return model([node], [vi("x", [2, 3], TensorProto.UINT8)], [vi("y", [2, 6], TensorProto.UINT8)], [s])


def resize_area():
    return resize(mode="area")


def resize_antialias():
    return resize(scales=(1.0, 1.0, 1.0, 0.5), out_w=2, opset=18, antialias=1)


def resize_bad_nearest():
    return resize(mode="nearest", nearest_mode="round")


def resize_scale_count():
    return resize(scales=(1.0, 2.0))


def conv_transpose(x_shape=(1, 2, 3, 3), w_shape=(2, 3, 3, 3), y_shape=(1, 3, 6, 6), **attrs):
    """ConvTranspose with a constant filter (a stride-2 upsampling by default)."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal(w_shape).astype(np.float32), "w")
    attrs = attrs or dict(strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="/up/ConvTranspose", **attrs)
    return model([node], [vi("x", list(x_shape))], [vi("y", list(y_shape))], [w])


def conv_transpose_stride2():
    return conv_transpose()


def conv_transpose_bad_autopad():
    return conv_transpose(auto_pad="SAME")


def conv_transpose_3d():
    return conv_transpose((1, 2, 3, 3, 3), (2, 3, 3, 3, 3), (1, 3, 5, 5, 5))


def einsum(equation="ij,jk->ik"):
    node = helper.make_node("Einsum", ["a", "b"], ["y"], name="/e/Einsum", equation=equation)
    return model([node], [vi("a", [2, 3]), vi("b", [3, 4])], [vi("y", [2, 4])], opset=13)


def einsum_terms():
    return einsum("ij->ij")


def einsum_output_letter():
    return einsum("ij,jk->iz")


def slice_flip(step=-1):
    """x[:, ::step] as torch.flip exports it: start -1, end INT64_MIN."""
    consts = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
              [("starts", [-1]), ("ends", [np.iinfo(np.int64).min]), ("axes", [1]), ("steps", [step])]]
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"], name="/flip/Slice")
    return model([node], [vi("x", [2, 5])], [vi("y", [2, 5 if step == -1 else 3])], consts)


def slice_step_zero():
    return slice_flip(0)


def lrn_size0():
    return one_node("LRN", [1, 4, 2, 2], [1, 4, 2, 2], size=0)


def mvn_bad_axes():
    return one_node("MeanVarianceNormalization", [1, 4, 2, 2], [1, 4, 2, 2], axes=[0, 5])


def gathernd_long_tuples():
    return one_node("GatherND", [2, 3], [1], extra_inputs=[("i", [1, 3], I64)])


def split_topk_constant():
    """Split and TopK of an initializer: both fold to constants at import."""
    c = numpy_helper.from_array(np.array([[3, 1, 2], [0, 5, 4]], np.float32), "c")
    k = numpy_helper.from_array(np.array([2], np.int64), "k")
    split = helper.make_node("Split", ["c"], ["a", "b"], axis=1, split=[1, 2], name="/Split")
    topk = helper.make_node("TopK", ["c", "k"], ["v", "i"], axis=1, name="/TopK")
    add = helper.make_node("Add", ["x", "b"], ["s"], name="/Add")
    mul = helper.make_node("Mul", ["s", "v"], ["y"], name="/Mul")
    return model([split, topk, add, mul], [vi("x", [2, 2])], [vi("y", [2, 2]), vi("i", [2, 2], I64)],
                 inits=[c, k], opset=11)


def rnn_long():
    """An RNN over 1200 steps: past the unrolling limit."""
    node = helper.make_node("RNN", ["x", "w", "r"], ["y"], name="/RNN", hidden_size=2)
    w = numpy_helper.from_array(np.ones((1, 2, 3), np.float32), "w")
    r = numpy_helper.from_array(np.ones((1, 2, 2), np.float32), "r")
    return model([node], [vi("x", [1200, 1, 3])], [vi("y", [1200, 1, 1, 2])], inits=[w, r], opset=14)


def rnn_long_symbolic_batch():
    """rnn_long with batch first (layout 1) and a symbolic batch."""
    node = helper.make_node("RNN", ["x", "w", "r"], ["y"], name="/RNN", hidden_size=2, layout=1)
    w = numpy_helper.from_array(np.ones((1, 2, 3), np.float32), "w")
    r = numpy_helper.from_array(np.ones((1, 2, 2), np.float32), "r")
    return model([node], [vi("x", ["N", 1200, 3])], [vi("y", ["N", 1200, 1, 2])], inits=[w, r], opset=14)


def gru_bad_activation():
    node = helper.make_node("GRU", ["x", "w", "r"], ["y"], name="/GRU", hidden_size=2,
                            activations=["Sigmoid", "Swish"])
    w = numpy_helper.from_array(np.ones((1, 6, 3), np.float32), "w")
    r = numpy_helper.from_array(np.ones((1, 6, 2), np.float32), "r")
    return model([node], [vi("x", [4, 1, 3])], [vi("y", [4, 1, 1, 2])], inits=[w, r], opset=14)


def maxpool_3d():
    return one_node("MaxPool", [1, 1, 4, 4, 4], [1, 1, 2, 2, 2], kernel_shape=[2, 2, 2], strides=[2, 2, 2])


def scatter_bad_reduction():
    return one_node("ScatterElements", [3, 4], [3, 4], reduction="sum",
                    extra_inputs=[("i", [1, 4], I64), ("u", [1, 4], F)])


def scatter_bool_add():
    return one_node("ScatterElements", [3, 4], [3, 4], in_type=TensorProto.BOOL, out_type=TensorProto.BOOL,
                    reduction="add", extra_inputs=[("i", [1, 4], I64), ("u", [1, 4], TensorProto.BOOL)])


def scatternd_bad_updates():
    return one_node("ScatterND", [4, 3], [4, 3], extra_inputs=[("i", [2, 1], I64), ("u", [2, 2], F)])


def scatternd_rows():
    """ScatterND writing 2 rows of a 4x3 matrix, indices and updates inputs."""
    return one_node("ScatterND", [4, 3], [4, 3], reduction="add",
                    extra_inputs=[("i", [2, 1], I64), ("u", [2, 3], F)])


def topk_k_too_large():
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], name="/TopK", axis=1)
    k = numpy_helper.from_array(np.array([6], np.int64), "k")
    return model([node], [vi("x", [2, 5])], [vi("v", [2, 6]), vi("i", [2, 6], I64)], inits=[k], opset=11)


def topk_k_input():
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], name="/TopK", largest=0)
    return model([node], [vi("x", [2, 5]), vi("k", [1], I64)], [vi("v", [2, 2]), vi("i", [2, 2], I64)], opset=11)


def loop_body(cond_out="c", carried_shape=(2,)):
    nodes = [helper.make_node("Identity", ["c"], ["c_out"]) if cond_out == "c" else
             helper.make_node("Greater", ["v", "zero"], ["c_any"]),
             helper.make_node("Neg", ["v"], ["v_out"])]
    outs = [vi("c_out" if cond_out == "c" else "c_any_r", [], B), vi("v_out", list(carried_shape))]
    if cond_out != "c":
        nodes.append(helper.make_node("ReduceMax", ["c_any_i"], ["c_any_m"], keepdims=0))
        nodes[1:1] = [helper.make_node("Cast", ["c_any"], ["c_any_i"], to=I32)]
        nodes.append(helper.make_node("Cast", ["c_any_m"], ["c_any_r"], to=B))
    return helper.make_graph(nodes, "body", [vi("i", [], I64), vi("c", [], B), vi("v", [2])], outs,
                             [numpy_helper.from_array(np.zeros(2, np.float32), "zero")])


def loop_runtime_trips():
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=loop_body())
    return model([node], [vi("M", [], I64), vi("x", [2])], [vi("y", [2])])


def loop_runtime_condition():
    m = numpy_helper.from_array(np.array(4, np.int64), "M")
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=loop_body("data"))
    return model([node], [vi("x", [2])], [vi("y", [2])], inits=[m])


def loop_too_long():
    m = numpy_helper.from_array(np.array(5000, np.int64), "M")
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=loop_body())
    return model([node], [vi("x", [2])], [vi("y", [2])], inits=[m])


def loop_runtime_while():
    """A run-time count and a condition the body computes: a while loop."""
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=loop_body("data"))
    return model([node], [vi("M", [], I64), vi("x", [2])], [vi("y", [2])])


def loop_runtime_scan():
    """A run-time count with a scan output (its size would be the count)."""
    body = loop_body()
    body.node.append(helper.make_node("Identity", ["v"], ["v_scan"]))
    body.output.append(vi("v_scan", [2]))
    node = helper.make_node("Loop", ["M", "", "x"], ["y", "ys"], name="/Loop", body=body)
    return model([node], [vi("M", [], I64), vi("x", [2])], [vi("y", [2]), vi("ys", None)])


def loop_runtime_grows():
    """A run-time count whose carried value doubles in size each iteration."""
    body = helper.make_graph([helper.make_node("Identity", ["c"], ["c_out"]),
                              helper.make_node("Concat", ["v", "v"], ["v_out"], axis=0)],
                             "body", [vi("i", [], I64), vi("c", [], B), vi("v", [2])],
                             [vi("c_out", [], B), vi("v_out", [4])])
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=body)
    return model([node], [vi("M", [], I64), vi("x", [2])], [vi("y", None)])


def loop_while_forever():
    """No trip count and a condition that stays true: an endless while loop."""
    node = helper.make_node("Loop", ["", "c", "x"], ["y"], name="/Loop", body=loop_body())
    c = numpy_helper.from_array(np.array(True), "c")
    return model([node], [vi("x", [2])], [vi("y", [2])], inits=[c])


def scan_body_sum():
    return helper.make_graph([helper.make_node("Add", ["s", "row"], ["s_next"]),
                              helper.make_node("Identity", ["s_next"], ["out"])],
                             "body", [vi("s", [2]), vi("row", [2])], [vi("s_next", [2]), vi("out", [2])])


def scan_mixed_directions():
    node = helper.make_node("Scan", ["s", "x"], ["y", "ys"], name="/Scan", body=scan_body_sum(),
                            num_scan_inputs=1, scan_input_directions=[1], scan_output_directions=[0])
    return model([node], [vi("s", [2]), vi("x", [4, 2])], [vi("y", [2]), vi("ys", [4, 2])])


def scan_bad_axis():
    node = helper.make_node("Scan", ["s", "x"], ["y", "ys"], name="/Scan", body=scan_body_sum(),
                            num_scan_inputs=1, scan_input_axes=[2])
    return model([node], [vi("s", [2]), vi("x", [4, 2])], [vi("y", [2]), vi("ys", [4, 2])])


def loop_float_count():
    node = helper.make_node("Loop", ["M", "", "x"], ["y"], name="/Loop", body=loop_body())
    return model([node], [vi("M", [], F), vi("x", [2])], [vi("y", [2])])


def if_branch_shapes():
    then = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [], [vi("t", [2])])
    other = helper.make_graph([helper.make_node("Concat", ["x", "x"], ["e"], axis=0)], "else", [],
                              [vi("e", [4])])
    node = helper.make_node("If", ["c"], ["y"], name="/If", then_branch=then, else_branch=other)
    return model([node], [vi("c", [], B), vi("x", [2])], [vi("y", None)])


MODELS = {f.__name__: f for f in [reshape_fixed_batch, batch_size_as_value, batch_size_off_dim0, batch_size_output, batch_size_dim1_value, reshape_fixed_rows, class_token_expand, loop_runtime_trips, loop_runtime_condition, loop_too_long, loop_runtime_while, loop_runtime_scan, loop_runtime_grows, loop_while_forever, loop_float_count, scan_mixed_directions, scan_bad_axis, if_branch_shapes, gathernd_long_tuples, split_topk_constant, maxpool_3d, rnn_long, rnn_long_symbolic_batch, gru_bad_activation, scatter_bad_reduction, scatter_bool_add, scatternd_bad_updates,
                                  scatternd_rows, topk_k_too_large, topk_k_input, lrn_size0, mvn_bad_axes, slice_flip, slice_step_zero, einsum_terms, einsum_output_letter, conv_transpose_stride2, conv_transpose_bad_autopad,
                                  conv_transpose_3d, resize_linear, resize_nearest_u8, resize_area, resize_antialias,
                                  resize_bad_nearest, resize_scale_count, depth_to_space_crd, depth_to_space_bad_mode,
                                  depth_to_space_channels, space_to_depth_odd, eye_like_k,
                                  eye_like_3d, pow_int, castlike_u8, cumsum_reverse, one_hot,add, mlp, mod_float, strided_slice, argmax_last, dropout_training,
                                  dropout_training_zero, nll_loss, nll_bad_target, sce_loss, pad_mirror,
                                  trilu, is_inf_nan, dynamic, dynamic_sequence, sequence_slice_offset, sequence_positions_mod, dynamic_two_symbols, unsupported, opset29, complex64,
                                  split_num_outputs, mish, reduce_min_u8, reduce_empty, pad, pad_reflect,
                                  reshape_input, shape_arith, shape_slice_empty, slice_empty_runtime, layernorm, gelu, gelu_tanh, linear,
                                  undefined, where_shape, logical_runtime, and_float, where_types,
                                  less_broadcast, bad_stride, bad_axes]}

if __name__ == "__main__":
    name, out = sys.argv[1], sys.argv[2]
    if name in ("corrupt", "truncated", "empty"):
        data = add().SerializeToString()
        with open(out, "wb") as f:
            f.write({"corrupt": b"\x08\x07\xff\xff\xff\xffgarbage" + data[:10],
                     "truncated": data[: len(data) // 2], "empty": b""}[name])
    else:
        onnx.save(MODELS[name](), out)
