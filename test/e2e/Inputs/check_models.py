"""Checks the reference interpreter's outputs of the example models: shapes,
finiteness, and what each model's head implies (softmax rows sum to 1)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy

out_dir = sys.argv[1]
expect = {"mlp": ("probs", [32, 10]), "cnn": ("logits", [4, 10]), "encoder": ("y", [2, 128, 256])}
for model, (name, shape) in expect.items():
    descr, got_shape, values = npy.read(os.path.join(out_dir, model, name + ".npy"))
    assert descr == "<f4", (model, descr)
    assert got_shape == shape, (model, got_shape, shape)
    assert all(math.isfinite(v) for v in values), model
    spread = max(values) - min(values)
    assert spread > 1e-3, (model, "outputs are (nearly) constant", spread)
    if model == "mlp":
        for r in range(32):
            row = values[r * 10:(r + 1) * 10]
            assert abs(sum(row) - 1) < 1e-5, (r, sum(row))
    print("%s: %s %s ok" % (model, name, "x".join(map(str, shape))))
