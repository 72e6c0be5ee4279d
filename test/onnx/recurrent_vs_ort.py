#!/usr/bin/env python3
"""LSTM, GRU and RNN (OnnxRecurrent.cpp) against ONNX Runtime, on what the
node tests and PyTorch's exports leave out: sequence_lens with every
direction, clip (on the gates' inputs, as ONNX Runtime reads the spec),
peepholes, input_forget, linear_before_reset, every activation with
activation_alpha/beta. Each case is one ONNX node with random weights,
compiled with `dlc compile` and run with `dlc run`; outputs must agree to
1e-5 of their largest magnitude. (ONNX Runtime refuses layout = 1; the node
tests cover it.) Every case runs twice: at its own length, unrolled, and
over 48 steps, past OnnxRecurrent.cpp's kMaxUnrolledSteps, as a dlc.loop.
Not in CI: it needs PyPI's onnx and onnxruntime.

    pip install --target /tmp/ort onnx onnxruntime
    PATH=build/bin:$PATH PYTHONPATH=/tmp/ort python3 test/onnx/recurrent_vs_ort.py WORKDIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper, TensorProto as TP

rng = np.random.default_rng(0)
WORK = sys.argv[1] if len(sys.argv) > 1 else "recurrent-cases"
FAILED = []


def case(name, op, dirs, attrs, **kw):
    one_case(name, op, dirs, attrs, **kw)
    one_case(name + "_loop", op, dirs, attrs, **dict(kw, seq=48))


def one_case(name, op, dirs, attrs, seq=5, batch=3, inp=4, hid=3, lens=True, h0=True, peep=False, layout=0):
    G = {"LSTM": 4, "GRU": 3, "RNN": 1}[op]
    X = rng.standard_normal((batch, seq, inp) if layout else (seq, batch, inp)).astype(np.float32)
    W = rng.standard_normal((dirs, G*hid, inp)).astype(np.float32) * 0.5
    R = rng.standard_normal((dirs, G*hid, hid)).astype(np.float32) * 0.5
    B = rng.standard_normal((dirs, 2*G*hid)).astype(np.float32) * 0.5
    L = rng.integers(1, seq + 1, batch).astype(np.int32)
    H0 = rng.standard_normal((batch, dirs, hid) if layout else (dirs, batch, hid)).astype(np.float32)
    inputs = ["X", "W", "R", "B", "L" if lens else "", "H0" if h0 else ""]
    feeds = {"X": X}
    inits = [numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"), numpy_helper.from_array(B, "B")]
    gi = [helper.make_tensor_value_info("X", TP.FLOAT, X.shape)]
    if lens: feeds["L"] = L; gi.append(helper.make_tensor_value_info("L", TP.INT32, L.shape))
    if h0: feeds["H0"] = H0; gi.append(helper.make_tensor_value_info("H0", TP.FLOAT, H0.shape))
    outs = ["Y", "Yh"]
    if op == "LSTM":
        C0 = rng.standard_normal(H0.shape).astype(np.float32)
        inputs.append("C0"); feeds["C0"] = C0; gi.append(helper.make_tensor_value_info("C0", TP.FLOAT, C0.shape))
        if peep:
            P = rng.standard_normal((dirs, 3*hid)).astype(np.float32) * 0.5
            inputs.append("P"); inits.append(numpy_helper.from_array(P, "P"))
        outs.append("Yc")
    node = helper.make_node(op, inputs, outs, hidden_size=hid, layout=layout, **attrs)
    go = [helper.make_tensor_value_info(o, TP.FLOAT, None) for o in outs]
    m = helper.make_model(helper.make_graph([node], "g", gi, go, inits), opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    d = os.path.join(WORK, name); os.makedirs(d, exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    args = []
    for k, v in feeds.items():
        np.save(os.path.join(d, k + ".npy"), v); args.append("--input=%s=%s" % (k, os.path.join(d, k + ".npy")))
    subprocess.run(["dlc", "compile", os.path.join(d, "model.onnx"), "-o", os.path.join(d, "m.dlcm")], check=True)
    subprocess.run(["dlc", "run", os.path.join(d, "m.dlcm"), "--output-dir=" + d] + args, check=True, stdout=subprocess.DEVNULL)
    worst = 0
    for o, r in zip(outs, ref):
        got = np.load(os.path.join(d, o + ".npy"))
        worst = max(worst, float(np.max(np.abs(got - r))) / max(1e-6, float(np.max(np.abs(r)))))
    print("%-28s %s rel err %.2e" % (name, "ok" if worst < 1e-5 else "MISMATCH", worst))
    if not worst < 1e-5:
        FAILED.append(name)

case("lstm_bidir_lens", "LSTM", 2, dict(direction="bidirectional"))
case("lstm_reverse", "LSTM", 1, dict(direction="reverse"))
case("lstm_peep", "LSTM", 1, dict(), peep=True)
case("lstm_clip", "LSTM", 1, dict(clip=0.7))
case("lstm_clip_nolens", "LSTM", 1, dict(clip=0.7), lens=False)
case("lstm_input_forget", "LSTM", 1, dict(input_forget=1))
case("lstm_acts", "LSTM", 1, dict(activations=["HardSigmoid", "LeakyRelu", "ScaledTanh"], activation_alpha=[0.3, 0.1, 0.9], activation_beta=[0.4, 1.1]))
case("gru_bidir_lens_lbr", "GRU", 2, dict(direction="bidirectional", linear_before_reset=1))
case("gru_reverse_lens", "GRU", 1, dict(direction="reverse"))
case("gru_acts", "GRU", 1, dict(activations=["Sigmoid", "Softsign"]))
case("rnn_bidir_relu_lens", "RNN", 2, dict(direction="bidirectional", activations=["Relu", "Elu"], activation_alpha=[0.5]))
case("rnn_affine_clip", "RNN", 1, dict(activations=["Affine"], activation_alpha=[0.8], activation_beta=[0.1], clip=1.5))
case("rnn_softplus_thresh", "RNN", 2, dict(direction="bidirectional", activations=["Softplus", "ThresholdedRelu"], activation_alpha=[0.2]), lens=False)
case("lstm_clip_nolens_peep_bidir", "LSTM", 2, dict(clip=0.7, direction="bidirectional"), lens=False, peep=True)
case("gru_clip_nolens", "GRU", 1, dict(clip=0.5), lens=False)
case("gru_clip_lbr_bidir", "GRU", 2, dict(clip=0.5, linear_before_reset=1, direction="bidirectional"))
case("rnn_clip_nolens", "RNN", 1, dict(clip=0.3), lens=False)
case("lstm_long_batch1", "LSTM", 1, dict(), seq=40, batch=1, inp=6, hid=5, lens=False)
sys.exit(1 if FAILED else 0)
