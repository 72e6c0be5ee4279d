#!/usr/bin/env python3
"""Two or more artifacts of one model, kernel by kernel, by their minimum times.

    kernels_ab.py A.dlcm B.dlcm [...] [--input NAME=FILE.npy ...] [--dlc DLC]
                  [--threads N] [--rounds R] [--runs K] [--kernels]

Alternates R rounds of K runs of `dlc run --profile` over the artifacts (the same
inputs: --input files, else dlc's seeded random ones) and prints, per artifact, the sum
over its kernels of each kernel's minimum and the median over runs of the kernels'
total; with --kernels, each kernel's minimum side by side (the artifacts' kernels are
matched by name, so compare artifacts of the same model: a compiler change before and
after). Minimums, because on a shared machine the host's load only adds time; this is how
an A/B of a kernel change is read where whole-model medians move 30% between minutes
(test/bench/README.md, "Per CPU class").
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile


def profile(dlc, artifact, inputs, runs, threads, trace):
    """kernel -> its times (us) in one `dlc run --profile`, in run order."""
    subprocess.run([dlc, "run", artifact, *["--input=" + i for i in inputs],
                    f"--iterations={runs}", f"--threads={threads}", f"--profile={trace}"],
                   capture_output=True, check=True)
    events = json.load(open(trace))
    times = collections.defaultdict(list)
    for e in events["traceEvents"] if isinstance(events, dict) else events:
        if e.get("ph") == "X" and e.get("cat") == "kernel":
            times[e["name"]].append(e["dur"])
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("artifacts", nargs="+")
    p.add_argument("--input", action="append", default=[], help="NAME=FILE.npy, as dlc run")
    p.add_argument("--dlc", default="dlc")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--kernels", action="store_true", help="each kernel's minimum too")
    args = p.parse_args()
    trace = os.path.join(tempfile.mkdtemp(prefix="kernels_ab."), "trace.json")
    minimum = {a: collections.defaultdict(lambda: float("inf")) for a in args.artifacts}
    totals = {a: [] for a in args.artifacts}
    for _ in range(args.rounds):
        for a in args.artifacts:
            times = profile(args.dlc, a, args.input, args.runs, args.threads, trace)
            for kernel, ts in times.items():
                minimum[a][kernel] = min(minimum[a][kernel], min(ts))
            runs = len(next(iter(times.values()), []))
            totals[a] += [sum(ts[i] for ts in times.values() if i < len(ts)) for i in range(runs)]
    width = max(len(a) for a in args.artifacts)
    for a in args.artifacts:
        print(f"{a:{width}}  sum of kernel minimums {sum(minimum[a].values()) / 1e3:9.3f} ms"
              f"  median kernels per run {statistics.median(totals[a]) / 1e3:9.3f} ms")
    if args.kernels:
        first = args.artifacts[0]
        for kernel in sorted(minimum[first], key=lambda k: -minimum[first][k]):
            print(f"{kernel:>6} " + " ".join(f"{minimum[a].get(kernel, float('nan')) / 1e3:9.3f}"
                                             for a in args.artifacts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
