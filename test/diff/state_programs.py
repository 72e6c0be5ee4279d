#!/usr/bin/env python3
"""Differential tests of persistent state: random programs whose one input is
state, over random placements, for several runs, against the interpreter.

    state_programs.py [--cases=N] [--seed=S] [--runs=R] [--work=DIR]

Case k uses seed S + k: random_programs.Generator draws a program over cpu and
1..4 simulated GPUs (random pins and fp16 paint, as difftest.py). An f32
input i whose type an output j has becomes state "s" (dlc.state, a random
dlc.initial), output j its next value, and a copy of output j stays an
ordinary output. Programs without such a pair, or with inputs that are not
f32, are skipped (counted). Each case:

  1. the reference: `dlc interpret` of the program without state, R times,
     output j of each run fed back as input i of the next (the first from the
     initial value), the other inputs the same random .npy files each run;
  2. `dlc compile` of the placed program with state;
  3. `dlc run --gpu=sim --check-ordering --verify-schedule --iterations=R` on
     the same inputs: the outputs of its last run, the next state among them,
     within tolerance of the reference's last run (difftest.py's rule, the
     scale the largest traced value over all runs, the tolerance R times
     its).

Exit status 0 when no case failed.
"""
import argparse
import math
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "Inputs"))
import npy  # noqa: E402
import random_programs as rp  # noqa: E402
from difftest import sh, values  # noqa: E402

DLC = os.environ.get("DLC", "dlc")


def state_pair(p):
    """(input index, output index) of one f32 type, or None."""
    if any(p.dtype(v) != rp.F32 for v in p.args):
        return None
    for j, out in enumerate(p.outputs):
        for i, arg in enumerate(p.args):
            # The old value as another output would be read after the update.
            others = [o for k, o in enumerate(p.outputs) if k != j]
            if p.values[arg] == p.values[out] and arg not in others:
                return i, j
    return None


def with_state(text, i, j, initial):
    """The placed program's text with input i as state "s" and result j its
    next value."""
    text = text.replace('{dlc.name = "in%d"}' % i,
                        '{dlc.state = "s", dlc.initial = dense<%s> : %s}' % initial, 1)
    return text.replace('{dlc.name = "out%d"}' % j, '{dlc.state = "s"}', 1)


def run_case(seed, runs, work):
    gen = rp.Generator(seed)
    p = gen.program()
    pair = state_pair(p)
    if pair is None:
        return "skipped", ""
    i, j = pair
    p.outputs.append(p.outputs[j])  # the next state, also an output
    os.makedirs(work, exist_ok=True)
    r = random.Random(seed)
    shape = p.shape(p.args[i])
    count = math.prod(shape)
    state = [round(r.uniform(-1, 1), 4) for _ in range(count)]
    # repr keeps a decimal point: a state drawn as 0 printed "0", which MLIR
    # parses as an integer, no f32 element.
    initial = (rp.nested([repr(float(x)) for x in state], shape), rp.ttype(shape, rp.F32))
    placed = os.path.join(work, "placed.mlir")
    with open(placed, "w") as f:
        f.write(with_state(rp.emit(p), i, j, initial))
    ref = os.path.join(work, "ref.mlir")
    with open(ref, "w") as f:
        f.write(rp.emit(p, reference=True, trace=True))
    inputs = {}
    for k, arg in enumerate(p.args):
        path = os.path.join(work, "in%d.npy" % k)
        data = state if k == i else [r.uniform(-1, 1) for _ in range(math.prod(p.shape(arg)))]
        npy.write(path, data, list(p.shape(arg)))
        inputs[k] = path
    # The reference, run after run.
    scale = 1.0
    for run in range(runs):
        out = os.path.join(work, "ref%d" % run)
        rc, text = sh([DLC, "interpret", ref, "--output-dir", out] +
                      ["--input=in%d=%s" % (k, path) for k, path in inputs.items()])
        if rc != 0:
            return "dropped", "reference: " + text.strip().splitlines()[-1][:300]
        for name in os.listdir(out):
            _, v = values(os.path.join(out, name))
            if not all(math.isfinite(x) for x in v):
                return "dropped", "reference %s not finite in run %d" % (name, run)
            scale = max([scale] + [abs(x) for x in v])
        inputs[i] = os.path.join(out, "out%d.npy" % j)
    painted = sum(1 for n in p.nodes if n.paint)
    flags = ["--devices=" + ",".join(p.devices), "--no-cuda"]
    if painted:
        flags.append("--precision=fp32")
    artifact = os.path.join(work, "m.dlcm")
    rc, text = sh([DLC, "compile", placed, "-o", artifact] + flags)
    if rc != 0:
        return "refused", text.strip()[:1500]
    run_dir = os.path.join(work, "run")
    rc, text = sh([DLC, "run", artifact, "--gpu=sim", "--check-ordering", "--verify-schedule",
                   "--iterations=%d" % runs, "--output-dir", run_dir] +
                  ["--input=in%d=%s" % (k, os.path.join(work, "in%d.npy" % k))
                   for k in range(len(p.args)) if k != i])
    if rc != 0:
        return "failed", text.strip()[:1500]
    tol = runs * (1e-5 if not painted else 2.0 ** -10 * (1 + painted))
    last = os.path.join(work, "ref%d" % (runs - 1))
    for k in range(len(p.outputs)):
        if k == j:
            continue  # the state's: its copy is the last output
        _, want = values(os.path.join(last, "out%d.npy" % k))
        _, got = values(os.path.join(run_dir, "out%d.npy" % k))
        worst = max([abs(a - b) if math.isfinite(a) else math.inf for a, b in zip(got, want)] + [0])
        if worst > tol * scale:
            return "wrong", "out%d after %d runs: max|run - ref| %.3g > %.2g x %.3g" % (
                k, runs, worst, tol, scale)
    return "ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default="state-work")
    args = ap.parse_args()
    counts = {}
    for seed in range(args.seed, args.seed + args.cases):
        work = os.path.join(args.work, "case-%d" % seed)
        verdict, detail = run_case(seed, args.runs, work)
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict in ("ok", "skipped", "dropped"):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("seed %d: %s: %s" % (seed, verdict, detail))
    print("%d cases (seeds %d..%d), %d runs each: %s" % (
        args.cases, args.seed, args.seed + args.cases - 1, args.runs,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 1 if set(counts) - {"ok", "skipped", "dropped"} else 0


if __name__ == "__main__":
    sys.exit(main())
