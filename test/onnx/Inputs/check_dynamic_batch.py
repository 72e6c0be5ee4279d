"""Compiles a PyTorch model exported with a dynamic batch (test/models/export.py
--dynamic-batch=B: dim_param 'batch' on dim 0 of x and y) once, with
--max-dim=batch=B, and runs the one artifact at several batches: a run of batch
n on x[:n] must give PyTorch's y[:n] (eval mode: the images of a batch are
independent).

    check_dynamic_batch.py DLC_BIN_DIR MODEL_DIR WORKDIR BATCHES [flags...]

Flags go to `dlc compile`, except --gpu=... and --check-ordering (to `dlc run`).

BATCHES is a comma-separated list (1,3,4). Tolerance as check_onnx_model.py:
|dlc - torch| <= 1e-4 + 1e-3 |torch|. Prints "NAME batch N: ok (shape S, max
abs err E)" per batch, or exits 1 naming the worst element.
"""
import os
import subprocess
import sys

import numpy as np

RTOL, ATOL = 1e-3, 1e-4


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("command failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    return r.stdout


def check(name, what, got, want):
    """Exits naming the worst element when `got` differs from PyTorch's `want`;
    else prints the line the tests check."""
    if got.shape != want.shape:
        sys.exit("%s %s: shape %s, PyTorch %s" % (name, what, got.shape, want.shape))
    err = np.abs(got.astype(np.float64) - want)
    bad = err > ATOL + RTOL * np.abs(want)
    if bad.any():
        i = np.unravel_index(np.argmax(err - RTOL * np.abs(want)), want.shape)
        sys.exit("%s %s: %d of %d elements differ from PyTorch (worst at %s: %r vs %r)"
                 % (name, what, bad.sum(), want.size, i, got[i], want[i]))
    print("%s %s: ok (shape %s, max abs err %.2g)" % (name, what, list(got.shape), err.max()))


def main():
    bindir, model_dir, work, batches = sys.argv[1:5]
    run_flags = [f for f in sys.argv[5:] if f.startswith(("--gpu=", "--check-ordering"))]
    flags = [f for f in sys.argv[5:] if f not in run_flags]
    dlc = os.path.join(bindir, "dlc")
    x, ref = np.load(os.path.join(model_dir, "x.npy")), np.load(os.path.join(model_dir, "y.npy"))
    bound = x.shape[0]
    name = os.path.basename(os.path.normpath(model_dir))
    os.makedirs(work, exist_ok=True)
    artifact = os.path.join(work, "model.dlcm")
    run([dlc, "compile", os.path.join(model_dir, "model.onnx"), "--max-dim=batch=%d" % bound,
         "-o", artifact] + flags)
    for n in (int(b) for b in batches.split(",")):
        x_path = os.path.join(work, "x%d.npy" % n)
        np.save(x_path, x[:n])
        out = os.path.join(work, "out%d" % n)
        run([dlc, "run", artifact, "--input=x=" + x_path, "--output-dir=" + out] + run_flags)
        check(name, "batch %d" % n, np.load(os.path.join(out, "y.npy")), ref[:n])


if __name__ == "__main__":
    main()
