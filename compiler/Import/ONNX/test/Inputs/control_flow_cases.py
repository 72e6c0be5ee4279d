"""If and Loop node tests in Debian's layout, NumPy the reference:
control_flow_cases.py OUT. Each case's expected outputs are computed here
from the semantics the ONNX spec gives, not from an ONNX runtime."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
rng = np.random.default_rng(11)
x = rng.standard_normal((2, 3)).astype(np.float32)
w = rng.standard_normal((3,)).astype(np.float32)


def vi(name, et, shape):
    return helper.make_tensor_value_info(name, et, shape)


def const(name, value):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(value), name))


def write(name, nodes, inputs, feeds, outputs, expected_sets, inits=()):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    d = os.path.join(sys.argv[1], name)
    for k, (feed, expected) in enumerate(zip(feeds, expected_sets)):
        s = os.path.join(d, "test_data_set_%d" % k)
        os.makedirs(s, exist_ok=True)
        for i, (info, v) in enumerate(zip(inputs, feed)):
            open(os.path.join(s, "input_%d.pb" % i), "wb").write(
                numpy_helper.from_array(v, info.name).SerializeToString())
        for i, (info, v) in enumerate(zip(outputs, expected)):
            open(os.path.join(s, "output_%d.pb" % i), "wb").write(
                numpy_helper.from_array(v, info.name).SerializeToString())
    onnx.save(m, os.path.join(d, "model.onnx"))


def branch(name, node_op, out):
    """A branch reading the outer graph's x and w (no inputs of its own)."""
    return helper.make_graph([helper.make_node(node_op, ["x", "w"], [out])], name, [],
                             [vi(out, F, [2, 3])])


# If on a condition folded at import time (a comparison of constants): the
# else branch is inlined alone.
write("test_if_folded",
      [const("a", np.float32(1)), const("b", np.float32(2)),
       helper.make_node("Greater", ["a", "b"], ["c"]),
       helper.make_node("If", ["c"], ["y"], then_branch=branch("then", "Add", "t"),
                        else_branch=branch("else", "Mul", "e"))],
      [vi("x", F, [2, 3])], [[x]], [vi("y", F, [2, 3])], [[x * w]],
      inits=[numpy_helper.from_array(w, "w")])

# If on a run-time condition: both branches, a select; one test set per side.
write("test_if_runtime",
      [helper.make_node("If", ["c"], ["y"], then_branch=branch("then", "Sub", "t"),
                        else_branch=branch("else", "Div", "e"))],
      [vi("c", B, []), vi("x", F, [2, 3])],
      [[np.array(True), x], [np.array(False), x]], [vi("y", F, [2, 3])],
      [[x - w], [x / w]], inits=[numpy_helper.from_array(w, "w")])

# Loop with a constant trip count: acc += x * i, scanning acc each iteration;
# the body has an initializer of its own and passes its condition through.
body = helper.make_graph(
    [helper.make_node("Cast", ["i"], ["fi"], to=F),
     helper.make_node("Mul", ["x", "fi"], ["xi"]),
     helper.make_node("Add", ["acc", "xi"], ["acc_next"]),
     helper.make_node("Mul", ["acc_next", "half"], ["scan"]),
     helper.make_node("Identity", ["cond"], ["cond_out"])],
    "body", [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [2, 3])],
    [vi("cond_out", B, []), vi("acc_next", F, [2, 3]), vi("scan", F, [2, 3])],
    [numpy_helper.from_array(np.float32(0.5), "half")])
acc, scans = np.zeros((2, 3), np.float32), []
for i in range(5):
    acc = acc + x * np.float32(i)
    scans.append(acc * np.float32(0.5))
write("test_loop_fixed",
      [helper.make_node("Loop", ["M", "", "zero"], ["acc_final", "scanned"], body=body)],
      [vi("x", F, [2, 3])], [[x]], [vi("acc_final", F, [2, 3]), vi("scanned", F, [5, 2, 3])],
      [[acc, np.stack(scans)]],
      inits=[numpy_helper.from_array(np.array(5, np.int64), "M"),
             numpy_helper.from_array(np.zeros((2, 3), np.float32), "zero")])

# Loop that stops early: M = 10, the body's condition i < 3 folds, so 4
# iterations run (the one that computes false included); an If inside the
# body on i == 2 (folded per iteration) picks Add or Sub of the outer w.
inner_if = helper.make_node("If", ["is2"], ["step"],
                            then_branch=helper.make_graph([helper.make_node("Sub", ["v", "w"], ["s"])], "t", [],
                                                          [vi("s", F, [3])]),
                            else_branch=helper.make_graph([helper.make_node("Add", ["v", "w"], ["a"])], "e", [],
                                                          [vi("a", F, [3])]))
body2 = helper.make_graph(
    [const("three", np.int64(3)), const("two", np.int64(2)),
     helper.make_node("Less", ["i", "three"], ["go"]),
     helper.make_node("Equal", ["i", "two"], ["is2"]), inner_if,
     helper.make_node("Abs", ["step"], ["out"])],
    "body2", [vi("i", I64, []), vi("c", B, []), vi("v", F, [3])],
    [vi("go", B, []), vi("step", F, [3]), vi("out", F, [3])])
v0 = rng.standard_normal((3,)).astype(np.float32)
v, outs = v0.copy(), []
for i in range(10):
    v = v - w if i == 2 else v + w
    outs.append(np.abs(v))
    if not i < 3:
        break
write("test_loop_early_exit",
      [const("M", np.int64(10)), const("t", np.bool_(True)),
       helper.make_node("Loop", ["M", "t", "v0"], ["v_final", "outs"], body=body2)],
      [vi("v0", F, [3])], [[v0]], [vi("v_final", F, [3]), vi("outs", F, [4, 3])],
      [[v, np.stack(outs)]], inits=[numpy_helper.from_array(w, "w")])

# Scan (one dlc.loop): a running sum over rows, doubled as a scan output.
xs = rng.standard_normal((4, 2)).astype(np.float32)
scan_body = helper.make_graph(
    [helper.make_node("Add", ["s", "row"], ["s_next"]),
     helper.make_node("Add", ["s_next", "s_next"], ["twice"])],
    "scan_body", [vi("s", F, [2]), vi("row", F, [2])], [vi("s_next", F, [2]), vi("twice", F, [2])])
s, twice = np.zeros(2, np.float32), []
for t in range(4):
    s = s + xs[t]
    twice.append(s + s)
write("test_scan_forward",
      [helper.make_node("Scan", ["s0", "xs"], ["s_final", "twice"], body=scan_body, num_scan_inputs=1)],
      [vi("s0", F, [2]), vi("xs", F, [4, 2])], [[np.zeros(2, np.float32), xs]],
      [vi("s_final", F, [2]), vi("twice", F, [4, 2])], [[s, np.stack(twice)]])

# Scan counted down, one input along axis 1 and one along axis 0, the output
# along axis 1, the outer w read in the body; a max carried beside the sum.
x1 = rng.standard_normal((3, 5)).astype(np.float32)
x2 = rng.standard_normal((5, 3)).astype(np.float32)
rev_body = helper.make_graph(
    [helper.make_node("Mul", ["r1", "w"], ["r1w"]),
     helper.make_node("Add", ["s", "r1w"], ["s1"]),
     helper.make_node("Add", ["s1", "r2"], ["s_next"]),
     helper.make_node("Max", ["m", "r1"], ["m_next"]),
     helper.make_node("Identity", ["s_next"], ["out"])],
    "rev_body", [vi("s", F, [3]), vi("m", F, [3]), vi("r1", F, [3]), vi("r2", F, [3])],
    [vi("s_next", F, [3]), vi("m_next", F, [3]), vi("out", F, [3])])
s, m, outs = np.zeros(3, np.float32), np.full(3, -5, np.float32), np.zeros((3, 5), np.float32)
for t in reversed(range(5)):
    s = s + x1[:, t] * w + x2[t]
    m = np.maximum(m, x1[:, t])
    outs[:, t] = s
write("test_scan_reverse_axes",
      [helper.make_node("Scan", ["s0", "m0", "x1", "x2"], ["s_final", "m_final", "outs"], body=rev_body,
                        num_scan_inputs=2, scan_input_axes=[1, 0], scan_input_directions=[1, 1],
                        scan_output_axes=[1], scan_output_directions=[1])],
      [vi("s0", F, [3]), vi("m0", F, [3]), vi("x1", F, [3, 5]), vi("x2", F, [5, 3])],
      [[np.zeros(3, np.float32), np.full(3, -5, np.float32), x1, x2]],
      [vi("s_final", F, [3]), vi("m_final", F, [3]), vi("outs", F, [3, 5])], [[s, m, outs]],
      inits=[numpy_helper.from_array(w, "w")])
