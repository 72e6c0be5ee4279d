"""Compiles a PyTorch model exported with a dynamic sequence (test/models/export.py
--dynamic-seq=16,40,64: dim_param 'seq' on dim 1 of x and y, token ids [1, t])
once, with --max-dim=seq=BOUND (the longest length exported), and runs the one
artifact at each of LENGTHS: the run on x.N.npy must give PyTorch's y.N.npy, computed at that
length (attention reads every token, so a run is no slice of the bound's).

    check_dynamic_sequence.py DLC_BIN_DIR MODEL_DIR WORKDIR LENGTHS [flags...]

Flags go to `dlc compile`, except --gpu=... and --check-ordering (to `dlc run`).
Tolerance as check_onnx_model.py: |dlc - torch| <= 1e-4 + 1e-3 |torch|. Prints
"NAME length N: ok (shape S, max abs err E)" per length, or exits 1 naming the
worst element.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from check_dynamic_batch import check, run


def main():
    bindir, model_dir, work, lengths = sys.argv[1:5]
    lengths = [int(n) for n in lengths.split(",")]
    run_flags = [f for f in sys.argv[5:] if f.startswith(("--gpu=", "--check-ordering"))]
    flags = [f for f in sys.argv[5:] if f not in run_flags]
    dlc = os.path.join(bindir, "dlc")
    name = os.path.basename(os.path.normpath(model_dir))
    os.makedirs(work, exist_ok=True)
    artifact = os.path.join(work, "model.dlcm")
    bound = max(int(f.split(".")[1]) for f in os.listdir(model_dir)
                if f.startswith("x.") and f.count(".") == 2)
    run([dlc, "compile", os.path.join(model_dir, "model.onnx"),
         "--max-dim=seq=%d" % bound, "-o", artifact] + flags)
    for n in lengths:
        out = os.path.join(work, "out%d" % n)
        run([dlc, "run", artifact, "--input=x=" + os.path.join(model_dir, "x.%d.npy" % n),
             "--output-dir=" + out] + run_flags)
        check(name, "length %d" % n, np.load(os.path.join(out, "y.npy")),
              np.load(os.path.join(model_dir, "y.%d.npy" % n)))


if __name__ == "__main__":
    main()
