"""Compiles an exported PyTorch model (test/models/export.py) from its ONNX
file with dlc, runs it on the exported input and compares with PyTorch's
output.

    check_onnx_model.py DLC_BIN_DIR MODEL_DIR WORKDIR [flags...]

Flags go to `dlc compile`, except --gpu=..., --check-ordering and
--iterations=... which go to `dlc run` ($DLC_RUN, when set, runs the artifact
instead: a cross-built dlc-run under qemu-aarch64). Tolerance (ONNX backend tests' rtol,
an atol for values near zero after long f32 sums):
  |dlc - torch| <= 1e-4 + 1e-3 |torch|, element by element.
Prints "NAME: ok (max abs err E)" or exits 1 naming the worst element.
"""
import os
import subprocess
import sys

import numpy as np

RTOL, ATOL = 1e-3, 1e-4


def main():
    bindir, model_dir, work = sys.argv[1:4]
    flags = sys.argv[4:]
    run_flags = [f for f in flags if f.startswith(("--gpu=", "--check-ordering", "--iterations="))]
    compile_flags = [f for f in flags if f not in run_flags]
    # Simulated GPUs always run with the ordering checker in the tests.
    if "--gpu=sim" in run_flags and "--check-ordering" not in run_flags:
        run_flags.append("--check-ordering")
    os.makedirs(work, exist_ok=True)
    artifact = os.path.join(work, "model.dlcm")
    dlc = os.path.join(bindir, "dlc")
    for cmd in ([dlc, "compile", os.path.join(model_dir, "model.onnx"), "-o", artifact] + compile_flags,
                os.environ.get("DLC_RUN", dlc + " run").split() + [artifact, "--input=x=" + os.path.join(model_dir, "x.npy"),
                 "--output-dir=" + os.path.join(work, "out")] + run_flags):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit("command failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    got = np.load(os.path.join(work, "out", "y.npy"))
    ref = np.load(os.path.join(model_dir, "y.npy"))
    name = os.path.basename(os.path.normpath(model_dir))
    if got.shape != ref.shape:
        sys.exit("%s: shape %s, PyTorch %s" % (name, got.shape, ref.shape))
    err = np.abs(got.astype(np.float64) - ref)
    bad = err > ATOL + RTOL * np.abs(ref)
    if bad.any():
        i = np.unravel_index(np.argmax(err - RTOL * np.abs(ref)), ref.shape)
        sys.exit("%s: %d of %d elements differ from PyTorch (worst at %s: %r vs %r)" % (
            name, bad.sum(), ref.size, i, got[i], ref[i]))
    print("%s: ok (max abs err %.2g)" % (name, err.max()))


if __name__ == "__main__":
    main()
