"""An independent computation of interpreter_vs_python.mlir in plain Python:
each op computed in double and rounded once to its result type (f32 with
struct 'f', f16 with struct 'e', both IEEE round-to-nearest-even)."""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def f16(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


X = [[f32((i - 1) * 0.5 + j * 0.3 - 0.6) for j in range(5)] for i in range(3)]
W = [[((i * 5 + j) % 7 - 3) * 0.25 for j in range(5)] for i in range(4)]
B = [f32(0.1), f32(-0.2), f32(0.3), 0.0]
GAMMA, BETA = [1.0, 0.5, 2.0, 1.5], [0.0, 0.25, -0.25, 0.5]


def forward():
    probs, half = [], []
    for row in X:
        h = [f32(sum(row[k] * W[n][k] for k in range(5)) + B[n]) for n in range(4)]
        g = [f32(0.5 * v * (1 + math.erf(v / math.sqrt(2)))) for v in h]
        mean = sum(g) / 4
        var = sum((v - mean) ** 2 for v in g) / 4
        ln = [f32((v - mean) / math.sqrt(var + 1e-5) * GAMMA[i] + BETA[i]) for i, v in enumerate(g)]
        top = max(ln)
        e = [math.exp(v - top) for v in ln]
        probs += [f32(v / sum(e)) for v in e]
        gh = [f16(v) for v in g]
        half += [f16(f16(f16(v / 3) * 3) + v) for v in gh]
    return probs, half


def ulp32(v):
    return math.ulp(f32(abs(v))) * 2 ** 29 if v else 2 ** -149  # f32 ulp from f64 ulp


if sys.argv[1] == "write-inputs":
    npy.write(os.path.join(sys.argv[2], "x.npy"), [v for r in X for v in r], [3, 5])
else:
    probs, half = forward()
    out = os.path.join(sys.argv[2], "out")
    descr, shape, got = npy.read(os.path.join(out, "probs.npy"))
    assert (descr, shape) == ("<f4", [3, 4]), (descr, shape)
    for i, (a, b) in enumerate(zip(got, probs)):
        assert abs(a - b) <= 2 * ulp32(b), ("probs", i, a, b)
    print("probs: 12 values within 2 ulp")
    descr, shape, got = npy.read(os.path.join(out, "half.npy"))
    assert (descr, shape) == ("<f2", [3, 4]), (descr, shape)
    assert got == half, ("half", got, half)
    print("half: 12 values bit-exact")
