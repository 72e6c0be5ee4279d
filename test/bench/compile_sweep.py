#!/usr/bin/python3
"""Compile time over torchvision's classification models (issue 21).

    /usr/bin/python3 test/bench/compile_sweep.py --dlc build/bin/dlc --work build/bench/sweep
        [--models resnet18,densenet121] [--max-params 100e6] [--budget 15] [--no-check]

Every model `torchvision.models.list_models()` names (Debian's torchvision
0.14: 80) with at most --max-params parameters is built with random weights
(seed 0), exported to ONNX at 1x3x224x224 (299 for inception_v3; opset 13,
as models_bench.py does), and compiled with `dlc compile model.onnx` once,
timed by wall clock around the process (one process at a time: run it on an
idle machine, and state the CPU). Each compiled model runs once on one input
and is checked against PyTorch (max |dlc - torch| / max |torch| < 1e-3)
unless --no-check.

A model dlc refuses (an operator it does not have yet: the operators issue)
is listed with the first line of the refusal and counted apart, as is one
PyTorch 1.13 cannot export (swin_v2: aten::zero): the budget is for what
compiles. The budget is 15 s plus 3 s per GB of weights beyond
the first (issue 21). Prints one line per model, then a summary; exits
non-zero when a compiled model is over budget or wrong, never for a refusal.
"""
import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torchvision

sys.path.insert(0, str(Path(__file__).resolve().parent))
from models_bench import export_onnx  # noqa: E402


def budget_seconds(params, base):
    gigabytes = params * 4 / 1e9
    return base + 3.0 * max(0.0, gigabytes - 1.0)


def first_error(text, limit=160):
    """The first line of a tool's output that names an error, else its last."""
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:limit]
    lines = text.strip().splitlines()
    return lines[-1][:limit] if lines else "no output"


def sweep_one(name, args):
    torch.manual_seed(0)
    model = torchvision.models.get_model(name, weights=None).eval()
    # Some heads start at zero (ViT's, GoogLeNet's): the output would be all
    # zeros whatever dlc computed before them.
    with torch.no_grad():
        for p in model.parameters():
            if not p.any():
                p.normal_(0, 0.02)
    params = sum(p.numel() for p in model.parameters())
    if params > args.max_params:
        return {"name": name, "params": params, "verdict": "skipped (parameters)"}
    size = 299 if name == "inception_v3" else 224
    x = torch.rand(1, 3, size, size)
    folder = Path(args.work) / name
    folder.mkdir(parents=True, exist_ok=True)
    onnx = folder / "model.onnx"
    with torch.inference_mode():
        expected = model(x)
    if not onnx.exists():
        try:
            export_onnx(model, x, onnx)
        except Exception as e:  # PyTorch 1.13's exporter lacks some of its own ops
            return {"name": name, "params": params,
                    "verdict": "not exported (PyTorch): " + str(e).splitlines()[0][:120]}
    np.save(folder / "x.npy", x.numpy().astype("<f4"))
    start = time.monotonic()
    proc = subprocess.run([args.dlc, "compile", str(onnx), "-o", str(folder / "model.dlcm")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - start
    result = {"name": name, "params": params, "seconds": seconds,
              "budget": budget_seconds(params, args.budget)}
    if proc.returncode != 0:
        result["verdict"] = "refused: " + first_error(proc.stdout)
        return result
    result["verdict"] = "ok" if seconds <= result["budget"] else "over budget"
    if args.no_check:
        return result
    out = folder / "out"
    run = subprocess.run([args.dlc, "run", str(folder / "model.dlcm"), "--input",
                          "x=" + str(folder / "x.npy"), "--output-dir", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        result["verdict"] = "run failed: " + first_error(run.stdout)
        return result
    got = np.load(out / "y.npy")
    want = expected.numpy()
    if not np.any(want):
        result["verdict"] = "unchecked (PyTorch's output is all zeros)"
        return result
    error = float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30))
    result["error"] = error
    if not error < 1e-3:
        result["verdict"] = "wrong (relative error %.2g)" % error
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dlc", default="build/bin/dlc")
    ap.add_argument("--work", default="build/bench/sweep")
    ap.add_argument("--models", default="")
    ap.add_argument("--max-params", type=float, default=100e6)
    ap.add_argument("--budget", type=float, default=15.0)
    ap.add_argument("--no-check", action="store_true")
    args = ap.parse_args()
    names = args.models.split(",") if args.models else torchvision.models.list_models(
        module=torchvision.models)
    results = []
    for name in names:
        r = sweep_one(name, args)
        results.append(r)
        timing = "%6.2f s (budget %.0f s)" % (r["seconds"], r["budget"]) if "seconds" in r else ""
        check = " max rel err %.1e" % r["error"] if "error" in r else ""
        print("%-22s %6.1fM params %s %s%s" % (name, r["params"] / 1e6, timing, r["verdict"], check),
              flush=True)
    compiled = [r for r in results if r["verdict"] in ("ok", "over budget")
                or r["verdict"].startswith("wrong")]
    refused = [r for r in results if r["verdict"].startswith("refused")]
    bad = [r for r in results if r["verdict"] != "ok"
           and not r["verdict"].startswith(("refused", "skipped", "not exported"))]
    if compiled:
        worst = max(compiled, key=lambda r: r["seconds"])
        print("RESULT sweep compiled %d, refused %d, not exported or skipped %d; slowest %s %.2f s; "
              "over budget or wrong: %d" % (len(compiled), len(refused),
                                            len(results) - len(compiled) - len(refused),
                                            worst["name"], worst["seconds"], len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
