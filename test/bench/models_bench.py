#!/usr/bin/python3
"""dlc against PyTorch on four real models (issue 9), at one and two threads.

    /usr/bin/python3 test/bench/models_bench.py --dlc build/bin/dlc --work build/bench/models
        [--models resnet18,mobilenetv2,encoder,mlp] [--threads 1,2] [--iterations N] [--quick]

Each model is built with Debian's PyTorch/torchvision (random weights from a fixed
seed, batch-norm statistics randomised so that folding them matters), exported to
ONNX (opset 13), compiled with `dlc compile model.onnx`, checked against PyTorch on
one input (max |dlc - torch| / max |torch| < 1e-3) and timed:

- dlc: `dlc run --iterations=N --warmup=W --threads=T` (its median: set input +
  run + read output); its per-op-kind summary grouped into conv, matmul,
  elementwise, data movement and other (pooling, normalisation, softmax, reductions).
  The runtime splits a fused kernel's time evenly over its ops, so a conv with its
  ReLU fused in shows half its time under elementwise.
- PyTorch: `torch.set_num_threads(T)`, inference_mode, median of N `model(x)` calls.
- ONNX Runtime: timed when `import onnxruntime` works (Debian does not package it; run.sh
  installs it from PyPI into BUILD/bench/python).

Then a conv2d microbench (--no-conv skips it): single Conv2d layers (3x3 64 channels at
56x56, stride 1 and 2, and 1x1 64->256 and 256->64 at 56x56), dlc's median latency as a
share of the core's f32 peak measured in the same run (runtime/tools/CpuPeak: run.sh passes
dlc-bench-matmul's figure as --peak-gflops; alone, the best of 3 `dlc run --probe-devices`),
next to PyTorch's.

Prints a table and `RESULT models ...` lines for run.sh. Exits non-zero when a
compile or run fails or an output is wrong, never for a slow figure.
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn


# The encoder's layers are the ones the end-to-end tests export (test/models/export.py:
# a pre-LayerNorm block written op by op, so that nn.TransformerEncoderLayer's fused
# inference path does not time a different computation than the one exported).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))
from export import Block  # noqa: E402


def build(name, quick):
    """(module, input, description). --quick shrinks inputs (and the encoder), not the
    code paths: the same op kinds are compiled and checked."""
    torch.manual_seed(0)
    if name in ("resnet18", "mobilenetv2"):
        import torchvision
        ctor = torchvision.models.resnet18 if name == "resnet18" else torchvision.models.mobilenet_v2
        model = ctor(weights=None)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.1, 0.1)
        size = 32 if quick else 224
        return model, torch.randn(1, 3, size, size), f"1x3x{size}x{size}"
    if name == "encoder":
        d, heads, hidden, layers, tokens = (64, 4, 256, 1, 16) if quick else (256, 4, 1024, 4, 128)
        model = nn.Sequential(*[Block(d, heads, hidden) for _ in range(layers)], nn.LayerNorm(d))
        for m in model.modules():
            if isinstance(m, nn.LayerNorm):
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.5, 0.5)
        return model, torch.randn(2, tokens, d), f"{layers} blocks d={d} 2x{tokens}"
    if name == "mlp":
        batch = 4 if quick else 32
        model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                              nn.Linear(1024, 10))
        return model, torch.randn(batch, 784), f"{batch}x784-1024-1024-10"
    # Any other torchvision classifier, e.g. the untuned ones of issue 20:
    # efficientnet_b0, resnet50, vit_b_16 (224x224 inputs; ViT needs that size).
    import torchvision
    ctor = getattr(torchvision.models, name, None)
    if ctor is None or not callable(ctor):
        sys.exit(f"models_bench: unknown model '{name}' (resnet18, mobilenetv2, encoder, mlp "
                 "or a torchvision.models constructor such as efficientnet_b0, resnet50, vit_b_16)")
    model = ctor(weights=None)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
        # ViT's head starts at zero: its output would be too, and the check vacuous.
        if isinstance(m, nn.Linear) and not m.weight.detach().any():
            m.weight.data.normal_(0, 0.02)
            if m.bias is not None:
                m.bias.data.uniform_(-0.1, 0.1)
    size = 224 if name.startswith("vit") or not quick else 64
    return model, torch.randn(1, 3, size, size), f"1x3x{size}x{size}"


# dlc op kinds -> the breakdown's groups (anything else: other).
GROUPS = {
    "conv": {"conv2d", "depthwise_conv2d", "conv"},
    "matmul": {"matmul", "batch_matmul", "linear", "gemm"},
    "elementwise": {"add", "sub", "mul", "div", "relu", "gelu", "clip", "sigmoid", "tanh", "exp",
                    "erf", "sqrt", "rsqrt", "neg", "max", "min", "pow", "cast", "select", "abs",
                    "hard_swish", "hard_sigmoid", "leaky_relu", "log", "relu6"},
    "data": {"transpose", "reshape", "concat", "slice", "pad", "broadcast_to", "gather", "split",
             "expand", "flatten", "squeeze", "unsqueeze", "copy", "tile"},
}


def export_onnx(model, x, path, opset=13, dynamic_batch=False):
    """torch.onnx.export at `opset` (13 by default); with dynamic_batch, dim 0
    of x and y as dim_param 'batch' (dynamic_axes). PyTorch 1.13 exports an eval-mode
    nn.MultiheadAttention (ViT's) as its fused fast path, which ONNX has no op
    for: those modules alone are put in training mode (their dropout is 0, so
    they compute the same) and the export keeps each module's mode."""
    attention = [m for m in model.modules() if isinstance(m, nn.MultiheadAttention)]
    mode = torch.onnx.TrainingMode.EVAL
    if attention:
        assert all(m.dropout == 0 for m in attention), "attention dropout would change the output"
        for m in attention:
            m.train()
        mode = torch.onnx.TrainingMode.PRESERVE
    try:
        torch.onnx.export(model, (x,), str(path), opset_version=opset, input_names=["x"],
                          output_names=["y"], do_constant_folding=True, training=mode,
                          dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}}
                          if dynamic_batch else None)
    finally:
        for m in attention:
            m.eval()


def group_of(kind):
    base = kind.split(".", 1)[-1]
    for group, kinds in GROUPS.items():
        if base in kinds:
            return group
    return "other"


def run_dlc(dlc, artifact, x_path, out_dir, iterations, warmup, threads):
    cmd = [dlc, "run", str(artifact), "--input", f"x={x_path}", f"--iterations={iterations}",
           f"--warmup={warmup}", f"--threads={threads}"]
    if out_dir is not None:
        cmd += ["--output-dir", str(out_dir)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"models_bench: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    m = re.search(r"latency: median ([0-9.]+) ms", proc.stdout)
    if not m:
        sys.exit(f"models_bench: no latency line in the output of {' '.join(cmd)}:\n{proc.stdout}")
    kinds = {}
    for km in re.finditer(r"^  (dlc\.[a-z0-9_]+): (\d+) ops, .*measured ([0-9.]+) us", proc.stdout, re.M):
        kinds[km.group(1)] = (int(km.group(2)), float(km.group(3)))
    return float(m.group(1)), kinds


def time_torch(model, x, iterations, threads):
    torch.set_num_threads(threads)
    with torch.inference_mode():
        for _ in range(min(10, iterations)):
            model(x)
        times = []
        for _ in range(iterations):
            t0 = time.perf_counter()
            model(x)
            times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def time_ort(path, x, iterations, threads):
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    opts = ort.SessionOptions()
    opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    feed = {"x": x}
    for _ in range(min(10, iterations)):
        sess.run(None, feed)
    times = []
    for _ in range(iterations):
        t0 = time.perf_counter()
        sess.run(None, feed)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def timed_rounds(args, artifact, folder, model, x, onnx_path, x_np, have_ort, iters, warmup, t):
    """Medians over rounds (--rounds, 7 by default; 1 with --quick), each round timing
    every side with its share of the runs, the order reversed every other round: a
    burst of load on this
    shared machine, or a peer's threads still spinning, then falls on one round of
    each side instead of on all of one side's runs. Returns dlc, torch and ORT
    medians, the last round's dlc op kinds and a note of the per-round figures."""
    rounds = 1 if args.quick else args.rounds
    n = max(3, iters // rounds) if rounds > 1 else iters
    got = {"dlc": [], "torch": [], "ort": []}
    kinds = {}
    for r in range(rounds):
        sides = ["dlc", "torch", "ort"] if r % 2 == 0 else ["ort", "torch", "dlc"]
        for side in sides:
            if side == "dlc":
                ms, kinds = run_dlc(args.dlc, artifact, folder / "x.npy", None, n, warmup, t)
            elif side == "torch":
                ms = time_torch(model, x, n, t)
            else:
                ms = time_ort(onnx_path, x_np, n, t) if have_ort else None
            if ms is not None:
                got[side].append(ms)
    med = {k: (float(np.median(v)) if v else None) for k, v in got.items()}
    spread = ""
    if rounds > 1:
        spread = " (rounds: dlc " + "/".join(f"{v:.2f}" for v in got["dlc"]) + \
            ("; ORT " + "/".join(f"{v:.2f}" for v in got["ort"]) if got["ort"] else "") + ")"
    return med["dlc"], med["torch"], med["ort"], kinds, spread


# The conv microbench: (name, in channels, out channels, kernel, stride, input size);
# ResNet's 3x3 64-channel layer at 56x56 and its 1x1 neighbours (bottleneck shapes).
CONVS = [("conv3x3_64_56", 64, 64, 3, 1, 56), ("conv3x3_s2_64_128_56", 64, 128, 3, 2, 56),
         ("conv1x1_64_256_56", 64, 256, 1, 1, 56), ("conv1x1_256_64_56", 256, 64, 1, 1, 56)]


def model_convs(name):
    """The distinct dense (groups = 1) convolutions of a torchvision model at 1x3x224x224,
    as CONVS rows (padding k // 2, as every one of them has), with how often each occurs."""
    import torchvision
    model = getattr(torchvision.models, name)(weights=None).eval()
    seen = {}

    def hook(m, inputs, _):
        if m.groups != 1:
            return
        cin, cout, k, stride = m.in_channels, m.out_channels, m.kernel_size[0], m.stride[0]
        size = inputs[0].shape[-1]
        key = (f"{name}_{k}x{k}_s{stride}_{cin}_{cout}_{size}", cin, cout, k, stride, size)
        seen[key] = seen.get(key, 0) + 1

    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            m.register_forward_hook(hook)
    with torch.no_grad():
        model(torch.randn(1, 3, 224, 224))
    return [(*key, count) for key, count in seen.items()]


def core_peak(dlc, work):
    """The core's f32 peak, FLOP/s: `dlc run --probe-devices` (runtime/tools/CpuPeak)."""
    # The best of 3 probes: on a shared machine a probe can only come out low.
    spec, best = work / "probe.json", 0.0
    for _ in range(3):
        proc = subprocess.run([dlc, "run", f"--probe-devices={spec}"], capture_output=True, text=True)
        m = re.search(r'"f32": ([0-9.e+]+)', spec.read_text()) if proc.returncode == 0 else None
        if not m:
            sys.exit(f"models_bench: dlc run --probe-devices failed:\n{proc.stdout}{proc.stderr}")
        best = max(best, float(m.group(1)))
    return best


def conv_bench(args, work, quick):
    """One-op conv2d models (bias, no activation): dlc and PyTorch GFLOP/s at one thread,
    as a share of the core's peak measured in the same run."""
    if args.peak_gflops:
        peak, how = args.peak_gflops * 1e9, "--peak-gflops"
    else:
        peak, how = core_peak(args.dlc, work), "dlc run --probe-devices, best of 3"
    print(f"\nconv2d microbench, one thread; core peak {peak / 1e9:.1f} GFLOP/s ({how})")
    status = 0
    convs = [(*c, 1) for c in CONVS] if args.convs == "micro" else \
        [c for m in args.convs.split(",") for c in model_convs(m)]
    # The layers' total time at their share of each model's convolutions (count-weighted).
    total = {"dlc": 0.0, "torch": 0.0, "flop": 0.0}
    for name, cin, cout, k, stride, size, count in convs:
        if quick:
            size = 8
        torch.manual_seed(1)
        model = nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2).eval()
        x = torch.randn(1, cin, size, size)
        folder = work / name
        folder.mkdir(exist_ok=True)
        with torch.no_grad():
            ref = model(x).numpy()
            torch.onnx.export(model, (x,), str(folder / "model.onnx"), opset_version=13,
                              input_names=["x"], output_names=["y"])
        np.save(folder / "x.npy", x.numpy().astype("<f4"))
        proc = subprocess.run([args.dlc, "compile", str(folder / "model.onnx"), "-o",
                               str(folder / "model.dlcm"), *args.compile_flag],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"models_bench: dlc compile {folder / 'model.onnx'} failed:\n{proc.stdout}{proc.stderr}")
            status = 1
            continue
        (folder / "dlc_out").mkdir(exist_ok=True)
        run_dlc(args.dlc, folder / "model.dlcm", folder / "x.npy", folder / "dlc_out", 1, 0, 1)
        got = np.load(folder / "dlc_out" / "y.npy")
        err = float(np.max(np.abs(got - ref)) / max(float(np.max(np.abs(ref))), 1e-30))
        correct = got.shape == ref.shape and err < 1e-4
        status |= 0 if correct else 1
        iters = 2 if quick else (args.iterations or 50)
        dlc_ms, kinds = run_dlc(args.dlc, folder / "model.dlcm", folder / "x.npy", None, iters,
                                1 if quick else 3, 1)
        # The share of peak is taken from the median run (input and output copies
        # included: conservative); the conv kernel's mean time is printed beside it.
        kernel_ms = sum(us for kind, (_, us) in kinds.items() if group_of(kind) == "conv") / 1e3
        torch_ms = time_torch(model, x, iters, 1)
        out = (size + 2 * (k // 2) - k) // stride + 1
        flop = 2.0 * cout * cin * k * k * out * out
        total["dlc"] += count * dlc_ms
        total["torch"] += count * torch_ms
        total["flop"] += count * flop
        pct = lambda ms: 100 * flop / (ms / 1e3) / peak
        print(f"  {name}: dlc {dlc_ms:.3f} ms ({pct(dlc_ms):.1f}% of peak; conv kernel mean {kernel_ms:.3f} ms), "
              f"PyTorch {torch_ms:.3f} ms ({pct(torch_ms):.1f}%); rel err {err:.1e}"
              + ("" if correct else "  WRONG"))
        print(f"RESULT conv name={name} dlc_ms={dlc_ms:.4f} kernel_ms={kernel_ms:.4f} torch_ms={torch_ms:.4f} "
              f"gflop={flop / 1e9:.4f} peak_gflops={peak / 1e9:.2f} pct_peak={pct(dlc_ms):.2f} "
              f"torch_pct_peak={pct(torch_ms):.2f} correct={int(correct)} count={count}")
    if total["dlc"] > 0:
        share = lambda ms: 100 * total["flop"] / (ms / 1e3) / peak
        print(f"  all {len(convs)} layers, weighted by occurrence: dlc {share(total['dlc']):.1f}% of peak, "
              f"PyTorch {share(total['torch']):.1f}%")
        print(f"RESULT convs set={args.convs} pct_peak={share(total['dlc']):.2f} "
              f"torch_pct_peak={share(total['torch']):.2f}")
    return status


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dlc", required=True, help="the dlc binary")
    p.add_argument("--work", required=True, help="folder for the ONNX files, artifacts and inputs")
    p.add_argument("--models", default="resnet18,mobilenetv2,encoder,mlp")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    p.add_argument("--iterations", type=int, default=0,
                   help="timed runs per side (default: about 2 s of runs per model, 10..300)")
    p.add_argument("--quick", action="store_true", help="small inputs, 2 runs: checks that it all works")
    p.add_argument("--rounds", type=int, default=7,
                   help="alternated rounds per model and thread count; the figure is the median of "
                        "the rounds' medians (on a noisy machine, more and shorter rounds let a slow "
                        "spell fall on both sides alike)")
    p.add_argument("--no-conv", action="store_true", help="skip the conv2d microbench")
    p.add_argument("--convs", default="micro",
                   help="the microbench's layers: micro (four ResNet shapes) or comma-separated "
                        "torchvision models whose distinct dense convolutions are timed "
                        "(e.g. resnet18,mobilenet_v2)")
    p.add_argument("--compile-flag", action="append", default=[],
                   help="an extra `dlc compile` flag for every model (repeatable), e.g. "
                        "--compile-flag=--kernel-tiles=8x32 to compare tiles")
    p.add_argument("--peak-gflops", type=float, default=0.0,
                   help="the core's peak measured elsewhere in the same run (run.sh passes "
                        "dlc-bench-matmul's: its 0.7 s measurement is steadier than the probe's 0.1 s)")
    args = p.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    torch.set_num_interop_threads(1)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    have_ort = True
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        have_ort = False
        print("ONNX Runtime: not importable (Debian does not package it; test/bench/run.sh installs "
              "pip's onnxruntime into BUILD/bench/python when PyPI is reachable): skipped")

    status = 0
    rows = []
    for name in filter(None, args.models.split(",")):
        model, x, desc = build(name, args.quick)
        model.eval()
        folder = work / name
        folder.mkdir(exist_ok=True)
        onnx_path, artifact = folder / "model.onnx", folder / "model.dlcm"
        with torch.no_grad():
            ref = model(x).numpy()
            export_onnx(model, x, onnx_path)
        x_np = x.numpy().astype("<f4")
        np.save(folder / "x.npy", x_np)
        t0 = time.perf_counter()
        proc = subprocess.run([args.dlc, "compile", str(onnx_path), "-o", str(artifact), *args.compile_flag],
                              capture_output=True, text=True)
        compile_s = time.perf_counter() - t0
        if proc.returncode != 0:
            print(f"models_bench: dlc compile {onnx_path} failed:\n{proc.stdout}{proc.stderr}")
            status = 1
            continue
        out_dir = folder / "dlc_out"
        out_dir.mkdir(exist_ok=True)
        # Correctness on one run, and a first guess of the latency for the iteration count.
        guess_ms, _ = run_dlc(args.dlc, artifact, folder / "x.npy", out_dir, 1, 0, 1)
        got = np.load(out_dir / "y.npy")
        err = float(np.max(np.abs(got - ref)) / max(float(np.max(np.abs(ref))), 1e-30))
        correct = got.shape == ref.shape and err < 1e-3
        if not correct:
            status = 1
        iters = args.iterations or int(min(300, max(10, 2000 / max(guess_ms, 1e-3))))
        if args.quick:
            iters = 2
        warmup = 1 if args.quick else 3
        print(f"\n{name} ({desc}): compiled in {compile_s:.1f} s; max |dlc - torch| / max |torch| = "
              f"{err:.2e}{'' if correct else '  WRONG'}; {iters} timed runs per side")
        # The memory plan: the CPU arena next to the liveness lower bound (the most
        # bytes of activations live at one step), from `dlc inspect`.
        inspect = subprocess.run([args.dlc, "inspect", str(artifact)], capture_output=True,
                                 text=True).stdout
        plan = re.search(r"cpu: arena (\d+) bytes; (\d+) buffers, (\d+) bytes if none shared "
                         r"memory; liveness bound (\d+) bytes", inspect)
        if plan:
            arena, nbuf, unshared, bound = (int(v) for v in plan.groups())
            print(f"  memory plan: arena {arena / 2**20:.2f} MiB, liveness bound "
                  f"{bound / 2**20:.2f} MiB (arena +{100.0 * (arena / bound - 1):.1f}%), "
                  f"{nbuf} buffers, {unshared / 2**20:.2f} MiB unshared")
            print(f"RESULT memory model={name} arena={arena} liveness_bound={bound} "
                  f"unshared={unshared}")
        for t in threads:
            dlc_ms, torch_ms, ort_ms, kinds, spread = timed_rounds(
                args, artifact, folder, model, x, onnx_path, x_np, have_ort, iters, warmup, t)
            groups = {}
            for kind, (_, us) in kinds.items():
                groups[group_of(kind)] = groups.get(group_of(kind), 0.0) + us
            total = sum(groups.values()) or 1.0
            split = " ".join(f"{g}={groups.get(g, 0.0) / 1e3:.3f}"
                             for g in ("conv", "matmul", "elementwise", "data", "other"))
            print(f"  threads={t}: dlc {dlc_ms:.3f} ms, PyTorch {torch_ms:.3f} ms"
                  + (f", ONNX Runtime {ort_ms:.3f} ms" if ort_ms is not None else "")
                  + f", dlc/PyTorch {dlc_ms / torch_ms:.2f}x"
                  + (f", dlc/ORT {dlc_ms / ort_ms:.2f}x" if ort_ms is not None else "") + spread)
            print("    dlc per op kind (ms per run): " + ", ".join(
                f"{g} {groups.get(g, 0.0) / 1e3:.2f} ({100 * groups.get(g, 0.0) / total:.0f}%)"
                for g in ("conv", "matmul", "elementwise", "data", "other")))
            top = sorted(kinds.items(), key=lambda kv: -kv[1][1])[:6]
            print("    top kinds: " + ", ".join(f"{k[4:]} x{n} {us / 1e3:.2f}" for k, (n, us) in top))
            rows.append((name, t, dlc_ms, torch_ms, ort_ms))
            print(f"RESULT models model={name} threads={t} dlc_ms={dlc_ms:.4f} torch_ms={torch_ms:.4f} "
                  f"ort_ms={'-' if ort_ms is None else f'{ort_ms:.4f}'} ratio={dlc_ms / torch_ms:.4f} "
                  f"ort_ratio={'-' if ort_ms is None else f'{dlc_ms / ort_ms:.4f}'} "
                  f"rel_err={err:.3e} correct={int(correct)} {split}")

    if not args.no_conv:
        status |= conv_bench(args, work, args.quick)

    print(f"\n{'model':<14}{'threads':>8}{'dlc ms':>11}{'torch ms':>11}{'ort ms':>9}"
          f"{'dlc/torch':>11}{'dlc/ort':>9}")
    for name, t, d, tt, o in rows:
        print(f"{name:<14}{t:>8}{d:>11.3f}{tt:>11.3f}{'-' if o is None else f'{o:.3f}':>9}"
              f"{d / tt:>10.2f}x{'-' if o is None else f'{d / o:.2f}x':>9}")
    return status


if __name__ == "__main__":
    sys.exit(main())
