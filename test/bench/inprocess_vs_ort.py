#!/usr/bin/env python3
"""dlc and ONNX Runtime in one process, run by run in turn: whole-model medians.

    inprocess_vs_ort.py DIR [ARTIFACT ...] [--runtime LIB] [--runs N] [--repeats R]

DIR is a model folder that models_bench.py leaves (model.onnx, x.npy, model.dlcm);
ARTIFACTs (default model.dlcm, paths relative to DIR) are artifacts of that model,
e.g. a compiler change before and after. One process loads every artifact through
the runtime's C API (ctypes on libdlc_runtime_shared.so, built with the runtime) and
an ORT session set as models_bench.py sets it, then times N rounds, each running
every side once (set input + run), the order rotating per round. Prints per side
the median, minimum and 90th percentile, and the median as a ratio to ORT's.

Why one process: on a shared VM the host's load comes in phases of seconds, and
it hits kernels unequally (on the AVX2 machine dlc's convolutions slowed 1.7x in
a loaded phase where ORT's slowed 1.2x). Separate processes, even alternated
(models_bench.py), see different phases and different process placement; here
every side sees the same moments. One thread only: two pools in one process would
take each other's cores while they spin.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time


def load_runtime(path):
    lib = ctypes.CDLL(path)
    lib.dlc_status_message.restype = ctypes.c_char_p
    for name in ("dlc_model_load_file", "dlc_session_create", "dlc_session_run",
                 "dlc_session_set_input"):
        getattr(lib, name).restype = ctypes.c_void_p
    return lib


def dlc_runner(lib, artifact, x):
    """A function running `artifact` once on `x` at one thread."""
    def check(status, what):
        if status:
            message = lib.dlc_status_message(ctypes.c_void_p(status)).decode()
            sys.exit(f"inprocess_vs_ort.py: {what}: {message}")
    model = ctypes.c_void_p()
    check(lib.dlc_model_load_file(artifact.encode(), None, ctypes.byref(model)), artifact)
    # dlc_session_options_t: initialised by the runtime; thread_count is its first field.
    options = ctypes.create_string_buffer(1024)
    lib.dlc_session_options_initialize(options)
    ctypes.c_int32.from_buffer(options, 0).value = 1
    session = ctypes.c_void_p()
    check(lib.dlc_session_create(model, options, ctypes.byref(session)), artifact)
    data, size = x.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(x.nbytes)

    def run():
        check(lib.dlc_session_set_input(session, ctypes.c_size_t(0), data, size), artifact)
        check(lib.dlc_session_run(session), artifact)
    return run


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folder")
    p.add_argument("artifacts", nargs="*", default=["model.dlcm"])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--runtime", default=os.path.join(here, "..", "..", "build", "lib",
                                                     "libdlc_runtime_shared.so"))
    p.add_argument("--runs", type=int, default=60)
    p.add_argument("--repeats", type=int, default=1)
    args = p.parse_args()
    import numpy as np
    import onnxruntime as ort

    if not os.path.exists(args.runtime):
        sys.exit(f"inprocess_vs_ort.py: no runtime library at {args.runtime} "
                 "(build the target dlc_runtime_shared, or pass --runtime)")
    lib = load_runtime(args.runtime)
    x = np.ascontiguousarray(np.load(os.path.join(args.folder, "x.npy")))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(os.path.join(args.folder, "model.onnx"), options,
                                   providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x}
    sides = [("ORT", lambda: session.run(None, feed))]
    sides += [(a, dlc_runner(lib, os.path.join(args.folder, a), x)) for a in args.artifacts]
    for _, run in sides * 3:
        run()
    print(f"{args.folder}: one thread, {args.runs} rounds x {args.repeats}")
    for repeat in range(args.repeats):
        times = {name: [] for name, _ in sides}
        for i in range(args.runs):
            k = i % len(sides)
            for name, run in sides[k:] + sides[:k]:
                start = time.perf_counter()
                run()
                times[name].append((time.perf_counter() - start) * 1e3)
        ort_median = statistics.median(times["ORT"])
        for name, t in times.items():
            t.sort()
            print(f"  {name:>24}  median {statistics.median(t):9.3f} ms  min {t[0]:9.3f}  "
                  f"p90 {t[int(0.9 * len(t))]:9.3f}  median/ORT "
                  f"{statistics.median(t) / ort_median:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
