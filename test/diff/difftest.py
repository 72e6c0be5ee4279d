#!/usr/bin/env python3
"""Differential tests: random programs, random placements, against the interpreter.

    difftest.py [--cases=N] [--seed=S] [--workers=W] [--work=DIR] [--resume]
                [--emulated=FRACTION] [--shrink] [--regressions=DIR]
                [--dlc-flags="..."] [--expect-failures]

Case k uses seed S + k: random_programs.Generator draws a program over cpu and
1..4 simulated GPUs (every op pinned to a random device, fp16 paint where it is
allowed), and the case draws --in-flight (1..3) and, for a --emulated fraction
of cases, `--gpu-host-code=emulated` (the GPU kernels' CUDA C++ in the host
emulation of CUDA). Each case:

  1. the reference: `dlc interpret` of the program as written (no placement;
     painted ops modelled with explicit casts), on the default random inputs;
  2. `dlc compile` of the placed program (any refusal counts as a failure);
  3. `dlc run --gpu=sim --check-ordering` (--in-flight=K, 2K runs);
  4. per output: max|run - ref| <= tol * S, tol = 1e-5 for f32 programs,
     2^-10 * (1 + painted ops) when ops are painted fp16 (the reference
     rounds each painted op once; dlc computes it in f32 inside and rounds
     too, so they differ by an f16 rounding per painted op). S is the
     largest magnitude among the output and every value it was computed
     from (the reference returns those as trace outputs): rounding errors
     are relative to the values rounded, and a mean of values near 1 that
     cancels to 0.003 still carries theirs (seeds 302790, 304889). A NaN or
     inf where the reference has none fails.

Cases whose reference is not finite are dropped (counted). A failure is
shrunk (--shrink): outputs dropped, ops replaced by new inputs, devices set
to the cpu, paint removed, while it still fails the same way; the small
program is written to --regressions as a lit test. The coverage table counts
op kinds, the element types ops compute on the CPU and on GPUs, cross-device views, values read on several devices, painted
programs, runs with several in flight and emulated cases.

Results go to DIR/results.jsonl, one line per case, so that --resume skips
the cases done. Exit status: 0 when no case failed (with --expect-failures:
when some did).
"""
import argparse
import collections
import json
import math
import multiprocessing
import os
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "Inputs"))
import npy  # noqa: E402
import random_programs as rp  # noqa: E402

DLC = os.environ.get("DLC", "dlc")


class Config:
    def __init__(self, seed, gpus, in_flight, emulated, extra):
        self.seed, self.gpus, self.in_flight = seed, gpus, in_flight
        self.emulated, self.extra = emulated, extra


def sh(cmd, timeout=300):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired:
        return -1, "timed out after %d s: %s" % (timeout, " ".join(cmd))


def values(path):
    descr, shape, data = npy.read(path)
    if descr == "<u2":  # bf16 bits
        data = [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in data]
    return shape, data


def check(program, cfg, work):
    """Runs one case; returns (verdict, detail): ok, dropped, wrong, refused,
    failed (a run error or crash)."""
    os.makedirs(work, exist_ok=True)
    placed, ref = os.path.join(work, "placed.mlir"), os.path.join(work, "ref.mlir")
    with open(placed, "w") as f:
        f.write(rp.emit(program))
    with open(ref, "w") as f:
        f.write(rp.emit(program, reference=True, trace=True))
    ref_dir, run_dir = os.path.join(work, "ref"), os.path.join(work, "run")
    for d in (ref_dir, run_dir):
        shutil.rmtree(d, ignore_errors=True)
    rc, out = sh([DLC, "interpret", ref, "--random-inputs", "--output-dir", ref_dir])
    if rc != 0:
        return "dropped", "reference: " + out.strip().splitlines()[-1][:300]
    devices = ",".join(program.devices)
    painted = sum(1 for n in program.nodes if n.paint)
    flags = ["--devices=" + devices, "--no-cuda"] + cfg.extra
    if painted:
        flags.append("--precision=fp32")
    if cfg.emulated:
        flags.append("--gpu-host-code=emulated")
    artifact = os.path.join(work, "m.dlcm")
    rc, out = sh([DLC, "compile", placed, "-o", artifact] + flags)
    if rc != 0:
        return "refused", out.strip()[:1500]
    rc, out = sh([DLC, "run", artifact, "--gpu=sim", "--check-ordering",
                  "--in-flight=%d" % cfg.in_flight, "--iterations=%d" % (2 * cfg.in_flight),
                  "--output-dir", run_dir])
    if rc != 0:
        return "failed", out.strip()[:1500]
    tol = 1e-5 if not painted else 2.0 ** -10 * (1 + painted)
    # A rounding error is relative to the value rounded, which a later
    # reduction or subtraction may cancel to far below it (a mean of values
    # near 1 that comes out 0.003 still carries their rounding errors): each
    # output scales by the largest value it was computed from (trace outputs
    # of the reference), not only by its own.
    traced = {}
    for name in os.listdir(ref_dir):
        if name.startswith("trace"):
            traced[int(name[5:-4])] = max([0.0] + [abs(x) for x in values(os.path.join(ref_dir, name))[1]
                                                   if math.isfinite(x)])
    for i in range(len(program.outputs)):
        name = "out%d.npy" % i
        _, r = values(os.path.join(ref_dir, name))
        upstream = max([0.0] + [traced[v] for v in rp.cone(program, program.outputs[i]) if v in traced])
        if not all(math.isfinite(x) for x in r):
            return "dropped", "reference output %d not finite" % i
        _, g = values(os.path.join(run_dir, name))
        scale = max([abs(x) for x in r] + [upstream])
        worst, at = 0.0, -1
        for k, (a, b) in enumerate(zip(g, r)):
            d = abs(a - b) if math.isfinite(a) else math.inf
            if d > worst:
                worst, at = d, k
        if worst > tol * max(scale, 1e-30) and worst > 0:
            detail = "out%d: element %d is %r, reference %r (max|ref| %.3g, tol %.2g)" % (
                i, at, g[at], r[at], scale, tol)
            return "wrong", detail + first_divergence(artifact, ref, tol)
    return "ok", ""


def first_divergence(artifact, ref, tol):
    """`dlc run --compare-reference`'s first divergent step, as "; ..." or ""."""
    _, out = sh([DLC, "run", artifact, "--gpu=sim", "--compare-reference=" + ref,
                 "--compare-tolerance=%g" % tol])
    for line in out.splitlines():
        if line.startswith("compare-reference: first divergence: "):
            return "; " + line[len("compare-reference: "):]
    return ""


def case_config(seed, args):
    import random
    r = random.Random(seed * 7919 + 1)
    gen = rp.Generator(seed)
    program = gen.program()
    cfg = Config(seed, gen.gpus, r.randint(1, 3), r.random() < args.emulated,
                 args.dlc_flags.split() if args.dlc_flags else [])
    return program, cfg


def run_case(job):
    seed, args = job
    program, cfg = case_config(seed, args)
    work = os.path.join(args.work, "case-%d" % seed)
    start = time.time()
    verdict, detail = check(program, cfg, work)
    kinds, cross_view, multi, painted = rp.coverage(program)
    result = {"seed": seed, "verdict": verdict, "detail": detail,
              "seconds": round(time.time() - start, 2), "ops": sorted(kinds),
              "types": sorted(rp.element_types(program)),
              "cross_view": cross_view, "multi_device_value": multi, "painted": painted,
              "in_flight": cfg.in_flight, "emulated": cfg.emulated, "gpus": cfg.gpus}
    if verdict in ("ok", "dropped"):
        shutil.rmtree(work, ignore_errors=True)
    elif args.shrink:
        result["shrunk"] = shrink(program, cfg, work, verdict, args)
    return result


# -- shrinking ----------------------------------------------------------------

def live(program):
    """Drops nodes whose results no output needs."""
    prod = program.producer()
    need, stack = set(), list(program.outputs)
    while stack:
        v = stack.pop()
        if v in need:
            continue
        need.add(v)
        if v in prod:
            stack.extend(prod[v].operands)
    program.nodes = [n for n in program.nodes if any(r in need for r in n.results)]
    program.args = [a for a in program.args if a in need]
    return program


def variants(program):
    import copy
    for i in range(len(program.outputs)):
        if len(program.outputs) > 1:
            p = copy.deepcopy(program)
            del p.outputs[i]
            yield live(p)
    for idx in reversed(range(len(program.nodes))):
        n = program.nodes[idx]
        if n.kind == "constant":
            continue
        # The op's results become new inputs (i1 and f32 both have random inputs).
        p = copy.deepcopy(program)
        m = p.nodes[idx]
        for r in m.results:
            if r not in p.outputs:
                p.args.append(r)
        if all(r not in p.outputs for r in m.results):
            del p.nodes[idx]
            yield live(p)
    for idx, n in enumerate(program.nodes):
        if n.kind != "constant" and (n.device not in (None, "cpu") or n.paint):
            p = copy.deepcopy(program)
            p.nodes[idx].device, p.nodes[idx].paint = "cpu", False
            yield p
        if n.paint:
            p = copy.deepcopy(program)
            p.nodes[idx].paint = False
            yield p


def shrink(program, cfg, work, verdict, args):
    budget, best = 80, program
    changed = True
    while changed and budget > 0:
        changed = False
        for candidate in variants(best):
            budget -= 1
            got, _ = check(candidate, cfg, os.path.join(work, "shrink"))
            if got == verdict:
                best, changed = candidate, True
                break
            if budget <= 0:
                break
    os.makedirs(args.regressions, exist_ok=True)
    path = os.path.join(args.regressions, "random_%d.mlir" % cfg.seed)
    flags = " ".join(["--devices=" + ",".join(best.devices), "--no-cuda"] +
                     (["--precision=fp32"] if any(n.paint for n in best.nodes) else []) +
                     (["--gpu-host-code=emulated"] if cfg.emulated else []) + cfg.extra)
    with open(path, "w") as f:
        f.write("// Shrunk by test/diff/difftest.py from seed %d (%s).\n" % (cfg.seed, verdict))
        f.write("// RUN: %%check-e2e %%s main %%t %s --gpu=sim --check-ordering | FileCheck %%s\n" % flags)
        f.write("// CHECK: main out0: ok\n")
        f.write(rp.emit(best))
    return path


# -- the run --------------------------------------------------------------------

def coverage_table(results):
    ops = collections.Counter(k for r in results for k in r["ops"])
    lines = ["coverage over %d cases:" % len(results)]
    lines.append("  op kinds: " + ", ".join("%s %d" % kv for kv in sorted(ops.items())))
    types = collections.Counter(t for r in results for t in r.get("types", []))
    lines.append("  element types computed (cases): " +
                 ", ".join("%s %d" % kv for kv in sorted(types.items())))
    for key, label in [("cross_view", "a view on another device than its source"),
                       ("multi_device_value", "a value read on several devices"),
                       ("painted", "fp16-painted ops"), ("emulated", "CUDA emulation")]:
        lines.append("  %-45s %d cases" % (label + ":", sum(1 for r in results if r[key])))
    lines.append("  %-45s %d cases" % ("several runs in flight:",
                                       sum(1 for r in results if r["in_flight"] > 1)))
    gpus = collections.Counter(r["gpus"] for r in results)
    lines.append("  simulated GPUs: " + ", ".join("%d: %d" % kv for kv in sorted(gpus.items())))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default="difftest-work")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--emulated", type=float, default=0.1)
    ap.add_argument("--shrink", action="store_true")
    ap.add_argument("--regressions", default=None)
    ap.add_argument("--dlc-flags", default="")
    ap.add_argument("--expect-failures", action="store_true")
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)
    args.regressions = os.path.abspath(args.regressions or os.path.join(args.work, "shrunk"))
    os.makedirs(args.work, exist_ok=True)
    log = os.path.join(args.work, "results.jsonl")
    done = {}
    if args.resume and os.path.exists(log):
        with open(log) as f:
            for line in f:
                r = json.loads(line)
                done[r["seed"]] = r
    elif os.path.exists(log):
        os.remove(log)
    seeds = [args.seed + k for k in range(args.cases) if args.seed + k not in done]
    start = time.time()
    results = [done[s] for s in sorted(done) if args.seed <= s < args.seed + args.cases]
    with multiprocessing.Pool(args.workers) as pool, open(log, "a") as out:
        for r in pool.imap_unordered(run_case, [(s, args) for s in seeds]):
            out.write(json.dumps(r) + "\n")
            out.flush()
            results.append(r)
            if r["verdict"] not in ("ok", "dropped"):
                print("case %d: %s: %s%s" % (r["seed"], r["verdict"], r["detail"][:800],
                                            "\n  shrunk: " + r["shrunk"] if r.get("shrunk") else ""))
    verdicts = collections.Counter(r["verdict"] for r in results)
    print(coverage_table(results))
    print("%d cases (seeds %d..%d) in %.0f s: %s" % (
        len(results), args.seed, args.seed + args.cases - 1, time.time() - start,
        ", ".join("%s %d" % kv for kv in sorted(verdicts.items()))))
    dropped = verdicts.get("dropped", 0)
    if dropped > 0.05 * max(len(results), 1):
        print("too many dropped cases: %d of %d (the limit is 5%%)" % (dropped, len(results)))
        return 1
    bad = sum(v for k, v in verdicts.items() if k not in ("ok", "dropped"))
    if args.expect_failures:
        return 0 if bad else 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
