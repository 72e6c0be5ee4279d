#!/usr/bin/env python3
"""The `pad` model of make_onnx.py in NumPy (np.pad and slicing, not dlc's
decomposition): writes a random input, then compares dlc's output with it.

usage: check_pad.py input X.npy | check_pad.py compare X.npy Y.npy
"""
import sys

import numpy as np

if sys.argv[1] == "input":
    np.save(sys.argv[2], np.random.default_rng(3).standard_normal((1, 3, 4, 5)).astype(np.float32))
    sys.exit(0)
x, got = np.load(sys.argv[2]), np.load(sys.argv[3])
p = np.pad(x, ((0, 0), (0, 0), (1, 1), (2, 0)))          # pads [0,0,1,2, 0,0,1,0]
c = p[:, 1:, :, :-2]                                      # crop [0,-1,0,0, 0,0,0,-2]
c = np.pad(c, ((0, 0), (0, 0), (0, 0), (3, 0)), constant_values=-0.5)  # then 3 of -0.5
ref = np.maximum(c, 0)
if got.shape != ref.shape or not np.array_equal(got, ref):
    sys.exit("pad: shape %s vs %s, max diff %s" % (got.shape, ref.shape,
             np.abs(got - ref).max() if got.shape == ref.shape else "-"))
print("pad: exact")
