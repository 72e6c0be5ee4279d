"""Mixed precision end to end: compiles MODEL with --precision (and the other
flags given), runs it on simulated GPUs, and compares every output with

  - the reference interpreter run on the same painted IR (`dlc compile
    --emit=mlir`: placed, painted, with its casts and copies; the interpreter
    rounds at every cast): relative L2 <= 1e-3;
  - the reference interpreter on the fp32 model: relative L2 > 1e-6 (the
    arithmetic really is f16 somewhere) and <= 1e-2.

    check_mixed.py MODEL.mlir WORKDIR [flags for dlc compile...] [--gpu=sim]

Inputs are dlc's default random ones, or those given to --calibrate=NAME=FILE
(then run and interpreted on the same files).
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy


def run(cmd):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("command failed (%d): %s\n%s%s" % (result.returncode, " ".join(cmd),
                                                    result.stdout, result.stderr))
    return result.stdout


def rel_l2(a_path, b_path):
    _, ashape, a = npy.read(a_path)
    _, bshape, b = npy.read(b_path)
    if ashape != bshape:
        sys.exit("%s: shape %s, %s has %s" % (a_path, ashape, b_path, bshape))
    if any(not math.isfinite(x) for x in a) and all(math.isfinite(y) for y in b):
        return math.inf
    num = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b) if x != y))
    den = math.sqrt(sum(y * y for y in b))
    return num / den if den > 0 else num


def main():
    model, work = sys.argv[1], sys.argv[2]
    flags = [f for f in sys.argv[3:] if not f.startswith("--gpu=")]
    run_flags = [f for f in sys.argv[3:] if f.startswith("--gpu=")]
    # Simulated GPUs always run with the ordering checker in the tests.
    if "--gpu=sim" in run_flags:
        run_flags.append("--check-ordering")
    inputs = ["--input=" + f[len("--calibrate="):] for f in flags if f.startswith("--calibrate=")]
    os.makedirs(work, exist_ok=True)
    painted = os.path.join(work, "painted.mlir")
    artifact = os.path.join(work, "model.dlcm")
    with open(painted, "w") as f:
        f.write(run(["dlc", "compile", model, "--emit=mlir"] + flags))
    run(["dlc", "compile", model, "-o", artifact] + flags)
    dirs = {k: os.path.join(work, k) for k in ("run", "painted", "fp32")}
    # $DLC_RUN: another runner (a cross-built dlc-run under qemu-aarch64).
    runner = os.environ.get("DLC_RUN", "dlc run").split()
    run(runner + [artifact, "--output-dir", dirs["run"]] + run_flags + inputs)
    interpret = ["--random-inputs"] + inputs
    run(["dlc", "interpret", painted, "--output-dir", dirs["painted"]] + interpret)
    run(["dlc", "interpret", model, "--output-dir", dirs["fp32"]] + interpret)
    for name in sorted(os.listdir(dirs["fp32"])):
        got = os.path.join(dirs["run"], name)
        vs_painted = rel_l2(got, os.path.join(dirs["painted"], name))
        vs_fp32 = rel_l2(got, os.path.join(dirs["fp32"], name))
        if vs_painted > 1e-3:
            sys.exit("%s: relative L2 %.3g against the painted IR > 1e-3" % (name, vs_painted))
        if not 1e-6 < vs_fp32 <= 1e-2:
            sys.exit("%s: relative L2 %.3g against fp32 not in (1e-6, 1e-2]" % (name, vs_fp32))
        print("%s: ok (painted %.2g, fp32 %.2g)" % (name[:-4], vs_painted, vs_fp32))


main()
