"""Compiles a model with a symbolic batch once, runs the one artifact at several
batches, and compares each run with the reference interpreter's outputs at the
bound, unit for unit (units of a batch are independent, so a run of batch n
gives the first n units of the bound's outputs).

    check_symbolic_batch.py MODEL WORKDIR BATCHES [dlc compile flags...]

BATCHES is a comma-separated list (e.g. 1,3,4). Inputs are random at the bound
(seeded), written as .npy; a run of batch n gets their first n units. Prints
one line per batch and output: "batch N NAME: shape [..] rel-L2 E" (f32:
relative L2 error <= 1e-5; integers exact). $DLC_RUN_FLAGS go to `dlc run`.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy
from check_e2e import compare, run

DESCR = {"f32": "<f4", "f64": "<f8", "i32": "<i4", "i64": "<i8"}


def signature(artifact):
    """(bound, inputs, outputs) from `dlc inspect`: each (name, dtype, max
    shape, rows per unit or 0, index bound or 0)."""
    text = run(["dlc", "inspect", artifact])
    bound = int(re.search(r"symbolic batch: '[^']*', 1 to (\d+) per run", text).group(1))
    tensors = {"input": [], "output": []}
    for m in re.finditer(r"^\s+(input|output)\s+\d+ '([^']*)': (\w+) \[[^\]]*\]"
                         r"(?: at most \[([^\]]*)\])?[^\n]*", text, re.M):
        line = m.group(0)
        rows = re.search(r"dim 0 = (\d+) x", line)
        index = re.search(r"indices in \[0, (\d+)\)", line)
        shape_text = m.group(4) or re.search(r"\[([^\]]*)\]", line).group(1)
        shape = [int(d) for d in shape_text.split(",") if d]
        tensors[m.group(1)].append((m.group(2), m.group(3), shape,
                                    int(rows.group(1)) if rows else 0,
                                    int(index.group(1)) if index else 0))
    return bound, tensors["input"], tensors["output"]


def file_name(name):
    """As dlc run and dlc interpret name an output's file."""
    return re.sub(r"[/:\\]", "_", name)


def main():
    model, work, batches = sys.argv[1], sys.argv[2], [int(b) for b in sys.argv[3].split(",")]
    os.makedirs(work, exist_ok=True)
    artifact = os.path.join(work, "model.dlcm")
    run(["dlc", "compile", model, "-o", artifact] + sys.argv[4:])
    bound, inputs, outputs = signature(artifact)
    rng = random.Random(7)
    full = {}
    for name, dtype, shape, rows, index_bound in inputs:
        count = 1
        for d in shape:
            count *= d
        if dtype.startswith("f"):
            values = [rng.uniform(-1, 1) for _ in range(count)]
        else:
            values = [rng.randrange(index_bound or 4) for _ in range(count)]
        full[name] = (values, shape, DESCR[dtype], rows)
    ref_dir = os.path.join(work, "ref")
    args = []
    for name, (values, shape, descr, _) in full.items():
        path = os.path.join(work, file_name(name) + ".bound.npy")
        npy.write(path, values, shape, descr)
        args.append("--input=%s=%s" % (name, path))
    run(["dlc", "interpret", model, "--output-dir", ref_dir] + args)
    run_flags = os.environ.get("DLC_RUN_FLAGS", "").split()
    for n in batches:
        args = []
        for name, (values, shape, descr, rows) in full.items():
            if not rows:
                sys.exit("input '%s' does not carry the batch" % name)
            per_row = len(values) // shape[0]
            path = os.path.join(work, "%s.%d.npy" % (file_name(name), n))
            npy.write(path, values[:n * rows * per_row], [n * rows] + shape[1:], descr)
            args += ["--input", "%s=%s" % (name, path)]
        run_dir = os.path.join(work, "run%d" % n)
        run(["dlc", "run", artifact, "--output-dir", run_dir] + args + run_flags)
        for name, _, shape, rows, _ in outputs:
            ref_descr, ref_shape, ref = npy.read(os.path.join(ref_dir, file_name(name) + ".npy"))
            per_row = len(ref) // ref_shape[0]
            sliced = os.path.join(work, "ref%d_%s.npy" % (n, file_name(name)))
            npy.write(sliced, ref[:n * rows * per_row], [n * rows] + ref_shape[1:], ref_descr)
            got = os.path.join(run_dir, file_name(name) + ".npy")
            print("batch %d %s: shape %s %s" % (n, name, npy.read(got)[1],
                                                 compare(sliced, got, name)))


if __name__ == "__main__":
    main()
