#!/usr/bin/env python3
"""Differential tests of dlc.loop: random programs as loop bodies, against the
interpreter run iteration by iteration (not through its own loop).

    loop_programs.py [--cases=N] [--seed=S] [--work=DIR]

Case k uses seed S + k: random_programs.Generator draws a program (f32 inputs
only; others are skipped), written as the reference (no placement, fp16 paint
as explicit casts, copies as identities). It becomes the body of a dlc.loop of
1 to 4 iterations, counted down or not:
  - an input whose type an output has is carried (that output its next value);
  - an accumulator `acc` of output k's type is carried too: acc + output k;
  - every other input is scanned (its rows one per iteration) or invariant;
  - every output is also a scan output (one row per iteration);
or, for a quarter of the cases, the count is an input known only at run time
(-1 to 4: none for 0 or less) and only the carried values come out.
The reference interprets the program once per iteration (`dlc interpret`),
feeding the carried values and scan rows in Python; dlc compiles the loop
program and runs it. Outputs agree within difftest.py's tolerance times the
iterations, relative to the largest value the reference traced. Non-finite
references are dropped (counted). Exit status 0 when no case failed.
"""
import argparse
import math
import os
import random
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "Inputs"))
import npy  # noqa: E402
import random_programs as rp  # noqa: E402
from difftest import sh, values  # noqa: E402

DLC = os.environ.get("DLC", "dlc")


def body_lines(p):
    """The reference program's ops, copies made identities (a loop's body
    holds no copies)."""
    text = rp.emit(p, reference=True)
    lines = text.split("\n")[1:]
    ops = []
    for line in lines:
        if line.strip().startswith("return"):
            break
        m = re.match(r"\s*(%\S+) = dlc\.copy (%\S+) to cpu : (\S+)( loc\(.*\))?$", line)
        if m:
            line = "  %s = dlc.reshape %s : %s -> %s" % (m.group(1), m.group(2), m.group(3), m.group(3))
        ops.append(line)
    return ops


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.p = rp.Generator(seed).program()

    def roles(self):
        """Draws the loop's shape: carried pair, accumulator, scans, count."""
        p, r = self.p, self.r
        self.ty = lambda v: rp.ttype(p.shape(v), p.dtype(v))
        self.pair = None
        for j, out in enumerate(p.outputs):
            for i, arg in enumerate(p.args):
                if p.values[arg] == p.values[out] and r.random() < 0.7:
                    self.pair = (i, j)
                    break
            if self.pair:
                break
        self.acc = r.randrange(len(p.outputs))
        self.run_time = r.random() < 0.25
        self.trips = r.randint(1, 4)
        self.count = r.randint(-1, 4) if self.run_time else self.trips
        self.reverse = (not self.run_time) and r.random() < 0.4
        carried_arg = self.pair[0] if self.pair else None
        self.scanned = {i for i in range(len(p.args))
                        if i != carried_arg and not self.run_time and r.random() < 0.5}

    def text(self):
        p = self.p
        ty = self.ty
        stacked = lambda shape: rp.ttype([self.trips] + list(shape), rp.F32)
        outer_args, carried, carried_types, scans, scan_types, invariants, inv_types = [], [], [], [], [], [], []
        block = ["%pos: tensor<1xi64>"]
        block_carried, block_scans, block_inv = [], [], []
        if self.run_time:
            outer_args.append("%n: tensor<1xi64> {dlc.name = \"n\"}")
        for i, arg in enumerate(p.args):
            name = "in%d" % i
            if self.pair and i == self.pair[0]:
                outer_args.append("%%x%d: %s {dlc.name = \"%s\"}" % (i, ty(arg), name))
                carried.append("%%x%d" % i)
                carried_types.append(ty(arg))
                block_carried.append("%%a%d: %s" % (i, ty(arg)))
            elif i in self.scanned:
                outer_args.append("%%x%d: %s {dlc.name = \"%s\"}" % (i, stacked(p.shape(arg)), name))
                scans.append("%%x%d" % i)
                scan_types.append(stacked(p.shape(arg)))
                block_scans.append("%%a%d: %s" % (i, ty(arg)))
            else:
                outer_args.append("%%x%d: %s {dlc.name = \"%s\"}" % (i, ty(arg), name))
                invariants.append("%%x%d" % i)
                inv_types.append(ty(arg))
                block_inv.append("%%a%d: %s" % (i, ty(arg)))
        acc_type = ty(p.outputs[self.acc])
        outer_args.append("%%acc0: %s {dlc.name = \"acc\"}" % acc_type)
        carried.append("%acc0")
        carried_types.append(acc_type)
        block_carried.append("%acc: " + acc_type)
        block += block_carried + block_scans + block_inv
        names = lambda vs: ", ".join("%%v%d" % v if v not in self.p.args else "%%a%d" % self.p.args.index(v)
                                     for v in vs)
        out_name = lambda v: names([v])
        yields, yield_types = [], []
        if self.pair:
            yields.append(out_name(p.outputs[self.pair[1]]))
            yield_types.append(ty(p.outputs[self.pair[1]]))
        yields.append("%acc_next")
        yield_types.append(acc_type)
        result_types = list(yield_types)
        if not self.run_time:
            for v in p.outputs:
                yields.append(out_name(v))
                yield_types.append(ty(v))
                result_types.append(stacked(p.shape(v)))
        lines = ["func.func @main(%s) -> (%s) {" % (", ".join(outer_args), ", ".join(
            "%s {dlc.name = \"r%d\"}" % (t, k) for k, t in enumerate(result_types)))]
        operands = ""
        if self.run_time:
            operands += " count(%n : tensor<1xi64>)"
        operands += " carried(%s : %s)" % (", ".join(carried), ", ".join(carried_types))
        if scans:
            operands += " scan(%s : %s)" % (", ".join(scans), ", ".join(scan_types))
        if invariants:
            operands += " invariant(%s : %s)" % (", ".join(invariants), ", ".join(inv_types))
        lines.append("  %%r:%d = dlc.loop%s -> %s {" % (len(result_types), operands, ", ".join(result_types)))
        lines.append("  ^bb0(%s):" % ", ".join(block))
        lines += ["  " + l for l in body_lines(p)]
        lines.append("    %%acc_next = dlc.add %%acc, %s : %s" % (out_name(p.outputs[self.acc]), acc_type))
        lines.append("    dlc.yield %s : %s" % (", ".join(yields), ", ".join(yield_types)))
        attrs = [] if self.run_time else ["trips = %d : i64" % self.trips]
        if self.reverse:
            attrs.append("reverse")
        lines.append("  }" + (" {%s}" % ", ".join(attrs) if attrs else ""))
        lines.append("  return %s : %s" % (", ".join("%%r#%d" % k for k in range(len(result_types))),
                                           ", ".join(result_types)))
        lines.append("}")
        return "\n".join(lines) + "\n", len(result_types)


def run_case(seed, work):
    case = Case(seed)
    p = case.p
    if any(p.dtype(v) != rp.F32 for v in p.args) or any(p.dtype(v) != rp.F32 for v in p.outputs):
        return "skipped", ""
    case.roles()
    os.makedirs(work, exist_ok=True)
    program, results = case.text()
    looped = os.path.join(work, "loop.mlir")
    with open(looped, "w") as f:
        f.write(program)
    ref = os.path.join(work, "ref.mlir")
    with open(ref, "w") as f:
        f.write(rp.emit(p, reference=True, trace=True))
    r = case.r
    size = lambda v: math.prod(p.shape(v))
    data = {}
    for i, arg in enumerate(p.args):
        rows = case.trips if i in case.scanned else 1
        data[i] = [r.uniform(-1, 1) for _ in range(rows * size(arg))]
    acc = [r.uniform(-1, 1) for _ in range(size(p.outputs[case.acc]))]
    files = []
    for i, arg in enumerate(p.args):
        path = os.path.join(work, "in%d.npy" % i)
        shape = ([case.trips] if i in case.scanned else []) + list(p.shape(arg))
        npy.write(path, data[i], shape)
        files.append("--input=in%d=%s" % (i, path))
    acc_path = os.path.join(work, "acc.npy")
    npy.write(acc_path, acc, list(p.shape(p.outputs[case.acc])))
    files.append("--input=acc=" + acc_path)
    if case.run_time:
        n_path = os.path.join(work, "n.npy")
        npy.write(n_path, [case.count], [1], descr="<i8")
        files.append("--input=n=" + n_path)

    # The reference, one interpretation per iteration.
    iterations = max(case.count, 0)
    current = {i: list(data[i]) for i in range(len(p.args)) if i not in case.scanned}
    stacked = [[0.0] * (case.trips * size(v)) for v in p.outputs]
    scale = max([1.0] + [abs(x) for x in acc])
    for t in range(iterations):
        pos = case.trips - 1 - t if case.reverse else t
        step_inputs = []
        for i, arg in enumerate(p.args):
            vals = data[i][pos * size(arg):(pos + 1) * size(arg)] if i in case.scanned else current[i]
            path = os.path.join(work, "step_in%d.npy" % i)
            npy.write(path, vals, list(p.shape(arg)))
            step_inputs.append("--input=in%d=%s" % (i, path))
        out = os.path.join(work, "ref%d" % t)
        rc, text = sh([DLC, "interpret", ref, "--output-dir", out] + step_inputs)
        if rc != 0:
            return "dropped", "reference: " + text.strip().splitlines()[-1][:300]
        outs = [values(os.path.join(out, "out%d.npy" % k))[1] for k in range(len(p.outputs))]
        for name in os.listdir(out):
            _, v = values(os.path.join(out, name))
            if not all(math.isfinite(x) for x in v):
                return "dropped", "reference %s not finite in iteration %d" % (name, t)
            scale = max([scale] + [abs(x) for x in v])
        if case.pair:
            current[case.pair[0]] = outs[case.pair[1]]
        acc = [a + b for a, b in zip(acc, outs[case.acc])]
        scale = max([scale] + [abs(x) for x in acc])
        for k, v in enumerate(outs):
            stacked[k][pos * size(p.outputs[k]):(pos + 1) * size(p.outputs[k])] = v
    want = []
    if case.pair:
        want.append(current[case.pair[0]])
    want.append(acc)
    if not case.run_time:
        want += stacked

    artifact = os.path.join(work, "m.dlcm")
    rc, text = sh([DLC, "compile", looped, "-o", artifact])
    if rc != 0:
        return "refused", text.strip()[:1500]
    run_dir = os.path.join(work, "run")
    rc, text = sh([DLC, "run", artifact, "--output-dir", run_dir] + files)
    if rc != 0:
        return "failed", text.strip()[:1500]
    painted = sum(1 for n in p.nodes if n.paint)
    tol = max(1, iterations) * (1e-5 if not painted else 2.0 ** -10 * (1 + painted))
    for k in range(results):
        _, got = values(os.path.join(run_dir, "r%d.npy" % k))
        worst = max([abs(a - b) if math.isfinite(a) else math.inf for a, b in zip(got, want[k])] + [0])
        if len(got) != len(want[k]) or worst > tol * scale:
            return "wrong", "r%d (%d iterations%s): max|run - ref| %.3g > %.2g x %.3g" % (
                k, iterations, ", reverse" if case.reverse else "", worst, tol, scale)
    return "ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="loop-work")
    args = ap.parse_args()
    counts = {}
    for seed in range(args.seed, args.seed + args.cases):
        work = os.path.join(args.work, "case-%d" % seed)
        verdict, detail = run_case(seed, work)
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict in ("ok", "skipped", "dropped"):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("seed %d: %s: %s" % (seed, verdict, detail))
    print("%d cases (seeds %d..%d): %s" % (
        args.cases, args.seed, args.seed + args.cases - 1,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 1 if set(counts) - {"ok", "skipped", "dropped"} else 0


if __name__ == "__main__":
    sys.exit(main())
