"""Compiles a model with a symbolic sequence once (at its bound) and runs the
one artifact at several sizes, each compared with the reference interpreter
on the model written for that size alone (a generator script gives both:
the weights do not depend on the size). Unlike check_symbolic_batch.py, the
tokens of a sequence are not independent: attention reads all of them, so a
run of n tokens is checked against the model of n tokens, not against the
bound's first n rows.

    check_symbolic_sequence.py GENERATOR WORKDIR BOUND SIZES [generator flags] [-- compile flags]

Prints one line per size and output: "size N NAME: shape [..] rel-L2 E".
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy
from check_e2e import compare, run


def generate(generator, size, flags, path):
    with open(path, "w") as out:
        subprocess.run([sys.executable, generator, str(size)] + flags, stdout=out, check=True)


def main():
    generator, work, bound = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sizes = [int(n) for n in sys.argv[4].split(",")]
    rest = sys.argv[5:]
    split = rest.index("--") if "--" in rest else len(rest)
    gen_flags, compile_flags = rest[:split], rest[split + 1:]
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "model.mlir")
    generate(generator, bound, gen_flags, model)
    artifact = os.path.join(work, "model.dlcm")
    run(["dlc", "compile", model, "-o", artifact] + compile_flags)
    rng = random.Random(5)
    with open(model) as f:
        width = int(re.search(r"%x: tensor<\d+x(\d+)xf32>", f.read()).group(1))
    x = [rng.uniform(-1, 1) for _ in range(bound * width)]
    for n in sizes:
        sized = os.path.join(work, "model.%d.mlir" % n)
        generate(generator, n, gen_flags, sized)
        path = os.path.join(work, "x.%d.npy" % n)
        npy.write(path, x[:n * width], [n, width], "<f4")
        ref_dir, run_dir = os.path.join(work, "ref%d" % n), os.path.join(work, "run%d" % n)
        run(["dlc", "interpret", sized, "--output-dir", ref_dir, "--input=x=" + path])
        run(["dlc", "run", artifact, "--output-dir", run_dir, "--input=x=" + path] +
            os.environ.get("DLC_RUN_FLAGS", "").split())
        got = os.path.join(run_dir, "y.npy")
        print("size %d y: shape %s %s" % (n, npy.read(got)[1],
                                           compare(os.path.join(ref_dir, "y.npy"), got, "y")))


if __name__ == "__main__":
    main()
