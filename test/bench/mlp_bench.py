#!/usr/bin/python3
"""The example MLP end to end: `dlc run` next to the same model in PyTorch.

Usage (run.sh calls it; run with /usr/bin/python3, Debian's python3-torch):
  mlp_bench.py --dlc BIN --model MODEL.mlir --artifact MODEL.dlcm --work DIR
               [--iterations N] [--warmup N] [--torch-iterations N] [--quick]

PyTorch gets the SAME weights: the dense_resource blobs of MODEL.mlir are parsed
here (hex after the 4-byte alignment header, little-endian f32, shapes from the
`dlc.constant dense_resource<KEY> : tensor<...>` lines), and the graph is rebuilt
op by op from the function body (linear, gelu, softmax, relu, matmul, add). Both
run one thread on the same input x (written as x.npy and given to `dlc run
--input`); the outputs must agree (max abs difference < 1e-4), then each side's
median latency is measured: `dlc run --iterations=N --threads=1` (its own median
of set input + run + read output) and `model(x)` under torch.inference_mode()
after warmup. Prints both and a `RESULT mlp ...` line for run.sh.
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

TENSOR = re.compile(r"tensor<([0-9x]*)x?(f32)>")


def shape_of(spelling):
    dims = spelling.split("x")[:-1]
    return [int(d) for d in dims]


def parse_model(text):
    """(input name, input shape, ops, constants): ops are (result, op, operands, attrs)."""
    blobs = dict(re.findall(r'^\s*([\w.]+): "0x04000000([0-9A-Fa-f]*)"', text, re.M))
    sig = re.search(r"func\.func @main\((%\w+): tensor<([0-9x]+f32)> \{dlc\.name = \"(\w+)\"\}", text)
    if not sig:
        sys.exit("mlp_bench: expected one f32 input with a dlc.name")
    arg, input_shape, input_name = sig.group(1), shape_of(sig.group(2)), sig.group(3)
    constants, ops, result = {}, [], None
    for line in text.splitlines():
        line = line.split(" loc(")[0].strip()
        m = re.match(r"(%\w+) = dlc\.constant dense_resource<([\w.]+)> : tensor<([0-9x]+f32)>", line)
        if m:
            data = np.frombuffer(bytes.fromhex(blobs[m.group(2)]), dtype="<f4")
            constants[m.group(1)] = torch.from_numpy(data.copy()).reshape(shape_of(m.group(3)))
            continue
        m = re.match(r"(%\w+) = dlc\.(\w+) ([%\w, ]+?)(?: \{(.*)\})? :", line)
        if m:
            operands = [o.strip() for o in m.group(3).split(",")]
            ops.append((m.group(1), m.group(2), operands, m.group(4) or ""))
            continue
        m = re.match(r"return (%\w+)", line)
        if m:
            result = m.group(1)
    return arg, input_name, input_shape, ops, constants, result


class Graph(torch.nn.Module):
    """The dlc function body, op by op, with the model's constants as buffers."""

    def __init__(self, arg, ops, constants, result):
        super().__init__()
        self.arg, self.ops, self.result = arg, ops, result
        self.names = {}
        for i, (value, tensor) in enumerate(constants.items()):
            self.register_buffer(f"c{i}", tensor)
            self.names[value] = f"c{i}"

    def forward(self, x):
        env = {self.arg: x}
        for value, name in self.names.items():
            env[value] = getattr(self, name)
        for res, op, operands, attrs in self.ops:
            a = [env[o] for o in operands]
            if op == "linear":
                env[res] = torch.nn.functional.linear(*a)
            elif op == "gelu":
                approx = "tanh" if "tanh_approximation" in attrs else "none"
                env[res] = torch.nn.functional.gelu(a[0], approximate=approx)
            elif op == "softmax":
                m = re.search(r"axis = (-?\d+)", attrs)
                env[res] = torch.softmax(a[0], dim=int(m.group(1)) if m else -1)
            elif op == "relu":
                env[res] = torch.relu(a[0])
            elif op == "matmul":
                env[res] = torch.matmul(*a)
            elif op == "add":
                env[res] = a[0] + a[1]
            else:
                raise NotImplementedError(f"mlp_bench: op dlc.{op}")
        return env[self.result]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--artifact", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--iterations", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--torch-iterations", type=int, default=300)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    if args.quick:
        args.iterations, args.warmup, args.torch_iterations = 2, 1, 5

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    arg, input_name, input_shape, ops, constants, result = parse_model(Path(args.model).read_text())
    model = Graph(arg, ops, constants, result).eval()

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, size=input_shape).astype("<f4")
    np.save(work / f"{input_name}.npy", x)
    out_dir = work / "dlc_out"
    out_dir.mkdir(exist_ok=True)

    # dlc: correctness and latency in one run (the output files are those of the
    # untimed first run, then it times N iterations).
    cmd = [args.dlc, "run", args.artifact, "--input", f"{input_name}={work / (input_name + '.npy')}",
           "--output-dir", str(out_dir), f"--iterations={args.iterations}",
           f"--warmup={args.warmup}", "--threads=1"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"mlp_bench: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    m = re.search(r"latency: median ([0-9.]+) ms", proc.stdout.strip().splitlines()[-1])
    dlc_ms = float(m.group(1))
    outputs = sorted(out_dir.glob("*.npy"))
    if len(outputs) != 1:
        sys.exit(f"mlp_bench: expected one output in {out_dir}, got {outputs}")
    dlc_out = np.load(outputs[0])

    xt = torch.from_numpy(x)
    with torch.inference_mode():
        ref = model(xt).numpy()
        diff = float(np.max(np.abs(ref - dlc_out)))
        for _ in range(max(args.warmup, 10 if not args.quick else 1)):
            model(xt)
        times = []
        for _ in range(args.torch_iterations):
            t0 = time.perf_counter()
            model(xt)
            times.append(time.perf_counter() - t0)
    torch_ms = float(np.median(times)) * 1e3
    correct = diff < 1e-4

    print(f"MLP {Path(args.model).name}: input {input_name} {input_shape}, one thread")
    print(f"  dlc run:  median {dlc_ms:.3f} ms ({args.iterations} iterations)")
    print(f"  PyTorch {torch.__version__}: median {torch_ms:.3f} ms ({args.torch_iterations} iterations)")
    print(f"  dlc / PyTorch latency: {dlc_ms / torch_ms:.2f}x; max |dlc - torch| = {diff:.2e}"
          + ("" if correct else "  WRONG"))
    print(f"RESULT mlp dlc_ms={dlc_ms:.4f} torch_ms={torch_ms:.4f} max_abs_diff={diff:.3e} correct={int(correct)}")
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main())
