#!/usr/bin/env python3
"""LSTM and GRU as loops (dlc.loop, past OnnxRecurrent.cpp's 32 unrolled
steps) against ONNX Runtime, and the unrolled form at the boundary.

    pip install --target /tmp/ort onnx onnxruntime
    PYTHONPATH=/tmp/ort python3 test/bench/recurrent_bench.py [--dlc build/bin/dlc]
        [--cases lstm:32,lstm:33,lstm:256,gru:256] [--iterations 50] [--repeats 5]

Each case is one ONNX node (hidden 128, input 64, batch 4, random weights,
forward) at SEQ steps: up to 32 dlc unrolls it, past 32 it is one loop.
Measured at one thread: `dlc run --threads=1 --iterations=N --warmup=3` (its
median) and ONNX Runtime's InferenceSession with intra_op_num_threads=1 (the
median of N runs), alternating REPEATS times, the median of medians quoted,
with dlc's compile time (median of 3) and the outputs' agreement. Not in CI:
it needs PyPI's onnx and onnxruntime.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper, TensorProto as TP

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from symbolic_batch_bench import compile_timed, latency_ms, run  # noqa: E402

HIDDEN, INPUT, BATCH = 128, 64, 4


def make_model(op, seq, rng):
    gates = {"LSTM": 4, "GRU": 3}[op]
    w = rng.standard_normal((1, gates * HIDDEN, INPUT)).astype(np.float32) * 0.1
    r = rng.standard_normal((1, gates * HIDDEN, HIDDEN)).astype(np.float32) * 0.1
    b = rng.standard_normal((1, 2 * gates * HIDDEN)).astype(np.float32) * 0.1
    node = helper.make_node(op, ["x", "w", "r", "b"], ["y", "yh"], hidden_size=HIDDEN)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TP.FLOAT, [seq, BATCH, INPUT])],
        [helper.make_tensor_value_info("y", TP.FLOAT, None), helper.make_tensor_value_info("yh", TP.FLOAT, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(r, "r"), numpy_helper.from_array(b, "b")])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    return m


def ort_ms(session, x, iterations):
    for _ in range(3):
        session.run(None, {"x": x})
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        session.run(None, {"x": x})
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    p.add_argument("--cases", default="lstm:32,lstm:33,lstm:256,gru:256")
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--work", default=os.path.join(ROOT, "build", "bench", "recurrent"))
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print("CPU: %s; one thread; hidden %d, input %d, batch %d; median of %d x %d runs" % (
        cpu, HIDDEN, INPUT, BATCH, a.repeats, a.iterations))
    print("%-10s %-9s %10s %10s %8s %10s %9s" % ("case", "form", "dlc ms", "ORT ms", "ratio",
                                                  "compile s", "max err"))
    rng = np.random.default_rng(0)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    for case in a.cases.split(","):
        op, seq = case.split(":")
        op, seq = op.upper(), int(seq)
        folder = os.path.join(a.work, case.replace(":", "_"))
        os.makedirs(folder, exist_ok=True)
        model = make_model(op, seq, rng)
        onnx_path = os.path.join(folder, "model.onnx")
        onnx.save(model, onnx_path)
        x = rng.standard_normal((seq, BATCH, INPUT)).astype(np.float32)
        x_path = os.path.join(folder, "x.npy")
        np.save(x_path, x)
        artifact = os.path.join(folder, "m.dlcm")
        compile_s, _ = compile_timed(a.dlc, onnx_path, artifact, [], repeats=3)
        form = "loop" if "dlc.loop" in run([a.dlc, "import", onnx_path]) else "unrolled"
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        run([a.dlc, "run", artifact, "--input=x=" + x_path, "--output-dir=" + folder])
        want = session.run(None, {"x": x})[0]
        err = float(np.max(np.abs(np.load(os.path.join(folder, "y.npy")) - want)))
        dlc_t, ort_t = [], []
        for _ in range(a.repeats):
            dlc_t.append(latency_ms(a.dlc, artifact, x_path, a.iterations))
            ort_t.append(ort_ms(session, x, a.iterations))
        d, o = statistics.median(dlc_t), statistics.median(ort_t)
        print("%-10s %-9s %10.3f %10.3f %8.2f %10.2f %9.1e" % (case, form, d, o, d / o, compile_s, err))


if __name__ == "__main__":
    main()
