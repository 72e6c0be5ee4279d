#!/usr/bin/env python3
"""Runs the bundle's artifacts on this machine's GPUs (tools/gpu-check.sh calls it).

    gpu_check.py BUNDLE WORK DLC_RUN

For every artifact of BUNDLE/manifest.tsv: on 1 real GPU (1-GPU artifacts), on 2
real GPUs when the machine has them, on 2 logical GPUs remapped onto GPU 0
(--gpu-map=0,0), and on simulated GPUs (--gpu=sim); each run's outputs against the
reference interpreter's (relative L2: f32 <= 1e-5, mixed precision <= 1e-2, f16
outputs <= 2e-3, integers exact) and its median latency. Then the GPU benchmarks,
with PyTorch as the peer when it is installed. Prints one table, last. Python 3
only (no numpy): the .npy files are read by npy.py from test/e2e/Inputs.
"""
import json
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402
import gpu_spec  # noqa: E402

TOL = {"f32": 1e-5, "mixed": 1e-2}
F16_TOL = 2e-3


def run(cmd, timeout=120):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout


def rel_l2(got, ref):
    pairs = [(a, b) for a, b in zip(got, ref) if math.isfinite(b)]
    if any(math.isnan(a) for a, _ in pairs):
        return float("inf")
    num = math.sqrt(sum((a - b) ** 2 for a, b in pairs))
    den = math.sqrt(sum(b * b for _, b in pairs))
    return num / den if den > 0 else num


def bf16(bits):
    import struct
    return [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits]


def compare(ref_dir, run_dir, tol_class):
    """(worst error, problem or '')."""
    names = sorted(os.listdir(ref_dir))
    got_names = sorted(os.listdir(run_dir)) if os.path.isdir(run_dir) else []
    if names != got_names:
        return float("inf"), "outputs %s, reference %s" % (got_names, names)
    worst = 0.0
    for name in names:
        _, rshape, ref = npy.read(os.path.join(ref_dir, name))
        descr, shape, got = npy.read(os.path.join(run_dir, name))
        if shape != rshape:
            return float("inf"), "%s: shape %s, reference %s" % (name, shape, rshape)
        if descr == "<u2":
            got = bf16(got)
        if descr in ("<f4", "<f2", "<u2"):
            err = rel_l2(got, ref)
            limit = TOL[tol_class] if descr == "<f4" else max(F16_TOL, TOL[tol_class])
            if descr == "<u2":
                limit = max(1.6e-2, TOL[tol_class])
            worst = max(worst, err)
            if err > limit:
                return worst, "%s: relative L2 %.3g > %.3g" % (name, err, limit)
        elif got != ref:
            return float("inf"), "%s: integers differ" % name
    return worst, ""


def latency_ms(out):
    m = re.search(r"latency: median ([0-9.]+) ms", out)
    return float(m.group(1)) if m else None


def kernel_us(out):
    """Per run, the kernels' measured time (the op-kind lines, copies left out)."""
    total, seen = 0.0, False
    for m in re.finditer(r"^  (dlc\.[a-z_0-9]+): \d+ ops, estimated [^,]+, measured ([0-9.]+) us",
                         out, re.M):
        if m.group(1) != "dlc.copy":
            total += float(m.group(2))
            seen = True
    return total if seen else None


def gpu_count(dlc_run):
    code, out = run([dlc_run, "--list-gpus"])
    m = re.match(r"(\d+) CUDA GPU", out.strip())
    return (int(m.group(1)) if code == 0 and m else 0), out.strip()


def torch_peer():
    """PyTorch's figures on GPU 0, or {} when it is absent."""
    code = r'''
import time, torch
if not torch.cuda.is_available(): raise SystemExit(1)
def t(fn, n):
    fn(); torch.cuda.synchronize(); s = time.perf_counter()
    for _ in range(n): fn()
    torch.cuda.synchronize(); return (time.perf_counter() - s) / n
x = torch.empty(64 << 20, device="cuda"); y = torch.empty_like(x)
print("copy_GBps", 2 * x.numel() * 4 / t(lambda: y.copy_(x), 20) / 1e9)
print("ew_GBps", 2 * x.numel() * 4 / t(lambda: torch.relu(x * x + x), 20) / 1e9)
a = torch.randn(4096, 4096, device="cuda", dtype=torch.half); b = torch.randn_like(a)
print("gemm_TFLOPs", 2 * 4096 ** 3 / t(lambda: torch.matmul(a, b), 20) / 1e12)
print("version", torch.__version__)
# For the measured device spec (gpu_spec.py).
torch.backends.cuda.matmul.allow_tf32 = False
a32, b32 = a.float(), b.float()
print("f32_TFLOPs", 2 * 4096 ** 3 / t(lambda: torch.matmul(a32, b32), 10) / 1e12)
a16, b16 = a.bfloat16(), b.bfloat16()
print("bf16_TFLOPs", 2 * 4096 ** 3 / t(lambda: torch.matmul(a16, b16), 20) / 1e12)
def synced(fn, n):
    fn(); torch.cuda.synchronize(); s = time.perf_counter()
    for _ in range(n):
        fn(); torch.cuda.synchronize()
    return (time.perf_counter() - s) / n
one = torch.zeros(1, device="cuda")
print("launch_us", synced(lambda: one.add_(1), 200) * 1e6)
host = torch.empty(64 << 20, dtype=torch.uint8).pin_memory(); dev = torch.empty_like(host, device="cuda")
print("h2d_GBps", host.numel() / t(lambda: dev.copy_(host, non_blocking=True), 20) / 1e9)
tiny = torch.empty(64, dtype=torch.uint8).pin_memory(); dtiny = torch.empty_like(tiny, device="cuda")
print("h2d_latency_us", synced(lambda: dtiny.copy_(tiny, non_blocking=True), 200) * 1e6)
props = torch.cuda.get_device_properties(0)
print("memory_bytes", props.total_memory)
print("gpu_name", props.name)
print("gpus", torch.cuda.device_count())
if torch.cuda.device_count() >= 2:
    other = torch.empty_like(dev, device="cuda:1")
    print("p2p_GBps", dev.numel() / t(lambda: other.copy_(dev, non_blocking=True), 20) / 1e9)
'''
    rc, out = run([sys.executable, "-c", code], timeout=120)
    if rc != 0:
        return {}
    return dict(line.split(" ", 1) for line in out.strip().splitlines() if " " in line)


def write_measured_spec(peer, bench_rows, work):
    """The GPUs' measured device spec (gpu_spec.py) into $OUT (what the device tool
    brings back) or WORK; a line saying where, or why not."""
    if "f32_TFLOPs" not in peer:
        return "measured device spec: not written (no PyTorch on a GPU)"
    figures = {k: v if k in ("gpu_name",) else float(v) for k, v in peer.items()
               if k in gpu_spec.REQUIRED + ["p2p_GBps"] and k != "date"}
    figures["f16_TFLOPs"] = float(peer["gemm_TFLOPs"])
    figures["copy_GBps"] = float(peer["copy_GBps"])
    figures["date"] = time.strftime("%Y-%m-%d", time.gmtime())
    for name, value, _, _ in bench_rows:
        if name.endswith("TFLOP/s") and "f16" in name and value != "-":
            figures["dlc_gemm_f16_TFLOPs"] = float(value)
            break
    out = os.environ.get("OUT") or work
    try:
        spec = gpu_spec.spec_from_figures(figures)
        path = os.path.join(out, "gpu-spec.json")
        with open(path, "w") as fh:
            json.dump(spec, fh, indent=1)
        with open(os.path.join(out, "gpu-figures.json"), "w") as fh:
            json.dump(figures, fh, indent=1)
    except (OSError, ValueError) as e:
        return "measured device spec: not written (%s)" % e
    return ("measured device spec: %s (dlc probe-devices M.json --base=%s; "
            "dlc compile --device-spec=M.json)" % (path, os.path.basename(path)))


def main():
    bundle, work, dlc_run = sys.argv[1], sys.argv[2], sys.argv[3]
    start = time.time()
    ngpu, gpu_text = gpu_count(dlc_run)
    rows, failures = [], 0
    manifest = [line.rstrip("\n").split("\t")
                for line in open(os.path.join(bundle, "manifest.tsv")) if line.strip()]
    bench = []
    for name, art, ref, gpus, tol in manifest:
        if tol.startswith("bench"):
            bench.append((name, art, tol))
            continue
        configs = []
        if ngpu >= int(gpus):
            configs.append(("real x%s" % gpus, []))
        if gpus == "2" and ngpu >= 1:
            configs.append(("2 on GPU 0", ["--gpu-map=0,0"]))
        configs.append(("sim", ["--gpu=sim"]))
        for label, flags in configs:
            out_dir = os.path.join(work, name, label.replace(" ", "_"))
            os.makedirs(out_dir, exist_ok=True)
            code, out = run([dlc_run, os.path.join(bundle, art), "--output-dir", out_dir,
                             "--iterations=5", "--warmup=1"] + flags)
            if code != 0:
                lines = out.strip().splitlines() or ["exit %d" % code]
                # dlc-run's message (naming the device and call) over a JIT log's tail.
                said = [l for l in lines if "dlc-run: " in l]
                err, problem = float("inf"), (said[0].split("dlc-run: ", 1)[1] if said else lines[-1])
            else:
                err, problem = compare(os.path.join(bundle, ref), out_dir, tol)
            ok = not problem
            failures += not ok
            rows.append((name, label, tol, err, latency_ms(out) if code == 0 else None,
                         "ok" if ok else "FAIL: " + problem[:70]))
    peer = torch_peer() if ngpu else {}
    bench_rows = []
    for name, art, kind in bench:
        if not ngpu:
            bench_rows.append((name, "-", "-", "no GPU"))
            continue
        code, out = run([dlc_run, os.path.join(bundle, art), "--iterations=10", "--warmup=2"],
                        timeout=300)
        us = kernel_us(out) if code == 0 else None
        if us is None:
            bench_rows.append((name, "-", "-", "FAIL: " + (out.strip().splitlines() or ["?"])[-1][:60]))
            continue
        if kind == "bench-ew":
            gbps = 2 * (64 << 20) * 4 / (us * 1e-6) / 1e9
            ref = float(peer["copy_GBps"]) if "copy_GBps" in peer else None
            bench_rows.append((name + " GB/s", "%.1f" % gbps,
                               "d2d copy %.1f" % ref if ref else "no torch",
                               "%.0f%% (target >= 80%%)" % (100 * gbps / ref) if ref else "-"))
        else:
            tflops = 2 * 4096 ** 3 / (us * 1e-6) / 1e12
            ref = float(peer["gemm_TFLOPs"]) if "gemm_TFLOPs" in peer else None
            bench_rows.append((name + " TFLOP/s", "%.1f" % tflops,
                               "torch %.1f" % ref if ref else "no torch",
                               "%.0f%% (target >= 80%% default, 30%% generated)" % (100 * tflops / ref)
                               if ref else "-"))

    spec_note = write_measured_spec(peer, bench_rows, work)

    print()
    print("== gpu-check: %s; %s" % (gpu_text, "PyTorch " + peer["version"] if "version" in peer
                                    else "no PyTorch"))
    print("%-34s %-11s %-6s %10s %10s  %s" % ("artifact", "binding", "tol", "rel-L2", "ms", "status"))
    for name, label, tol, err, ms, status in rows:
        print("%-34s %-11s %-6s %10s %10s  %s" % (
            name, label, tol, "%.2e" % err if math.isfinite(err) else "-",
            "%.3f" % ms if ms is not None else "-", status))
    print("%-34s %12s %22s  %s" % ("benchmark", "dlc", "peer", "ratio"))
    for row in bench_rows:
        print("%-34s %12s %22s  %s" % row)
    skipped = os.path.join(bundle, "skipped.tsv")
    if os.path.exists(skipped):
        names = [line.split("\t")[0] for line in open(skipped) if line.strip()]
        if names:
            print("not compiled for the GPU (bundle's skipped.tsv): %s" % ", ".join(names))
    print("runtime tests:%s" % os.environ.get("GPU_CHECK_TESTS", " not run"))
    print(spec_note)
    print("%d runs, %d failed, %.0f s" % (len(rows), failures, time.time() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
