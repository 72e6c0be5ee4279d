#!/usr/bin/env python3
"""Random f32 convolutions through every CPU convolution strategy, against the interpreter.

    conv_programs.py [--cases=N] [--seed=S] [--work=DIR] [--workers=W]

random_programs.py draws convolutions of at most 8 filters over 6 channels on 9x9
images: none of them reaches the register-tiled strategies (ConvStrategy.h), which need
16-filter panels, and the pixel-row loops that split rows into chunks and run a 7x7
output's last column down the column (ConvToMatmul.cpp) need 4 panels or more. Each case
here is one convolution with constant weights (so that PackConvWeights packs them) drawn
to land on those paths: filters mostly a multiple of 16 (16-128), 1-64 channels, square
and non-square windows of 1-7, strides 1-2, random pads, images of 1-30 (7, 11, 13, 14
and 28 among them), a batch of 1-2, and an epilogue (bias, ReLU, a residual add) or not;
a quarter are depthwise (8-64 channels, images of 1-40: VectorizeRows' rows shifted in
registers or read from a padded copy), 8% each are pointwise over 264-768 channels
on images of 1-8 (the pixel rows' blocks of channels) or over 64 channels on 32-40
(the matmul's blocks of columns), 4% pointwise with 256-320 filters on images of 1-8
(the image read pixel-major) and 8% windows of 1, 3 or 5 over 64-72 channels with 64
filters (the padded image, or a strided 1x1's subsampled pixels, read pixel-major, a 7x7
output's last column down the column).
It is compiled for AVX2 with Zen 3's FMA timing (`--cpu=znver3`, which both CPU classes
this project runs on execute) and a random register tile (`--kernel-tiles`: the
derived 6x16 or 2..8 rows of 16 or 32 columns), run at 1 or 2 threads, and compared with
`dlc interpret` on the same random inputs (relative L2 error <= 1e-5, as check_e2e.py).
Prints one line per failure and a summary; exits non-zero on any failure.
"""
import argparse
import multiprocessing
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e", "Inputs"))
import check_e2e  # noqa: E402  (compare: the tolerances, in one place)

TILES = ["", "", "", "--kernel-tiles=5x16", "--kernel-tiles=4x16", "--kernel-tiles=8x16",
         "--kernel-tiles=3x32", "--kernel-tiles=2x16"]
MAX_WEIGHTS = 24000  # values in the weight constant (the .mlir text stays small)


def draw(seed, cpu="znver3"):
    """One case: the .mlir text, the compile flags, the run flags, a short description."""
    r = random.Random(seed)
    while True:
        n = r.choice([1, 1, 2])
        c = r.choice([1, 3, 8, 16, 17, 32, 40, 64])
        f = r.choice([16, 32, 48, 64, 64, 96, 128, 24, 40])
        kh = r.choice([1, 1, 3, 3, 5, 7])
        kw = kh if r.random() < 0.8 else r.choice([1, 3])
        stride = r.choice([1, 1, 2])
        h, w = r.choice([7, 11, 13, 14, 28, r.randint(1, 30)]), r.choice([7, 14, r.randint(1, 30)])
        if r.random() < 0.6:
            w = h
        # A depthwise convolution (rows up to 40: shifted in registers or
        # read from a padded copy, VectorizeRows.cpp) a quarter of the time.
        groups = 1
        limit = MAX_WEIGHTS
        draw_kind = r.random()
        if draw_kind < 0.25:
            groups = c = f = r.choice([8, 16, 24, 32, 48, 64])
            h, w = r.randint(1, 40), r.randint(1, 40)
        elif draw_kind < 0.33:
            # A pointwise convolution over many channels on a small image:
            # its filter panels go in blocks of channels (channelBlock in
            # ConvToMatmul.cpp: 2 or 3 blocks of 16 KiB).
            c, f, kh, kw = r.choice([264, 320, 528, 768]), 64, 1, 1
            h, w, limit = r.randint(1, 8), r.randint(1, 8), 50000
        elif draw_kind < 0.37:
            # A pointwise convolution with 16 filter panels or more on at
            # most 64 pixels: its image read pixel-major (readsPixelMajor in
            # ConvToMatmul.cpp), in blocks of channels or not.
            c, f, kh, kw, stride = r.choice([32, 40, 64, 264]), r.choice([256, 320]), 1, 1, 1
            h, w, limit = r.randint(1, 8), r.randint(1, 8), 90000
        elif draw_kind < 0.45:
            # A window over 64 channels or more with 4 panels or more: the
            # padded image read pixel-major (windowReadsPixelMajor), a 7x7
            # output's last column down the column.
            c, f = r.choice([64, 72]), 64
            kh = kw = r.choice([1, 3, 3, 5])
            h = w = r.choice([7, 7, 9, 14, 28, r.randint(2, 16)])
            limit = 120000
        elif draw_kind < 0.49:
            # A pointwise convolution with a short K on a large image: a
            # matmul in blocks of columns (blockedPanels in
            # TileAndVectorize.cpp: 512 columns for Zen 3's assumed L2).
            c, f, kh, kw, stride = 64, r.choice([48, 64, 96]), 1, 1, 1
            h = w = r.choice([32, 36, 40])
        pads = [r.randint(0, kh - 1), r.randint(0, kw - 1), r.randint(0, kh - 1), r.randint(0, kw - 1)]
        oh = (h + pads[0] + pads[2] - kh) // stride + 1
        ow = (w + pads[1] + pads[3] - kw) // stride + 1
        if oh >= 1 and ow >= 1 and f * c // groups * kh * kw <= limit:
            break
    def nested(shape):
        if len(shape) == 1:
            return "[" + ", ".join("%.3f" % r.uniform(-1, 1) for _ in range(shape[0])) + "]"
        return "[" + ", ".join(nested(shape[1:]) for _ in range(shape[0])) + "]"
    weights = nested([f, c // groups, kh, kw])
    bias = r.random() < 0.6
    relu, residual = r.random() < 0.5, r.random() < 0.3
    x, y = "tensor<%dx%dx%dx%dxf32>" % (n, c, h, w), "tensor<%dx%dx%dx%dxf32>" % (n, f, oh, ow)
    wt = "tensor<%dx%dx%dx%dxf32>" % (f, c // groups, kh, kw)
    lines = ["func.func @main(%%x: %s%s) -> %s {" % (x, ", %%res: %s" % y if residual else "", y),
             "  %%w = dlc.constant dense<%s> : %s" % (weights, wt)]
    operands, types = "%x, %w", "%s, %s" % (x, wt)
    if bias:
        lines.append("  %%b = dlc.constant dense<[%s]> : tensor<%dxf32>" % (
            ", ".join("%.3f" % r.uniform(-1, 1) for _ in range(f)), f))
        operands, types = operands + ", %b", types + ", tensor<%dxf32>" % f
    lines.append("  %%0 = dlc.conv2d %s {strides = array<i64: %d, %d>, pads = array<i64: %s>%s} : (%s) -> %s"
                 % (operands, stride, stride, ", ".join(map(str, pads)),
                    ", groups = %d : i64" % groups if groups > 1 else "", types, y))
    last = "%0"
    if residual:
        lines.append("  %%1 = dlc.add %s, %%res : %s" % (last, y))
        last = "%1"
    if relu:
        lines.append("  %%2 = dlc.relu %s : %s" % (last, y))
        last = "%2"
    lines += ["  return %s : %s" % (last, y), "}"]
    tile = r.choice(TILES)
    flags = ["--cpu=" + cpu] + ([tile] if tile else [])
    threads = "--threads=%d" % r.choice([1, 2])
    what = ("depthwise " if groups > 1 else "") + "n%d c%d f%d %dx%d s%d pads %s %dx%d -> %dx%d%s%s%s %s %s" % (
        n, c, f, kh, kw, stride, pads, h, w, oh, ow, " bias" if bias else "",
        " residual" if residual else "", " relu" if relu else "", tile or "6x16", threads)
    return "\n".join(lines) + "\n", flags, [threads], what


def run_case(job):
    seed, work, cpu = job
    text, flags, run_flags, what = draw(seed, cpu)
    folder = os.path.join(work, "case%d" % seed)
    os.makedirs(folder, exist_ok=True)
    model = os.path.join(folder, "conv.mlir")
    with open(model, "w") as f:
        f.write(text)
    artifact = os.path.join(folder, "conv.dlcm")
    ref_dir, run_dir = os.path.join(folder, "ref"), os.path.join(folder, "run")
    steps = [["dlc", "compile", model, "-o", artifact] + flags,
             ["dlc", "run", artifact, "--output-dir", run_dir] + run_flags,
             ["dlc", "interpret", model, "--random-inputs", "--output-dir", ref_dir]]
    for cmd in steps:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            return seed, what, "%s failed: %s" % (cmd[1], done.stdout.strip().splitlines()[-1:])
    try:
        for name in sorted(os.listdir(ref_dir)):
            check_e2e.compare(os.path.join(ref_dir, name), os.path.join(run_dir, name), name)
    except SystemExit as wrong:  # compare exits with the detail
        return seed, what, str(wrong)
    return seed, what, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="conv-programs-work")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--cpu", default="znver3",
                    help="the --cpu to compile for (one this machine runs: x86-64-v3 has no FMA timing, "
                         "so its row splits differ; native)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    jobs = [(seed, args.work, args.cpu) for seed in range(args.seed, args.seed + args.cases)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(run_case, jobs)
    failed = [(seed, what, why) for seed, what, why in results if why]
    for seed, what, why in failed:
        print("FAIL seed %d (%s): %s" % (seed, what, why))
    print("%d cases (seeds %d..%d): ok %d, failed %d" % (
        args.cases, args.seed, args.seed + args.cases - 1, args.cases - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
