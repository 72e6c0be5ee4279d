#!/usr/bin/env python3
"""Runs each function of a test file (cases split by '// -----') twice and
compares: (a) the reference interpreter, `dlc interpret`, and (b) the code
that `dlc-opt --dlc-lower-to-linalg` produces, bufferized and lowered to LLVM
by upstream mlir-opt and run by mlir-cpu-runner. Math ops go to libm so that
the comparison checks the lowering, not an approximation.

Inputs are seeded, ragged values per argument; a comment
    // RANGE: %name LO HI
in a case narrows an argument's values (e.g. positive for log, valid gather
indices). Results are printed bit-exactly (as i32 bit patterns) and compared
with a relative tolerance of 1e-5 for f32 (plus 1e-6 absolute), one ulp for
f16/bf16, exactly for integers.

Usage: check_numerics.py FILE [--keep DIR]. Prints one line per case:
    OK <func>: <n> values, max error <e> of the tolerance
or FAIL lines, and exits non-zero when a case fails. Needs dlc, dlc-opt,
mlir-opt and mlir-cpu-runner on PATH (lit provides them), no NumPy.
"""
import ast
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

LLVM_LIB = "/usr/lib/llvm-19/lib"
NPY_DESCR = {"f32": "<f4", "f16": "<f2", "i32": "<i4", "i64": "<i8", "i1": "|b1"}
NPY_FMT = {"<f4": "f", "<f2": "e", "<i4": "i", "<i8": "q", "|b1": "?", "<f8": "d"}

PIPELINE = [
    "--linalg-fuse-elementwise-ops",
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-loops", "--convert-math-to-llvm", "--convert-math-to-libm",
    "--expand-strided-metadata", "--lower-affine", "--convert-scf-to-cf",
    "--convert-cf-to-llvm", "--convert-arith-to-llvm", "--convert-index-to-llvm",
    "--finalize-memref-to-llvm", "--convert-func-to-llvm",
    "--reconcile-unrealized-casts",
]


def parse_tensor(t):
    """'tensor<2x3xf32>' -> ([2, 3], 'f32')."""
    body = t[len("tensor<"):-1]
    parts = body.split("x")
    return [int(p) for p in parts[:-1]], parts[-1]


def signature(text, name):
    """Argument and result tensor types of func @name in lowered IR."""
    m = re.search(r"func\.func @%s\((.*?)\)( -> (.*?))? \{\n" % re.escape(name), text)
    args = re.findall(r"tensor<[^>]*>", m.group(1))
    results = re.findall(r"tensor<[^>]*>", m.group(3) or "")
    return [parse_tensor(a) for a in args], [parse_tensor(r) for r in results]


def round_f16(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


def round_f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def make_values(shape, elem, index, rng):
    n = math.prod(shape)
    lo, hi = rng if rng else ((-2.5, 2.5) if elem[0] in "fb" else (-7, 7))
    out = []
    for i in range(n):
        # A deterministic, irregular sequence in [0, 1).
        u = ((i * 7919 + index * 104729 + 13) % 1009) / 1009.0
        if elem == "i1":
            out.append(u < 0.5)
        elif elem[0] == "i":
            out.append(int(lo) + int(u * (int(hi) - int(lo) + 1)))
        else:
            v = lo + (hi - lo) * u
            out.append(round_f16(v) if elem == "f16" else round_f32(v))
    return out


def write_npy(path, values, shape, elem):
    descr = NPY_DESCR[elem]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), NPY_FMT[descr]), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    (hlen,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + hlen].decode())
    count = math.prod(header["shape"])
    return list(struct.unpack_from("<%d%s" % (count, NPY_FMT[header["descr"]]), data, 10 + hlen))


def literal(values, shape, elem):
    def scalar(v):
        if elem == "i1":
            return "true" if v else "false"
        return repr(v) if elem[0] == "f" else str(v)

    def nest(vals, dims):
        if not dims:
            return scalar(vals[0])
        step = len(vals) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s>" % nest(values, shape)


def wrapper(name, args, results, inputs):
    """func @main: calls @name on constants, prints each result's bits."""
    def ttype(shape, elem):
        return "tensor<%s>" % "x".join([str(d) for d in shape] + [elem])
    lines = ["  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
             "  func.func @main() {"]
    for i, ((shape, elem), vals) in enumerate(zip(args, inputs)):
        lines.append("    %%in%d = arith.constant %s : %s" % (i, literal(vals, shape, elem), ttype(shape, elem)))
    res = ", ".join("%%r%d" % i for i in range(len(results)))
    lines.append("    %s = func.call @%s(%s) : (%s) -> (%s)" % (
        res, name, ", ".join("%%in%d" % i for i in range(len(args))),
        ", ".join(ttype(*a) for a in args), ", ".join(ttype(*r) for r in results)))
    for i, (shape, elem) in enumerate(results):
        rank = len(shape)
        dims = ", ".join("d%d" % d for d in range(rank))
        m = "affine_map<(%s) -> (%s)>" % (dims, dims)
        conv = {
            "f32": ["%%b = arith.bitcast %%x : f32 to i32"],
            "f16": ["%%f = arith.extf %%x : f16 to f32", "%%b = arith.bitcast %%f : f32 to i32"],
            "bf16": ["%%f = arith.extf %%x : bf16 to f32", "%%b = arith.bitcast %%f : f32 to i32"],
            "i32": ["%%b = arith.addi %%x, %%x0 : i32"],
            "i64": ["%%b = arith.trunci %%x : i64 to i32"],
            "i1": ["%%b = arith.extui %%x : i1 to i32"],
        }[elem]
        it = ", ".join(['"parallel"'] * rank)
        lines.append("    %%e%d = tensor.empty() : %s" % (i, ttype(shape, "i32")))
        lines.append("    %%p%d = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
                     "ins(%%r%d : %s) outs(%%e%d : %s) {" % (i, m, m, it, i, ttype(shape, elem), i,
                                                             ttype(shape, "i32")))
        lines.append("    ^bb0(%%x: %s, %%o: i32):" % elem)
        if elem == "i32":
            lines.append("      %%x0 = arith.constant 0 : i32")
        lines += ["      " + c for c in conv]
        lines.append("      linalg.yield %b : i32")
        lines.append("    } -> %s" % ttype(shape, "i32"))
        lines.append("    %%m%d = bufferization.to_memref %%p%d : memref<%s>" % (
            i, i, "x".join([str(d) for d in shape] + ["i32"])))
        lines.append("    %%u%d = memref.cast %%m%d : memref<%s> to memref<*xi32>" % (
            i, i, "x".join([str(d) for d in shape] + ["i32"])))
        lines.append("    func.call @printMemrefI32(%%u%d) : (memref<*xi32>) -> ()" % i)
    lines += ["    return", "  }"]
    return "\n".join(lines).replace("%%", "%")


def decode(bits, elem):
    if elem in ("f32", "f16", "bf16"):
        return struct.unpack("<f", struct.pack("<i", bits))[0]
    return bits


def ulp(v, elem):
    if elem == "f32":
        return 0.0
    mant = {"f16": 10, "bf16": 7}[elem]
    e = math.frexp(abs(v))[1] - 1 if v else -14
    return 2.0 ** (max(e, -14 if elem == "f16" else -126) - mant)


def compare(got, want, elem):
    """Returns (ok, the largest error as a fraction of its tolerance)."""
    worst = 0.0
    for g, w in zip(got, want):
        if elem[0] == "i":
            if int(g) != int(w):
                return False, float("inf")
            continue
        if math.isnan(w) or math.isnan(g):
            if not (math.isnan(w) and math.isnan(g)):
                return False, float("inf")
            continue
        if math.isinf(w) or math.isinf(g):
            if g != w:
                return False, float("inf")
            continue
        err = abs(g - w)
        tol = 1e-5 * abs(w) + 1e-6 if elem == "f32" else ulp(w, elem) * 1.0001
        worst = max(worst, err / tol)
        if err > tol:
            return False, worst
    return True, worst


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        raise RuntimeError("%s failed:\n%s%s" % (cmd[0], p.stdout[-2000:], p.stderr[-4000:]))
    return p.stdout


def check_case(text, tmp):
    name = re.search(r"func\.func @([\w.]+)", text).group(1)
    ranges = {m.group(1): (float(m.group(2)), float(m.group(3)))
              for m in re.finditer(r"// RANGE: %(\w+) (\S+) (\S+)", text)}
    src = os.path.join(tmp, name + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    lowered = run(["dlc-opt", src, "--dlc-lower-to-linalg"])
    args, results = signature(lowered, name)
    # Argument names in the source, for RANGE.
    header = re.search(r"func\.func @%s\((.*?)\)\s*(->|\{)" % re.escape(name), text, re.S).group(1)
    arg_names = re.findall(r"%(\w+)\s*:", header)
    inputs, cmd = [], ["dlc", "interpret", src, "--entry=" + name, "--output-dir", os.path.join(tmp, name)]
    for i, (shape, elem) in enumerate(args):
        vals = make_values(shape, elem, i, ranges.get(arg_names[i]) if i < len(arg_names) else None)
        inputs.append(vals)
        path = os.path.join(tmp, "%s_arg%d.npy" % (name, i))
        write_npy(path, vals, shape, elem)
        cmd.append("--input=arg%d=%s" % (i, path))
    run(cmd)
    module = lowered.rstrip()
    assert module.endswith("}")
    module = module[:-1] + wrapper(name, args, results, inputs) + "\n}\n"
    llvm_ir = run(["mlir-opt"] + PIPELINE, input=module)
    out = run(["mlir-cpu-runner", "-e", "main", "-entry-point-result=void",
               "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so" % (LLVM_LIB, LLVM_LIB)],
              input=llvm_ir)
    chunks = out.split("Unranked Memref")[1:]
    count, worst, failures = 0, 0.0, []
    for i, ((shape, elem), chunk) in enumerate(zip(results, chunks)):
        bits = [int(v) for v in re.findall(r"-?\d+", chunk.split("data =", 1)[1])]
        got = [decode(b, elem) for b in bits]
        want = read_npy(os.path.join(tmp, name, "result%d.npy" % i))
        if len(got) != len(want):
            failures.append("result %d: %d values, expected %d" % (i, len(got), len(want)))
            continue
        ok, err = compare(got, want, elem)
        count += len(got)
        worst = max(worst, err)
        if not ok:
            failures.append("result %d (%s): got %s, expected %s" % (
                i, elem, [round(g, 7) if isinstance(g, float) else g for g in got[:12]],
                [round(w, 7) if isinstance(w, float) else w for w in want[:12]]))
    if len(chunks) != len(results):
        failures.append("printed %d results, expected %d" % (len(chunks), len(results)))
    return name, count, worst, failures


def main():
    path = sys.argv[1]
    keep = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--keep" else None
    with open(path) as f:
        cases = [c for c in re.split(r"^// -----\s*$", f.read(), flags=re.M)
                 if "func.func" in c]
    tmp = keep or tempfile.mkdtemp(prefix="dlc-numerics-")
    os.makedirs(tmp, exist_ok=True)
    failed = 0
    try:
        for text in cases:
            try:
                name, count, worst, failures = check_case(text, tmp)
            except RuntimeError as e:
                failed += 1
                print("FAIL %s" % e)
                continue
            if failures:
                failed += 1
                for f in failures:
                    print("FAIL %s: %s" % (name, f))
            else:
                print("OK %s: %d values, max error %.2f of the tolerance" % (name, count, worst))
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
