#!/usr/bin/env python3
"""Differential tests of the symbolic batch: random programs whose inputs all
carry a batch on dim 0, compiled once with a bound, run at a random batch.

    batch_programs.py [--cases=N] [--seed=S] [--bound=B] [--work=DIR]

Case k (seed S + k): random_programs' generator with every input of dim 0 B
(other operands become constants), random devices over the CPU and 1..4
simulated GPUs, no fp16 paint; the function is marked dlc.symbolic_batch.
Then:
  1. the reference: `dlc interpret` of the unplaced program at the bound, on
     random inputs in [-1, 1) (the case's seed);
  2. `dlc compile` once. A refusal by the batch rules (an op that mixes the
     batch's units, named) is counted, not failed: such programs have no
     symbolic batch. Any other refusal fails the case;
  3. `dlc run --gpu=sim --check-ordering` at a batch n drawn from 1..B, on the
     first n units of the inputs; at B itself where a kernel is sized at run
     time (passes/SymbolExtents.cpp: an op that reads the batch whole, such
     as a sum over it, whose result at n is no slice of the bound's: those
     kernels are checked below the bound by test/e2e/symbolic_sequence.mlir,
     against references made at each size);
  4. per output: a batched one (dim 0 = a x B in the reference) must be the
     reference's first a x n rows, an unbatched one the whole reference, with
     max |run - ref| <= 1e-4 x max(1, max |ref|).
Prints one line per failure and a summary "N cases: M ran (batches ...),
R refused by the batch rules, D dropped (reference not finite), F failed"
(with "Z sized at run time" among the ran);
exit status 1 when a case failed.
"""
import argparse
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "Inputs"))
import npy  # noqa: E402
import random_programs as rp  # noqa: E402

DLC = os.environ.get("DLC", "dlc")
# The batch rules' refusals (passes/BatchRows.cpp) and the one-unit check of
# the outlined kernels (Pipeline/GenerateCode.cpp): named, expected.
RULES = ("mixes the rows of the batch", "do not verify at one unit",
         "carries the batch on dim")


class BatchGenerator(rp.Generator):
    """random_programs' generator where every input has dim 0 = bound; an
    operand of any other shape is a constant."""

    def __init__(self, seed, bound):
        super().__init__(seed)
        self.bound = bound

    def rand_shape(self, rank=None):
        shape = super().rand_shape(rank)
        return (self.bound,) + shape[1:] if self.r.random() < 0.75 else shape

    def new_arg(self, shape, dtype=rp.F32):
        if shape and shape[0] == self.bound and dtype == rp.F32:
            return super().new_arg(shape, dtype)
        return self.constant(shape, dtype=dtype)

    def program(self):
        p = self.p
        p.devices = ["cpu"] + ["cuda:%d" % i for i in range(self.gpus)]
        super().new_arg((self.bound,) + super().rand_shape()[1:])
        names = [g for g, w in self.GENERATORS for _ in range(w)]
        while sum(1 for n in p.nodes if n.kind != "constant") < self.max_ops:
            getattr(self, "gen_" + self.r.choice(names))()
        self.choose_outputs()
        self.place()
        for n in p.nodes:
            n.paint = False
        return p


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=300)
    return r.returncode, r.stdout


def symbolic(text):
    """The placed program with its function marked as a symbolic batch."""
    header, rest = text.split("\n", 1)
    assert header.endswith(" {"), header
    return header[:-2] + ' attributes {dlc.symbolic_batch = "batch"} {\n' + rest


def run_case(seed, bound, work):
    """("ran", n) | ("refused", why) | ("dropped", why) | ("failed", why)."""
    p = BatchGenerator(seed, bound).program()
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "placed.mlir"), "w") as f:
        f.write(symbolic(rp.emit(p)))
    with open(os.path.join(work, "ref.mlir"), "w") as f:
        f.write(rp.emit(p, reference=True))
    r = random.Random(seed)
    inputs = []
    for i, v in enumerate(p.args):
        shape = p.shape(v)
        count = math.prod(shape)
        values = [r.uniform(-1, 1) for _ in range(count)]
        path = os.path.join(work, "in%d.npy" % i)
        npy.write(path, values, list(shape))
        inputs.append((i, shape, values))
    ref_dir = os.path.join(work, "ref")
    code, out = sh([DLC, "interpret", os.path.join(work, "ref.mlir"), "--output-dir", ref_dir]
                   + ["--input=in%d=%s" % (i, os.path.join(work, "in%d.npy" % i))
                      for i, _, _ in inputs])
    if code != 0:
        return "failed", "the reference failed: " + out.strip().splitlines()[-1]
    refs = [npy.read(os.path.join(ref_dir, "out%d.npy" % k)) for k in range(len(p.outputs))]
    if any(not math.isfinite(x) for _, _, vals in refs for x in vals):
        return "dropped", "reference not finite"
    artifact = os.path.join(work, "model.dlcm")
    code, out = sh([DLC, "compile", os.path.join(work, "placed.mlir"), "-o", artifact,
                    "--devices=" + ",".join(p.devices), "--no-cuda"])
    if code != 0:
        if any(rule in out for rule in RULES):
            return "refused", out.strip().splitlines()[0]
        return "failed", "dlc compile: " + out.strip()[-600:]
    n = r.randint(1, bound)
    code, text = sh([DLC, "inspect", artifact])
    sized = "sized at run time" in text
    if sized:
        n = bound
    args = []
    for i, shape, values in inputs:
        path = os.path.join(work, "in%d.%d.npy" % (i, n))
        npy.write(path, values[:len(values) // bound * n], [n] + list(shape[1:]))
        args.append("--input=in%d=%s" % (i, path))
    run_dir = os.path.join(work, "run%d" % n)
    code, out = sh([DLC, "run", artifact, "--gpu=sim", "--check-ordering",
                    "--output-dir", run_dir] + args)
    if code != 0:
        return "failed", "dlc run at batch %d: %s" % (n, out.strip()[-600:])
    for k, (_, ref_shape, ref) in enumerate(refs):
        _, got_shape, got = npy.read(os.path.join(run_dir, "out%d.npy" % k))
        want = ref
        # The batch's dim: 0, or one after dims of 1 (its units contiguous).
        d = next((i for i, x in enumerate(ref_shape) if x != 1), 0) if ref_shape else 0
        if (ref_shape and ref_shape[d] % bound == 0 and len(got_shape) == len(ref_shape)
                and got_shape[:d + 1] == ref_shape[:d] + [ref_shape[d] // bound * n]):
            want = ref[:len(ref) // bound * n]
        elif got_shape != ref_shape:
            return "failed", "batch %d: out%d is %s, reference %s" % (n, k, got_shape, ref_shape)
        scale = max([1.0] + [abs(x) for x in want])
        worst = max([abs(a - b) for a, b in zip(got, want)] + [0.0])
        if len(got) != len(want) or not worst <= 1e-4 * scale:
            return "failed", "batch %d: out%d differs by %.3g (scale %.3g)" % (n, k, worst, scale)
    return ("sized" if sized else "ran"), n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bound", type=int, default=4)
    ap.add_argument("--work", default="batch-programs-work")
    a = ap.parse_args()
    counts = {"ran": 0, "sized": 0, "refused": 0, "dropped": 0, "failed": 0}
    batches = []
    for k in range(a.cases):
        seed = a.seed + k
        verdict, what = run_case(seed, a.bound, os.path.join(a.work, "case%d" % seed))
        counts[verdict] += 1
        if verdict in ("ran", "sized"):
            batches.append(what)
        if verdict == "failed":
            print("seed %d failed: %s" % (seed, what))
    print("%d cases: %d ran (batches %s; %d sized at run time), %d refused by the batch "
          "rules, %d dropped (reference not finite), %d failed" % (
              a.cases, counts["ran"] + counts["sized"],
              ",".join(str(b) for b in sorted(set(batches))) or "-", counts["sized"],
              counts["refused"], counts["dropped"], counts["failed"]))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
