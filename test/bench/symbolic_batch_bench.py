#!/usr/bin/env python3
"""One artifact for every batch (a symbolic batch, format 0.8) against one
artifact per batch (issue 23's figures).

    /usr/bin/python3 test/bench/symbolic_batch_bench.py [--dlc build/bin/dlc]
        [--models resnet18,encoder,mlp] [--bound 8] [--resnet-size 224]
        [--iterations 20] [--repeats 3] [--work DIR]

Per model (test/models/export.py, exported once with dynamic_axes: dim_param
'batch' on dim 0 of x and y):
  - the symbolic artifact: `dlc compile model.onnx --max-dim=batch=BOUND`;
  - two static artifacts from the same ONNX graph: --input-shape=x=1x... and
    --input-shape=x=BOUNDx...
Measured, all at one thread (`dlc run --threads=1 --iterations=N --warmup=3`,
its median; the artifacts alternate, REPEATS times, and the median of those
medians is quoted): batch-1 latency of the symbolic artifact / the batch-1
artifact (target <= 1.1), latency at the bound of the symbolic artifact / the
bound's artifact (<= 1.1), and the symbolic artifact's size and compile time /
the bound's artifact's (<= 1.3). Also the symbolic artifact at batch
BOUND/2 (not a target: one artifact instead of a compile per size).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("command failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    return r.stdout


def compile_timed(dlc, onnx, out, flags, repeats=1):
    """The median of `repeats` compiles' seconds (the machine is shared), and the size."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run([dlc, "compile", onnx, "-o", out] + flags)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), os.path.getsize(out)


def latency_ms(dlc, artifact, x_path, iterations, warmup=3):
    text = run([dlc, "run", artifact, "--input=x=" + x_path, "--threads=1",
                "--iterations=%d" % iterations, "--warmup=%d" % warmup])
    return float(re.search(r"latency: median ([0-9.]+) ms", text).group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    p.add_argument("--models", default="resnet18,encoder,mlp")
    p.add_argument("--bound", type=int, default=8)
    p.add_argument("--resnet-size", type=int, default=224)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--work", default=os.path.join(ROOT, "build", "bench", "symbolic_batch"))
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    run(["/usr/bin/python3", os.path.join(ROOT, "test", "models", "export.py"), a.work,
         "--models", a.models, "--resnet-size", str(a.resnet_size),
         "--dynamic-batch", str(a.bound)])
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print("CPU: %s; one thread; bound %d; median of %d x %d runs" % (
        cpu, a.bound, a.repeats, a.iterations))
    rows = []
    for name in a.models.split(","):
        folder = os.path.join(a.work, name)
        onnx = os.path.join(folder, "model.onnx")
        x = np.load(os.path.join(folder, "x.npy"))
        dims = "x".join(str(d) for d in x.shape[1:])
        arts = {"sym": os.path.join(folder, "symbolic.dlcm"),
                "b1": os.path.join(folder, "static1.dlcm"),
                "bound": os.path.join(folder, "static%d.dlcm" % a.bound)}
        compile_s, size = {}, {}
        compile_s["sym"], size["sym"] = compile_timed(
            a.dlc, onnx, arts["sym"], ["--max-dim=batch=%d" % a.bound])
        compile_s["b1"], size["b1"] = compile_timed(
            a.dlc, onnx, arts["b1"], ["--input-shape=x=1x" + dims])
        compile_s["bound"], size["bound"] = compile_timed(
            a.dlc, onnx, arts["bound"], ["--input-shape=x=%dx%s" % (a.bound, dims)])
        inputs = {}
        for n in (1, a.bound // 2, a.bound):
            inputs[n] = os.path.join(folder, "x%d.npy" % n)
            np.save(inputs[n], x[:n])
        runs = [("sym", 1), ("b1", 1), ("sym", a.bound), ("bound", a.bound),
                ("sym", a.bound // 2)]
        times = {r: [] for r in runs}
        for _ in range(a.repeats):
            for art, n in runs:
                times[(art, n)].append(latency_ms(a.dlc, arts[art], inputs[n], a.iterations))
        med = {r: statistics.median(v) for r, v in times.items()}
        rows.append((name, med, compile_s, size))
        print("%s: batch 1: symbolic %.3f ms, batch-1 artifact %.3f ms (x%.3f); batch %d: "
              "symbolic %.3f ms, static %.3f ms (x%.3f); batch %d: symbolic %.3f ms; "
              "size %d / %d bytes (x%.3f); compile %.2f / %.2f s (x%.2f)" % (
                  name, med[("sym", 1)], med[("b1", 1)], med[("sym", 1)] / med[("b1", 1)],
                  a.bound, med[("sym", a.bound)], med[("bound", a.bound)],
                  med[("sym", a.bound)] / med[("bound", a.bound)], a.bound // 2,
                  med[("sym", a.bound // 2)], size["sym"], size["bound"],
                  size["sym"] / size["bound"], compile_s["sym"], compile_s["bound"],
                  compile_s["sym"] / compile_s["bound"]))
    print("\n| model | batch 1 vs batch-1 artifact (<= 1.1) | batch %d vs static (<= 1.1) | "
          "size (<= 1.3) | compile time (<= 1.3) |" % a.bound)
    print("| --- | --- | --- | --- | --- |")
    for name, med, compile_s, size in rows:
        r1 = med[("sym", 1)] / med[("b1", 1)]
        rb = med[("sym", a.bound)] / med[("bound", a.bound)]
        rs = size["sym"] / size["bound"]
        rc = compile_s["sym"] / compile_s["bound"]
        met = lambda r, t: "%.3f %s" % (r, "met" if r <= t else "NOT met")
        print("| %s | %.3f / %.3f ms = %s | %.3f / %.3f ms = %s | %s | %s |" % (
            name, med[("sym", 1)], med[("b1", 1)], met(r1, 1.1), med[("sym", a.bound)],
            med[("bound", a.bound)], met(rb, 1.1), met(rs, 1.3), met(rc, 1.3)))


if __name__ == "__main__":
    main()
