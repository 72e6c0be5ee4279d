#!/usr/bin/env python3
"""Random placements of a whole model give the CPU's answer.

    model_placements.py MODEL.mlir WORK [--gpus=2] [--seeds=N] [--seed=S]
                        [--precision=fp32|mixed] [--emulated] [--workers=W]

The model's placement dump (`--dump-placement`, the `cost` policy) is taken once,
then for each seed every op's device is replaced by a random one of cpu and the
GPUs and compiled back through `--placement-from` (with --precision=mixed the
GPU ops are then painted by policy), run on simulated GPUs with the ordering
checker, and compared with the interpreter on the model as written (f32, no
placement): max|run - ref| <= 1e-5 * max|ref| per output in fp32, relative L2
<= 1e-2 with mixed precision (f16 arithmetic; test/e2e/Inputs/check_mixed.py
uses the same bound against the fp32 model). A NaN or inf the reference lacks,
a refusal or a run error fails. Prints one line per seed and a summary; exit 1
on any failure.
"""
import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from difftest import DLC, sh, values  # noqa: E402


def compare(ref_dir, run_dir, mixed):
    for name in sorted(os.listdir(ref_dir)):
        _, r = values(os.path.join(ref_dir, name))
        _, g = values(os.path.join(run_dir, name))
        if any(not math.isfinite(a) and math.isfinite(b) for a, b in zip(g, r)):
            return "%s: not finite where the reference is" % name
        if mixed:
            num = math.sqrt(sum((a - b) ** 2 for a, b in zip(g, r)))
            den = math.sqrt(sum(b * b for b in r)) or 1.0
            if num / den > 1e-2:
                return "%s: relative L2 error %.3g > 1e-2" % (name, num / den)
        else:
            scale = max(abs(b) for b in r)
            worst = max(abs(a - b) for a, b in zip(g, r))
            if worst > 1e-5 * scale:
                return "%s: max error %.3g > 1e-5 * max|ref| (%.3g)" % (name, worst, scale)
    return ""


def one(job):
    seed, args, dump = job
    work = os.path.join(args.work, "seed-%d" % seed)
    os.makedirs(work, exist_ok=True)
    r = random.Random(seed)
    with open(dump) as f:
        placement = json.load(f)
    # Per name: ops that share one (an ONNX node's halves) must share a device.
    chosen = {}
    for op in placement["ops"]:
        op["device"] = chosen.setdefault(op["name"], r.choice(args.devices))
    edited = os.path.join(work, "placement.json")
    with open(edited, "w") as f:
        json.dump(placement, f)
    flags = ["--devices=" + ",".join(args.devices), "--no-cuda", "--placement-from=" + edited]
    if args.precision == "mixed":
        flags.append("--precision=mixed")
    if args.emulated:
        flags.append("--gpu-host-code=emulated")
    artifact = os.path.join(work, "m.dlcm")
    rc, out = sh([DLC, "compile", args.model, "-o", artifact] + flags, timeout=900)
    if rc != 0:
        return seed, "refused: " + out.strip()[-800:]
    run_dir = os.path.join(work, "run")
    rc, out = sh([DLC, "run", artifact, "--gpu=sim", "--check-ordering", "--output-dir", run_dir])
    if rc != 0:
        return seed, "run failed: " + out.strip()[-800:]
    verdict = compare(args.ref, run_dir, args.precision == "mixed")
    if not verdict:
        shutil.rmtree(work, ignore_errors=True)
    return seed, verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("work")
    ap.add_argument("--gpus", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--precision", default="fp32", choices=["fp32", "mixed"])
    ap.add_argument("--emulated", action="store_true")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    args.devices = ["cpu"] + ["cuda:%d" % i for i in range(args.gpus)]
    args.ref = os.path.join(args.work, "ref")
    shutil.rmtree(args.ref, ignore_errors=True)
    rc, out = sh([DLC, "interpret", args.model, "--random-inputs", "--output-dir", args.ref],
                 timeout=900)
    if rc != 0:
        sys.exit("reference failed: " + out)
    dump = os.path.join(args.work, "cost.json")
    rc, out = sh([DLC, "compile", args.model, "--devices=" + ",".join(args.devices),
                  "--dump-placement=" + dump, "--emit=mlir"], timeout=900)
    if rc != 0:
        sys.exit("placement dump failed: " + out[-2000:])
    jobs = [(args.seed + k, args, dump) for k in range(args.seeds)]
    failures = 0
    with multiprocessing.Pool(args.workers) as pool:
        for seed, verdict in pool.imap(one, jobs):
            failures += bool(verdict)
            print("%s seed %d: %s" % (os.path.basename(args.model), seed, verdict or "ok"))
    print("%s over %s, %s: %d of %d placements right" % (
        os.path.basename(args.model), ",".join(args.devices), args.precision,
        args.seeds - failures, args.seeds))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
