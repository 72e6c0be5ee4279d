"""Compiles a model with dlc, runs it, runs the reference interpreter on the same
inputs, and compares every output.

    check_e2e.py MODEL.mlir ENTRY WORKDIR [extra flags...]

Extra flags go to `dlc compile`, except --gpu=..., --check-ordering and
--threads=... which go to `dlc run`. $DLC_RUN, when set, is the command that
runs the artifact instead of `dlc run` (e.g. a cross-built dlc-run under
qemu-aarch64: test/e2e/aarch64.mlir).

Both sides use their default random inputs (the same generator and seed, so the
same values for the same signature). The tolerances, in one place:
  f32:  relative L2 error <= 1e-5 (||run - ref|| / ||ref||, ref from f64 math)
  f16:  relative L2 error <= 2e-3    bf16: <= 1.6e-2  (a few units of their epsilon)
  integers and i1: exact
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy

TOLERANCE = {"<f8": 1e-12, "<f4": 1e-5, "<f2": 2e-3, "<u2": 1.6e-2}  # <u2: bf16 bits


def bf16_values(bits):
    import struct
    return [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits]


def run(cmd):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit("command failed (%d): %s\n%s" % (result.returncode, " ".join(cmd), result.stdout))
    return result.stdout


def compare(ref_path, run_path, name):
    rdescr, rshape, ref = npy.read(ref_path)
    descr, shape, got = npy.read(run_path)
    if shape != rshape:
        sys.exit("%s: shape %s, reference %s" % (name, shape, rshape))
    if descr == "<u2":  # bf16 from dlc run; the interpreter writes bf16 as f32
        got = bf16_values(got)
    if descr not in TOLERANCE:
        if got != ref:
            bad = next(i for i, (a, b) in enumerate(zip(got, ref)) if a != b)
            sys.exit("%s: element %d is %r, reference %r" % (name, bad, got[bad], ref[bad]))
        return "exact"
    for i, (a, b) in enumerate(zip(got, ref)):
        if math.isnan(a) != math.isnan(b) or (math.isinf(b) and a != b):
            sys.exit("%s: element %d is %r, reference %r" % (name, i, a, b))
    pairs = [(a, b) for a, b in zip(got, ref) if math.isfinite(b)]
    num = math.sqrt(sum((a - b) ** 2 for a, b in pairs))
    den = math.sqrt(sum(b * b for _, b in pairs))
    err = num / den if den > 0 else num
    if err > TOLERANCE[descr]:
        worst = max(range(len(pairs)), key=lambda i: abs(pairs[i][0] - pairs[i][1]))
        sys.exit("%s: relative L2 error %.3g > %.3g (worst element %d: %r vs %r)" % (
            name, err, TOLERANCE[descr], worst, pairs[worst][0], pairs[worst][1]))
    return "rel-L2 %.2g" % err


def main():
    model, entry, work = sys.argv[1], sys.argv[2], sys.argv[3]
    run_prefixes = ("--gpu=", "--check-ordering", "--threads=")
    flags = [f for f in sys.argv[4:] if not f.startswith(run_prefixes)]
    run_flags = [f for f in sys.argv[4:] if f.startswith(run_prefixes)]
    # Simulated GPUs always run with the ordering checker in the tests.
    if "--gpu=sim" in run_flags and "--check-ordering" not in run_flags:
        run_flags.append("--check-ordering")
    os.makedirs(work, exist_ok=True)
    artifact = os.path.join(work, entry + ".dlcm")
    ref_dir, run_dir = os.path.join(work, entry + ".ref"), os.path.join(work, entry + ".run")
    run(["dlc", "compile", model, "--entry=" + entry, "-o", artifact] + flags)
    runner = os.environ.get("DLC_RUN", "dlc run").split()
    run(runner + [artifact, "--output-dir", run_dir] + run_flags)
    run(["dlc", "interpret", model, "--entry=" + entry, "--random-inputs", "--output-dir", ref_dir])
    names = sorted(os.listdir(ref_dir))
    if not names or sorted(os.listdir(run_dir)) != names:
        sys.exit("outputs differ: reference %s, run %s" % (names, sorted(os.listdir(run_dir))))
    for name in names:
        how = compare(os.path.join(ref_dir, name), os.path.join(run_dir, name), name)
        print("%s %s: ok (%s)" % (entry, name[:-4], how))


if __name__ == "__main__":
    main()
