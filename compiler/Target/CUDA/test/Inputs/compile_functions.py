#!/usr/bin/env python3
"""Compiles every function of a test file (cases split by '// -----') with all
its ops placed on a GPU, so that every kernel the CUDA emitter produces for it
goes through NVRTC (PTX and a CUBIN per --cuda-arch).

Usage: compile_functions.py FILE [dlc compile flags...]. Prints one line per
function: `OK <func>: <n> GPU kernels` or `FAIL <func>: <dlc's error>`, and
exits non-zero when one fails.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile


def compile_one(tmp, source, name, flags):
    artifact = os.path.join(tmp, name + ".dlcm")
    run = subprocess.run(["dlc", "compile", source, "--entry=" + name,
                          "--devices=cpu,cuda:0,cuda:1", "--placement=gpu",
                          "-o", artifact] + flags, capture_output=True, text=True)
    if run.returncode != 0:
        return "FAIL %s: %s" % (name, run.stderr.strip())
    inspect = subprocess.run(["dlc", "inspect", artifact], capture_output=True, text=True)
    kernels = len(re.findall(r"^\s+cuda: k\d+ in module", inspect.stdout, flags=re.M))
    if kernels == 0:
        return "FAIL %s: no GPU kernel" % name
    return "OK %s: %d GPU kernels" % (name, kernels)


def main():
    path, flags = sys.argv[1], sys.argv[2:]
    text = open(path).read()
    jobs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
            names = re.findall(r"func\.func @([\w.]+)", case)
            if not names:
                continue
            source = os.path.join(tmp, "case%d.mlir" % i)
            with open(source, "w") as f:
                f.write(case)
            jobs += [(tmp, source, name, flags) for name in names]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            lines = list(pool.map(lambda job: compile_one(*job), jobs))
    for line in lines:
        print(line)
    sys.exit(1 if any(line.startswith("FAIL") for line in lines) else 0)


if __name__ == "__main__":
    main()
