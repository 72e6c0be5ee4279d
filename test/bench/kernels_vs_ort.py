#!/usr/bin/env python3
"""dlc's kernels next to ONNX Runtime's nodes, each by its minimum time.

    kernels_vs_ort.py DIR [--threads N] [--rounds R] [--runs K] [--statistic min|median]

DIR is a model folder that models_bench.py leaves (model.onnx, model.dlcm, x.npy);
model.dlcm is compiled again first when it is older than the dlc binary or the model
(an artifact from an earlier compiler would time that compiler's kernels).
Alternates R rounds of K runs per side: `dlc run --profile` (the kernels' Chrome
trace) and an ORT session with enable_profiling (its `_kernel_time` events), ORT set
as models_bench.py sets it. Prints one line per dlc kernel with its minimum, the
minimum summed over the ORT nodes that match its ops by name (ORT names a node after
its output, and after the activation it fused a convolution with), and the sums.
Minimums, because on a shared machine the host's load only adds time; whole-model
medians from models_bench.py stay the figures the targets are judged by.
--statistic=median compares per-kernel medians instead: it shows which kernels
lose the most to a loaded host (a kernel can win on minimums and lose on medians).
"""
import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def dlc_kernels(dlc, folder):
    """kernel name -> the op names it runs (`dlc inspect`), packing ops left out."""
    text = subprocess.run([dlc, "inspect", os.path.join(folder, "model.dlcm")],
                          capture_output=True, text=True, check=True).stdout
    kernels = {}
    for m in re.finditer(r"^\s+\d+: '(k\d+)' = \S+ in library \d+; ops: (.*)$", text, re.M):
        kernels[m.group(1)] = [op for op in m.group(2).split(", ")
                               if not op.endswith(("packed_weight", "/view", "/bias"))]
    return kernels


def ort_nodes_of(ops, names):
    """The ORT nodes that compute `ops`: by output name, or the conv a fused activation names."""
    matched = set()
    for op in ops:
        for name in names:
            if name == op or name.startswith(op + "_output"):
                matched.add(name)
            elif op.endswith("/Conv"):
                prefix, layer = op.rsplit("/", 2)[0], op.split("/")[-2]
                if name.startswith(prefix) and name.endswith("_nchwc") and layer in name:
                    matched.add(name)
    return matched


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folder")
    p.add_argument("--dlc", default="dlc")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--statistic", choices=["min", "median"], default="min")
    args = p.parse_args()
    import numpy as np
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.enable_profiling = True
    work = tempfile.mkdtemp(prefix="kernels_vs_ort.")
    options.profile_file_prefix = os.path.join(work, "ort")
    session = ort.InferenceSession(os.path.join(args.folder, "model.onnx"), options,
                                   providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: np.load(os.path.join(args.folder, "x.npy"))}
    artifact, onnx_model = os.path.join(args.folder, "model.dlcm"), os.path.join(args.folder, "model.onnx")
    dlc_binary = shutil.which(args.dlc) or args.dlc
    if not os.path.exists(artifact) or os.path.getmtime(artifact) < max(
            os.path.getmtime(dlc_binary), os.path.getmtime(onnx_model)):
        print("compiling %s with %s" % (artifact, dlc_binary), file=sys.stderr)
        subprocess.run([args.dlc, "compile", onnx_model, "-o", artifact], check=True)
    pick = min if args.statistic == "min" else statistics.median
    dlc_times = collections.defaultdict(list)
    trace = os.path.join(work, "dlc.json")
    for _ in range(args.rounds):
        subprocess.run([args.dlc, "run", os.path.join(args.folder, "model.dlcm"),
                        "--input=x=" + os.path.join(args.folder, "x.npy"),
                        f"--iterations={args.runs}", f"--threads={args.threads}",
                        f"--profile={trace}"], capture_output=True, check=True)
        events = json.load(open(trace))
        for e in events["traceEvents"] if isinstance(events, dict) else events:
            if e.get("ph") == "X" and e.get("cat") == "kernel":
                dlc_times[e["name"]].append(e["dur"])
        for _ in range(args.runs):
            session.run(None, feed)
    ort_times = collections.defaultdict(list)
    for e in json.load(open(session.end_profiling())):
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            ort_times[e["name"][:-len("_kernel_time")]].append(e["dur"])
    dlc_min = {k: pick(v) for k, v in dlc_times.items()}
    ort_min = {k: pick(v) for k, v in ort_times.items()}
    total_dlc = total_matched = 0.0
    for kernel, ops in dlc_kernels(args.dlc, args.folder).items():
        nodes = ort_nodes_of(ops, list(ort_min))
        mine, theirs = dlc_min[kernel] / 1e3, sum(ort_min[n] for n in nodes) / 1e3
        total_dlc += mine
        total_matched += theirs
        ratio = f"{mine / theirs:5.2f}x" if theirs else "   - "
        print(f"{kernel:>5} dlc {mine:8.3f} ms  ort {theirs:8.3f} ms  {ratio}  "
              f"{ops[0] if ops else ''} ({len(ops)} ops, {len(nodes)} ORT nodes)")
    print(f"sums of {args.statistic}s, {args.threads} thread(s): dlc {total_dlc:.2f} ms, ORT "
          f"{sum(ort_min.values()) / 1e3:.2f} ms ({total_matched:.2f} in matched nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
