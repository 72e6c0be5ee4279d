#!/usr/bin/env python3
"""One artifact for every sequence length (a symbolic sequence, format 0.9)
against one artifact per length (issue 23's figures for the decoder).

    /usr/bin/python3 test/bench/symbolic_sequence_bench.py [--dlc build/bin/dlc]
        [--lengths 16,40,64] [--iterations 50] [--repeats 5] [--work DIR]

The GPT-style decoder (test/models/export.py gpt) exported once with a dynamic
sequence (dim_param 'seq' on dim 1 of x and y); the symbolic artifact is
`dlc compile model.onnx --max-dim=seq=BOUND` (BOUND the last length), and a
static artifact per length from the same ONNX graph (--input-shape=x=1xN).
Measured at one thread (`dlc run --threads=1 --iterations=N --warmup=5`, its
median; the artifacts alternate, REPEATS times, and the median of those
medians is quoted): the symbolic artifact at each length over that length's
static artifact (targets: the shortest and the bound <= 1.1), and its size
and compile time (the median of 3 compiles) over the bound's static
artifact (<= 1.3).
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from symbolic_batch_bench import compile_timed, latency_ms, run  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    p.add_argument("--lengths", default="16,40,64")
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--work", default=os.path.join(ROOT, "build", "bench", "symbolic_sequence"))
    a = p.parse_args()
    lengths = [int(n) for n in a.lengths.split(",")]
    bound = lengths[-1]
    os.makedirs(a.work, exist_ok=True)
    run(["/usr/bin/python3", os.path.join(ROOT, "test", "models", "export.py"), a.work,
         "--models", "gpt", "--dynamic-seq", a.lengths])
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print("CPU: %s; one thread; bound %d; median of %d x %d runs" % (
        cpu, bound, a.repeats, a.iterations))
    folder = os.path.join(a.work, "gpt")
    onnx = os.path.join(folder, "model.onnx")
    arts = {"sym": os.path.join(folder, "symbolic.dlcm")}
    compile_s, size = {}, {}
    compile_s["sym"], size["sym"] = compile_timed(a.dlc, onnx, arts["sym"],
                                                  ["--max-dim=seq=%d" % bound], repeats=3)
    for n in lengths:
        arts[n] = os.path.join(folder, "static%d.dlcm" % n)
        compile_s[n], size[n] = compile_timed(a.dlc, onnx, arts[n], ["--input-shape=x=1x%d" % n],
                                              repeats=3)
    times = {}
    for _ in range(a.repeats):
        for n in lengths:
            x = os.path.join(folder, "x.%d.npy" % n)
            for art in ("sym", n):
                times.setdefault((art, n), []).append(latency_ms(a.dlc, arts[art], x,
                                                                 a.iterations, warmup=5))
    med = {k: statistics.median(v) for k, v in times.items()}
    met = lambda r: "%.3f %s" % (r, "met" if r <= 1.1 else "NOT met")
    print("\n| tokens | symbolic (ms) | static for that length (ms) | ratio (<= 1.1) |")
    print("| --- | --- | --- | --- |")
    for n in lengths:
        print("| %d | %.3f | %.3f | %s |" % (n, med[("sym", n)], med[(n, n)],
                                          met(med[("sym", n)] / med[(n, n)])))
    rs, rc = size["sym"] / size[bound], compile_s["sym"] / compile_s[bound]
    print("\nsize %d / %d bytes = %.3f (<= 1.3: %s); compile %.2f / %.2f s = %.2f (<= 1.3: %s)"
          % (size["sym"], size[bound], rs, "met" if rs <= 1.3 else "NOT met",
             compile_s["sym"], compile_s[bound], rc, "met" if rc <= 1.3 else "NOT met"))


if __name__ == "__main__":
    main()
