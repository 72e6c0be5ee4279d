#!/usr/bin/env python3
"""A measured GPU device spec from the figures a GPU check took (issue 20).

    gpu_spec.py FIGURES.json SPEC.json

gpu_check.py measures the machine's GPUs (PyTorch: f32/f16/bf16 GEMM, device copy
bandwidth, a tiny kernel's launch-to-completion time, pinned host <-> device copies,
peer copies between GPUs) and dlc's own kernels (the bundle's GEMM benchmark), writes
those figures as FIGURES.json and turns them into SPEC.json here: a device spec in the
schema of passes/README.md with one `cuda:N` per GPU, each with a `source` naming the
GPU and the date, and `kernel_flops.matmul` from dlc's GEMM. Its `cpu` is a
placeholder that says so: `dlc probe-devices MERGED.json --base=SPEC.json` replaces it
with this host's measured CPU, and `dlc compile --device-spec=MERGED.json` places with
both. Python 3 only.

FIGURES.json fields (numbers; the optional ones may be absent):
  gpu_name, date (strings), gpus, memory_bytes, f32_TFLOPs, f16_TFLOPs, bf16_TFLOPs,
  copy_GBps (device to device, read + write), launch_us, h2d_GBps, h2d_latency_us;
  optional: p2p_GBps, p2p_latency_us (GPU to GPU), dlc_gemm_f16_TFLOPs.
"""
import json
import sys

REQUIRED = ["gpu_name", "date", "gpus", "memory_bytes", "f32_TFLOPs", "f16_TFLOPs",
            "bf16_TFLOPs", "copy_GBps", "launch_us", "h2d_GBps", "h2d_latency_us"]


def spec_from_figures(f):
    missing = [k for k in REQUIRED if k not in f]
    if missing:
        raise ValueError("figures lack " + ", ".join(missing))
    gpus = int(f["gpus"])
    if gpus < 1:
        raise ValueError("figures: gpus must be at least 1, got %d" % gpus)
    f32, f16, bf16 = (float(f[k]) * 1e12 for k in ("f32_TFLOPs", "f16_TFLOPs", "bf16_TFLOPs"))
    source = "gpu-check on %s, %s: PyTorch GEMMs and copies" % (f["gpu_name"], f["date"])
    devices = [{
        "kind": "cpu", "memory_bytes": 64 << 30,
        "flops": {"f32": 1e11, "f16": 6.7e10, "bf16": 6.7e10},
        "bandwidth_bytes_per_s": 2e10, "launch_overhead_us": 1,
        "source": "a placeholder for the host: dlc probe-devices --base replaces it"}]
    for i in range(gpus):
        gpu = {"kind": "cuda", "index": i, "memory_bytes": int(f["memory_bytes"]),
               "flops": {"f32": f32, "f16": f16, "bf16": bf16},
               "bandwidth_bytes_per_s": float(f["copy_GBps"]) * 1e9,
               "launch_overhead_us": float(f["launch_us"]), "source": source}
        if "dlc_gemm_f16_TFLOPs" in f:
            # kernel_flops are f32 rates, scaled by f16 / f32 for an f16 op.
            gpu["kernel_flops"] = {"matmul": float(f["dlc_gemm_f16_TFLOPs"]) * 1e12 * f32 / f16}
            gpu["source"] += ", dlc's GEMM"
        devices.append(gpu)
    n = gpus + 1
    host = (float(f["h2d_GBps"]) * 1e9, float(f["h2d_latency_us"]))
    peer = (float(f["p2p_GBps"]) * 1e9, float(f.get("p2p_latency_us", host[1]))) \
        if "p2p_GBps" in f else host
    bandwidth = [[0.0] * n for _ in range(n)]
    latency = [[0.0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            if a != b:
                bw, lat = host if 0 in (a, b) else peer
                bandwidth[a][b], latency[a][b] = bw, lat
    return {"devices": devices,
            "links": {"bandwidth_bytes_per_s": bandwidth, "latency_us": latency}}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gpu_spec.py FIGURES.json SPEC.json")
    try:
        with open(sys.argv[1]) as fh:
            spec = spec_from_figures(json.load(fh))
    except (OSError, ValueError) as e:
        sys.exit("gpu_spec: %s: %s" % (sys.argv[1], e))
    with open(sys.argv[2], "w") as fh:
        json.dump(spec, fh, indent=1)
        fh.write("\n")
    print("wrote %s (%d GPU%s)" % (sys.argv[2], len(spec["devices"]) - 1,
                                   "" if len(spec["devices"]) == 2 else "s"))


if __name__ == "__main__":
    main()
