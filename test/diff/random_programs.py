"""Random dlc programs with random placements, for differential testing.

A program is a list of nodes over values; each value has a static shape and an
element type. The generator draws a DAG from every op kind the CPU path
supports (elementwise with broadcasts, compare/select, contractions,
convolutions and pooling, normalisations, reductions, views and data
movement, explicit copies), several outputs, then a placement: every op gets
a random device among cpu + the GPUs, and, where the op's values are all
f32 and nothing discontinuous (a compare, a float-to-int cast) reads it, a
random fp16 paint (`dlc.precision = "fp16"`).

`emit(program)` prints what dlc compiles; `emit(program, reference=True)`
prints the reference: the same program with no placement, each painted op
written out as what painting means (its float operands cast to f16, the op on
f16, its result cast back to f32), which the interpreter evaluates in f64
rounding every result to its type. The reference is therefore never IR the
compiler produced.
"""
import random

F32, F16, I1, I64 = "f32", "f16", "i1", "i64"
# The integer types a typed chain (gen_typed_chain) computes in; u64 and i64
# values stay below 2^53, where the interpreter's doubles are exact.
SIGNED = ["i8", "i16", "i32", "i64"]
UNSIGNED = ["ui8", "ui16", "ui32", "ui64"]
# Integer ops of a chain: the binary ones with a constant partner, the unary
# ones on the value itself (no neg or sub on ui64: 2^64 - x is not exact).
INT_BINARY = ["add", "sub", "mul", "max", "min", "div", "rem", "mod", "shift_left", "shift_right"]
INT_UNARY = ["neg", "abs", "relu", "sign", "clip"]

UNARY = ["neg", "abs", "exp", "tanh", "sigmoid", "erf", "relu", "gelu", "clip",
         "sin", "cos", "atan", "sinh", "cosh", "asinh"]
POSITIVE_UNARY = ["log", "sqrt", "rsqrt", "acosh"]  # on abs(x) + 1
# Defined (and well conditioned) on (-1, 1), or short of tan's poles: on
# clip(x, -0.9, 0.9).
BOUNDED_UNARY = ["asin", "acos", "atanh", "tan"]
# Results that jump (to the next integer, or the sign): never fed fp16
# (discontinuous_consumers) and never painted themselves.
STEP_UNARY = ["ceil", "floor", "round", "sign"]
# Remainders: jump at multiples of the divisor (kept away from 0 as for div).
REMAINDER = ["rem", "mod"]
# Printed with one type (`: T`); other one-operand ops print `: A -> B`.
ONE_TYPE = set(UNARY + POSITIVE_UNARY + BOUNDED_UNARY + STEP_UNARY + ["softmax"])
BINARY = ["add", "sub", "mul", "max", "min"]
COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]
# Op kinds whose fp16 paint the reference models (a result of the op's own
# type); the others stay f32.
PAINTABLE = set(UNARY + POSITIVE_UNARY + BOUNDED_UNARY + BINARY + ["div", "pow", "matmul", "linear",
                "conv2d", "max_pool2d", "avg_pool2d", "global_avg_pool", "softmax",
                "layer_norm", "reduce_sum", "reduce_mean", "reduce_max", "reduce_prod", "transpose",
                "reshape", "concat", "slice"])


def ttype(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [dtype])


class Node:
    def __init__(self, kind, operands, results, attrs="", text=None):
        self.kind = kind            # "add", "matmul", ...
        self.operands = operands    # value ids
        self.results = results      # value ids
        self.attrs = attrs          # the op's own attributes, "{...}" inner text
        self.text = text            # custom printer: fn(node, names, types) -> str
        self.device = None          # "cpu", "cuda:N"
        self.paint = False          # dlc.precision = "fp16"
        self.copy_to = None         # kind "copy": its destination


class Program:
    def __init__(self):
        self.values = []      # (shape, dtype)
        self.args = []        # value ids
        self.nodes = []
        self.outputs = []     # value ids
        self.constants = {}   # value id -> literal text
        self.devices = ["cpu"]

    def value(self, shape, dtype=F32):
        self.values.append((tuple(shape), dtype))
        return len(self.values) - 1

    def shape(self, v):
        return self.values[v][0]

    def dtype(self, v):
        return self.values[v][1]

    def producer(self):
        out = {}
        for n in self.nodes:
            for r in n.results:
                out[r] = n
        return out


class Generator:
    def __init__(self, seed, gpus=None, max_ops=None):
        self.r = random.Random(seed)
        self.p = Program()
        self.gpus = gpus if gpus is not None else self.r.randint(1, 4)
        self.max_ops = max_ops or self.r.randint(3, 10)

    # -- values ------------------------------------------------------------
    def rand_shape(self, rank=None):
        rank = rank if rank is not None else self.r.randint(1, 4)
        return tuple(self.r.randint(1, 7) for _ in range(rank))

    def new_arg(self, shape, dtype=F32):
        v = self.p.value(shape, dtype)
        self.p.args.append(v)
        return v

    def constant(self, shape, lo=-1.0, hi=1.0, dtype=F32):
        v = self.p.value(shape, dtype)
        n = 1
        for d in shape:
            n *= d
        if dtype == I64 or dtype in SIGNED + UNSIGNED:
            vals = [str(self.r.randint(int(lo), int(hi))) for _ in range(n)]
        else:
            vals = ["%.4f" % self.r.uniform(lo, hi) for _ in range(n)]
        self.p.constants[v] = "dense<%s> : %s" % (nested(vals, shape), ttype(shape, dtype))
        node = Node("constant", [], [v])
        self.p.nodes.append(node)
        return v

    def floats(self):
        return [v for v in range(len(self.p.values))
                if self.p.dtype(v) == F32 and v not in self.p.constants]

    def pick(self, rank=None, min_rank=1):
        pool = [v for v in self.floats()
                if (rank is None or len(self.p.shape(v)) == rank)
                and len(self.p.shape(v)) >= min_rank]
        if pool and self.r.random() < 0.85:
            # Prefer recent values: deeper programs.
            return pool[-1] if self.r.random() < 0.5 else self.r.choice(pool)
        shape = self.rand_shape(rank if rank is not None else
                                self.r.randint(max(min_rank, 1), 4))
        return self.new_arg(shape)

    def broadcast_partner(self, shape):
        """A value whose shape broadcasts against `shape`: an existing one of
        the same shape, or a new argument or constant with dims dropped or 1."""
        same = [v for v in self.floats() if self.p.shape(v) == shape]
        if same and self.r.random() < 0.4:
            return self.r.choice(same)
        drop = self.r.randint(0, len(shape))
        partner = tuple(1 if self.r.random() < 0.3 else d for d in shape[drop:])
        if self.r.random() < 0.3:
            return self.constant(partner)
        return self.new_arg(partner)

    def emit_node(self, kind, operands, result_shapes, attrs="", dtype=F32, text=None):
        results = [self.p.value(s, dtype) for s in result_shapes]
        self.p.nodes.append(Node(kind, operands, results, attrs, text))
        return results

    # -- ops -----------------------------------------------------------------
    def gen_unary(self):
        x = self.pick()
        kind = self.r.choice(UNARY)
        attrs = ""
        if kind == "clip":
            lo = self.r.uniform(-1, 0)
            attrs = "min = %.3f, max = %.3f" % (lo, lo + self.r.uniform(0.1, 2))
        return self.emit_node(kind, [x], [self.p.shape(x)], attrs)

    def positive(self, x):
        """abs(x) + 1: a value >= 1, for log, sqrt, rsqrt, div, pow."""
        a = self.emit_node("abs", [x], [self.p.shape(x)])[0]
        one = self.constant((), 1.0, 1.0)
        return self.emit_node("add", [a, one], [self.p.shape(x)])[0]

    def gen_positive_unary(self):
        x = self.positive(self.pick())
        return self.emit_node(self.r.choice(POSITIVE_UNARY), [x], [self.p.shape(x)])

    def gen_bounded_unary(self):
        x = self.pick()
        c = self.emit_node("clip", [x], [self.p.shape(x)], "min = -0.9, max = 0.9")[0]
        return self.emit_node(self.r.choice(BOUNDED_UNARY), [c], [self.p.shape(x)])

    def gen_step_unary(self):
        x = self.pick()
        return self.emit_node(self.r.choice(STEP_UNARY), [x], [self.p.shape(x)])

    def gen_binary(self):
        x = self.pick()
        y = self.broadcast_partner(self.p.shape(x))
        if self.r.random() < 0.5:
            x, y = y, x
        out = broadcast(self.p.shape(x), self.p.shape(y))
        kind = self.r.choice(BINARY + ["div", "pow"] + REMAINDER)
        if kind == "div":
            y = self.positive(y)
        if kind in REMAINDER:  # |y| >= 1 and |x| >= 1, either sign
            # A remainder jumps where x crosses 0 (and the multiples of y): a
            # dividend near 0 whose rounding differs (a matmul's order of
            # sums) flipped the result by y (seed 940251).
            x, y = self.positive(x), self.positive(y)
            if self.r.random() < 0.5:
                x = self.emit_node("neg", [x], [self.p.shape(x)])[0]
            if self.r.random() < 0.5:
                y = self.emit_node("neg", [y], [self.p.shape(y)])[0]
        if kind == "pow":
            x = self.positive(x)
            y = self.emit_node("clip", [y], [self.p.shape(y)], "min = -2.0, max = 2.0")[0]
        return self.emit_node(kind, [x, y], [out])

    def gen_compare_select(self):
        a = self.pick()
        b = self.broadcast_partner(self.p.shape(a))
        shape = broadcast(self.p.shape(a), self.p.shape(b))
        pred = self.r.choice(COMPARE)
        c = self.emit_node("compare", [a, b], [shape], dtype=I1,
                           text=lambda n, nm, ty: 'dlc.compare "%s", %s, %s : (%s, %s) -> %s' % (
                               pred, nm[n.operands[0]], nm[n.operands[1]], ty(n.operands[0]),
                               ty(n.operands[1]), ty(n.results[0])))[0]
        t = self.broadcast_partner(shape)
        f = self.pick() if self.r.random() < 0.5 else self.broadcast_partner(shape)
        if broadcast(shape, self.p.shape(f)) != shape or broadcast(shape, self.p.shape(t)) != shape:
            f = self.new_arg(shape)
        return self.emit_node("select", [c, t, f], [shape], text=lambda n, nm, ty: (
            "dlc.select %s : %s -> %s" % (", ".join(nm[o] for o in n.operands),
                                          ", ".join(ty(o) for o in n.operands), ty(n.results[0]))))

    def columns(self):
        """A matmul's N: mostly small; sometimes 10-40, whose last register
        tile is ragged in every way the CPU tiler splits (raggedSplit)."""
        return self.r.randint(1, 9) if self.r.random() < 0.8 else self.r.randint(10, 40)

    def gen_matmul(self):
        if self.r.random() < 0.5:
            a = self.pick(rank=2)
            m, k = self.p.shape(a)
            n = self.columns()
            b = self.constant((k, n)) if self.r.random() < 0.5 else self.new_arg((k, n))
            return self.emit_node("matmul", [a, b], [(m, n)])
        a = self.pick(rank=3)
        bs, m, k = self.p.shape(a)
        n = self.r.randint(1, 9)
        b = self.new_arg((bs, k, n)) if self.r.random() < 0.6 else self.new_arg((k, n))
        return self.emit_node("matmul", [a, b], [(bs, m, n)])

    def gen_linear(self):
        x = self.pick(min_rank=2)
        shape = self.p.shape(x)
        n = self.r.randint(1, 9)
        w = self.constant((n, shape[-1]))
        operands = [x, w]
        if self.r.random() < 0.6:
            operands.append(self.constant((n,)))
        return self.emit_node("linear", operands, [shape[:-1] + (n,)])

    def image(self):
        return self.pick(rank=4) if any(len(self.p.shape(v)) == 4 for v in self.floats()) \
            and self.r.random() < 0.7 else self.new_arg(
                (self.r.randint(1, 2), self.r.randint(1, 6), self.r.randint(3, 9), self.r.randint(3, 9)))

    def window(self, h, w):
        kh, kw = self.r.randint(1, min(3, h)), self.r.randint(1, min(3, w))
        s = self.r.randint(1, 2)
        pads = [self.r.randint(0, kh - 1), self.r.randint(0, kw - 1),
                self.r.randint(0, kh - 1), self.r.randint(0, kw - 1)]
        oh = (h + pads[0] + pads[2] - kh) // s + 1
        ow = (w + pads[1] + pads[3] - kw) // s + 1
        return kh, kw, s, pads, oh, ow

    def gen_conv(self):
        x = self.image()
        n, c, h, w = self.p.shape(x)
        kh, kw, s, pads, oh, ow = self.window(h, w)
        groups = c if c > 1 and self.r.random() < 0.3 else 1
        f = c if groups > 1 else self.r.randint(1, 8)
        wt = self.constant((f, c // groups, kh, kw), -0.5, 0.5)
        operands = [x, wt] + ([self.constant((f,))] if self.r.random() < 0.6 else [])
        attrs = "strides = array<i64: %d, %d>, pads = array<i64: %s>%s" % (
            s, s, ", ".join(map(str, pads)), ", groups = %d : i64" % groups if groups > 1 else "")
        return self.emit_node("conv2d", operands, [(n, f, oh, ow)], attrs)

    def gen_pool(self):
        x = self.image()
        n, c, h, w = self.p.shape(x)
        if self.r.random() < 0.25:
            return self.emit_node("global_avg_pool", [x], [(n, c, 1, 1)])
        kh, kw, s, pads, oh, ow = self.window(h, w)
        kind = self.r.choice(["max_pool2d", "avg_pool2d"])
        attrs = "kernel_shape = array<i64: %d, %d>, strides = array<i64: %d, %d>, pads = array<i64: %s>" % (
            kh, kw, s, s, ", ".join(map(str, pads)))
        return self.emit_node(kind, [x], [(n, c, oh, ow)], attrs)

    def gen_batch_norm(self):
        x = self.image()
        c = self.p.shape(x)[1]
        ops = [x, self.constant((c,)), self.constant((c,)), self.constant((c,)),
               self.constant((c,), 0.5, 2.0)]
        return self.emit_node("batch_norm", ops, [self.p.shape(x)])

    def gen_norm(self):
        x = self.pick()
        shape = self.p.shape(x)
        axis = self.r.randint(-len(shape), len(shape) - 1)
        if self.r.random() < 0.5:
            return self.emit_node("softmax", [x], [shape], "axis = %d : i64" % axis)
        axis = -1 if self.r.random() < 0.7 else axis
        norm = shape[axis:] if axis < 0 else shape[axis:]
        ops = [x, self.constant(norm), self.constant(norm)]
        return self.emit_node("layer_norm", ops, [shape], "axis = %d : i64" % axis)

    def gen_reduce(self):
        x = self.pick()
        shape = self.p.shape(x)
        axes = sorted(self.r.sample(range(len(shape)), self.r.randint(1, len(shape))))
        keep = self.r.random() < 0.4
        out = tuple(1 if i in axes else d for i, d in enumerate(shape)) if keep else \
            tuple(d for i, d in enumerate(shape) if i not in axes)
        kind = self.r.choice(["reduce_sum", "reduce_mean", "reduce_max", "reduce_prod"])
        if kind == "reduce_prod":  # factors within [-2, 2]: no overflow
            x = self.emit_node("clip", [x], [shape], "min = -2.0, max = 2.0")[0]
        attrs = "axes = array<i64: %s>%s" % (", ".join(map(str, axes)),
                                             ", keepdims = true" if keep else "")
        return self.emit_node(kind, [x], [out], attrs)

    def gen_view(self):
        """reshape (flatten, squeeze, unsqueeze): a view of its input's bytes."""
        x = self.pick()
        shape = self.p.shape(x)
        n = 1
        for d in shape:
            n *= d
        choice = self.r.random()
        if choice < 0.3:
            out = (n,)                                        # flatten
        elif choice < 0.55:
            i = self.r.randint(0, len(shape))
            out = shape[:i] + (1,) + shape[i:]                # unsqueeze
        elif choice < 0.75 and 1 in shape:
            i = shape.index(1)
            out = shape[:i] + shape[i + 1:]                   # squeeze
        else:
            out = factor(n, self.r)
        return self.emit_node("reshape", [x], [out], text=lambda nd, nm, ty: (
            "dlc.reshape %s : %s -> %s" % (nm[nd.operands[0]], ty(nd.operands[0]), ty(nd.results[0]))))

    def gen_transpose(self):
        x = self.pick(min_rank=2)
        perm = list(range(len(self.p.shape(x))))
        self.r.shuffle(perm)
        out = tuple(self.p.shape(x)[i] for i in perm)
        return self.emit_node("transpose", [x], [out], "perm = array<i64: %s>" % ", ".join(map(str, perm)))

    def gen_slice(self):
        x = self.pick()
        shape = self.p.shape(x)
        starts, ends, steps, out = [], [], [], []
        for d in shape:
            s = self.r.randint(0, d - 1)
            e = self.r.randint(s + 1, d)
            st = self.r.randint(1, 2)
            starts.append(s); ends.append(e); steps.append(st)
            out.append((e - s + st - 1) // st)
        attrs = "starts = array<i64: %s>, ends = array<i64: %s>, steps = array<i64: %s>" % (
            ", ".join(map(str, starts)), ", ".join(map(str, ends)), ", ".join(map(str, steps)))
        return self.emit_node("slice", [x], [tuple(out)], attrs)

    def gen_concat(self):
        x = self.pick()
        shape = self.p.shape(x)
        axis = self.r.randint(0, len(shape) - 1)
        others = [x]
        for _ in range(self.r.randint(1, 2)):
            s = list(shape)
            s[axis] = self.r.randint(1, 4)
            same = [v for v in self.floats() if self.p.shape(v) == tuple(s)]
            others.append(self.r.choice(same) if same and self.r.random() < 0.5 else self.new_arg(s))
        out = list(shape)
        out[axis] = sum(self.p.shape(v)[axis] for v in others)
        return self.emit_node("concat", others, [tuple(out)], "axis = %d : i64" % axis)

    def gen_split(self):
        x = self.pick()
        shape = self.p.shape(x)
        axes = [i for i, d in enumerate(shape) if d >= 2]
        if not axes:
            return self.gen_unary()
        axis = self.r.choice(axes)
        cut = self.r.randint(1, shape[axis] - 1)
        sizes = [cut, shape[axis] - cut]
        outs = []
        for s in sizes:
            o = list(shape)
            o[axis] = s
            outs.append(tuple(o))
        return self.emit_node("split", [x], outs, "axis = %d : i64, sizes = array<i64: %d, %d>" % (
            axis, sizes[0], sizes[1]), text=lambda n, nm, ty: (
            "dlc.split %s {axis = %d : i64, sizes = array<i64: %d, %d>} : %s -> %s" % (
                nm[n.operands[0]], axis, sizes[0], sizes[1], ty(n.operands[0]),
                ", ".join(ty(r) for r in n.results))))

    def gen_gather(self):
        x = self.pick()
        shape = self.p.shape(x)
        axis = self.r.randint(0, len(shape) - 1)
        k = self.r.randint(1, 4)
        idx = self.constant((k,), 0, shape[axis] - 1, dtype=I64)
        out = shape[:axis] + (k,) + shape[axis + 1:]
        return self.emit_node("gather", [x, idx], [out], "axis = %d : i64" % axis)

    def gen_gather_elements(self):
        x = self.pick()
        shape = self.p.shape(x)
        axis = self.r.randint(0, len(shape) - 1)
        out = tuple(self.r.randint(1, d) for d in shape)
        out = out[:axis] + (self.r.randint(1, 4),) + out[axis + 1:]
        idx = self.constant(out, -shape[axis], shape[axis] - 1, dtype=I64)
        return self.emit_node("gather_elements", [x, idx], [out], "axis = %d : i64" % axis)

    def gen_scatter_elements(self):
        """Updates (a value or a constant) combined into x along an axis:
        every reduction, duplicates and negative indices, and sometimes an
        index of size 1 on a dimension (broadcast, as ScatterND's rows)."""
        x = self.pick()
        shape = self.p.shape(x)
        axis = self.r.randint(0, len(shape) - 1)
        upd = [self.r.randint(1, d) for d in shape]
        upd[axis] = self.r.randint(1, 6)
        upd = tuple(upd)
        idx_shape = tuple(1 if self.r.random() < 0.25 else d for d in upd)
        idx = self.constant(idx_shape, -shape[axis], shape[axis] - 1, dtype=I64)
        same = [v for v in self.floats() if self.p.shape(v) == upd and v != x]
        u = self.r.choice(same) if same and self.r.random() < 0.6 else self.constant(upd)
        reduction = self.r.choice(["none", "add", "mul", "max", "min"])
        return self.emit_node("scatter_elements", [x, idx, u], [shape],
                              'axis = %d : i64, reduction = "%s"' % (axis, reduction))

    def gen_top_k(self):
        """top_k of a new input (exact on every device, so the order is the
        reference's), half the time through relu for ties among zeros; the
        indices cast to f32 so that they are compared too."""
        shape = self.rand_shape()
        x = self.new_arg(shape)
        if self.r.random() < 0.5:
            x = self.emit_node("relu", [x], [shape])[0]
        axis = self.r.randint(0, len(shape) - 1)
        k = self.r.randint(1, shape[axis])
        largest = self.r.random() < 0.6
        out = shape[:axis] + (k,) + shape[axis + 1:]
        values, indices = self.p.value(out), self.p.value(out, I64)
        attrs = "axis = %d : i64, k = %d : i64, largest = %s" % (axis, k, "true" if largest else "false")
        self.p.nodes.append(Node("top_k", [x], [values, indices], attrs, lambda n, nm, ty: (
            "dlc.top_k %s {%s} : %s -> %s, %s" % (nm[n.operands[0]], attrs, ty(n.operands[0]),
                                                  ty(n.results[0]), ty(n.results[1])))))
        return self.emit_node("cast", [indices], [out], text=lambda n, nm, ty: (
            "dlc.cast %s : %s -> %s" % (nm[n.operands[0]], ty(n.operands[0]), ty(n.results[0]))))

    def gen_cast(self):
        """f32 -> f16 -> f32 (a rounding), or f32 -> i32 -> f32 of a clipped value."""
        x = self.pick()
        shape = self.p.shape(x)
        mid = self.r.choice([F16, "i32"])
        src = x
        if mid == "i32":
            src = self.emit_node("clip", [x], [shape], "min = -3.0, max = 3.0")[0]
        cast_text = lambda n, nm, ty: "dlc.cast %s : %s -> %s" % (
            nm[n.operands[0]], ty(n.operands[0]), ty(n.results[0]))
        m = self.emit_node("cast", [src], [shape], dtype=mid, text=cast_text)[0]
        return self.emit_node("cast", [m], [shape], text=cast_text)

    def gen_typed_chain(self):
        """x cast into f64 or an integer type (scaled by 40 first, and made
        nonnegative for the unsigned ones), one to three ops there, cast back:
        the element types beyond f32, on random devices like the rest."""
        x = self.pick()
        shape = self.p.shape(x)
        cast_text = lambda n, nm, ty: "dlc.cast %s : %s -> %s" % (
            nm[n.operands[0]], ty(n.operands[0]), ty(n.results[0]))
        dtype = self.r.choice(["f64"] + SIGNED + UNSIGNED)
        if dtype != "f64":
            if dtype in UNSIGNED:
                x = self.emit_node("abs", [x], [shape])[0]
            x = self.emit_node("mul", [x, self.constant((), 40.0, 40.0)], [shape])[0]
        v = self.emit_node("cast", [x], [shape], dtype=dtype, text=cast_text)[0]
        for _ in range(self.r.randint(1, 3)):
            v = self.typed_op(v, self.p.dtype(v))
        return self.emit_node("cast", [v], [shape], text=cast_text)

    def typed_op(self, v, dtype):
        shape = self.p.shape(v)
        if dtype == "f64":
            kind = self.r.choice(["add", "mul", "max", "exp", "tanh", "neg"])
            if kind in ("exp", "tanh", "neg"):
                return self.emit_node(kind, [v], [shape], dtype=dtype)[0]
            c = self.constant(shape[-1:], -1.0, 1.0, dtype=dtype)
            return self.emit_node(kind, [v, c], [shape], dtype=dtype)[0]
        if self.r.random() < 0.2:  # to another integer type (wraps or extends)
            to = self.r.choice(SIGNED + UNSIGNED)
            if to == "ui64" and dtype in SIGNED:
                v = self.emit_node("abs", [v], [shape], dtype=dtype)[0]
            return self.emit_node("cast", [v], [shape], dtype=to, text=lambda n, nm, ty: (
                "dlc.cast %s : %s -> %s" % (nm[n.operands[0]], ty(n.operands[0]),
                                            ty(n.results[0]))))[0]
        unary = [k for k in INT_UNARY if not (dtype == "ui64" and k == "neg")]
        if self.r.random() < 0.4:
            kind = self.r.choice(unary)
            attrs = ""
            if kind == "clip":
                lo = self.r.randint(-20, 10)
                attrs = "min = %d.0, max = %d.0" % (lo, lo + self.r.randint(0, 30))
            return self.emit_node(kind, [v], [shape], attrs, dtype=dtype)[0]
        kinds = [k for k in INT_BINARY if not (dtype == "ui64" and k == "sub")]
        kind = self.r.choice(kinds)
        if kind in ("shift_left", "shift_right"):  # amounts past the width and negative too
            bits = int(dtype.lstrip("ui"))
            c = self.constant(shape[-1:], 0 if dtype in UNSIGNED else -2, bits + 2, dtype=dtype)
        elif kind in ("div", "rem", "mod"):  # a divisor of either sign, never 0
            lo, hi = (1, 7) if dtype in UNSIGNED else (-7, -1)
            c = self.constant(shape[-1:], lo, hi, dtype=dtype)
            if dtype in SIGNED and self.r.random() < 0.5:
                c = self.emit_node("abs", [c], [shape[-1:]], dtype=dtype)[0]
        else:
            c = self.constant(shape[-1:], 0 if dtype in UNSIGNED else -9, 9, dtype=dtype)
        if self.r.random() < 0.5 and kind in ("add", "mul", "max", "min"):
            return self.emit_node(kind, [c, v], [shape], dtype=dtype)[0]
        return self.emit_node(kind, [v, c], [shape], dtype=dtype)[0]

    def gen_copy(self):
        """An explicit copy to a random device (the user's own dlc.copy)."""
        x = self.pick()
        results = self.emit_node("copy", [x], [self.p.shape(x)])
        self.p.nodes[-1].copy_to = self.r.choice(self.p.devices)
        return results

    GENERATORS = [("unary", 4), ("positive_unary", 1), ("bounded_unary", 1), ("step_unary", 1),
                  ("binary", 5), ("compare_select", 1),
                  ("matmul", 2), ("linear", 2), ("conv", 2), ("pool", 1), ("batch_norm", 1),
                  ("norm", 2), ("reduce", 2), ("view", 4), ("transpose", 2), ("slice", 2),
                  ("concat", 1), ("split", 1), ("gather", 1), ("gather_elements", 1),
                  ("scatter_elements", 1), ("top_k", 1), ("cast", 1), ("typed_chain", 2), ("copy", 1)]

    # -- whole programs ------------------------------------------------------
    def program(self):
        p = self.p
        p.devices = ["cpu"] + ["cuda:%d" % i for i in range(self.gpus)]
        self.new_arg(self.rand_shape())
        names = [g for g, w in self.GENERATORS for _ in range(w)]
        while sum(1 for n in p.nodes if n.kind != "constant") < self.max_ops:
            getattr(self, "gen_" + self.r.choice(names))()
        self.choose_outputs()
        self.place()
        return p

    def choose_outputs(self):
        p = self.p
        used = {o for n in p.nodes for o in n.operands}
        computed = [r for n in p.nodes if n.kind != "constant" for r in n.results
                    if p.dtype(r) in (F32, F16)]
        sinks = [v for v in computed if v not in used]
        extra = [v for v in computed if v not in sinks and self.r.random() < 0.2]
        p.outputs = [v for v in sinks + extra if p.dtype(v) == F32] or [computed[-1]]

    def place(self):
        p = self.p
        below = discontinuous_consumers(p)
        for n in p.nodes:
            if n.kind == "copy":
                continue
            if n.kind == "constant":
                if self.r.random() < 0.1:
                    n.device = self.r.choice(p.devices)
                continue
            n.device = self.r.choice(p.devices)
            if (n.device != "cpu" and n.kind in PAINTABLE and self.r.random() < 0.3
                    and all(p.dtype(v) == F32 for v in n.results)
                    and all(p.dtype(v) in (F32, I64) for v in n.operands)
                    and not any(r in below for r in n.results)):
                n.paint = True


def broadcast(a, b):
    """The broadcast of shapes a and b, or None where they do not broadcast."""
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    if any(x != y and x != 1 and y != 1 for x, y in zip(a, b)):
        return None
    return tuple(max(x, y) for x, y in zip(a, b))


def factor(n, r):
    dims = []
    while n > 1 and len(dims) < 3:
        ds = [d for d in range(2, n + 1) if n % d == 0]
        d = r.choice(ds)
        dims.append(d)
        n //= d
    if n > 1:
        dims.append(n)
    return tuple(dims) or (1,)


def discontinuous_consumers(p):
    """Values read, directly or not, by an op whose result jumps (a compare, a
    float-to-int cast): fp16 there could flip it, which no tolerance covers."""
    prod = p.producer()
    seeds = [o for n in p.nodes if n.kind == "compare" or n.kind in STEP_UNARY + REMAINDER or
             (n.kind == "cast" and p.dtype(n.results[0]) not in (F32, F16, "f64"))
             for o in n.operands]
    seen = set()
    while seeds:
        v = seeds.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in prod:
            seeds.extend(prod[v].operands)
    return seen


def traced_values(p):
    """The f32 values (inputs, constants, op results) that are not outputs: the reference returns
    them (trace outputs, named trace<value id>) so that a comparison can scale
    by the largest value an output was computed from."""
    made = set(p.args)
    for n in p.nodes:
        made.update(n.results)
    return [v for v in sorted(made) if p.dtype(v) == F32 and v not in p.outputs]


def cone(p, v):
    """`v` and every value it was computed from."""
    producer = {r: n for n in p.nodes for r in n.results}
    seen, stack = set(), [v]
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x in producer:
            stack.extend(producer[x].operands)
    return seen


def emit(p, reference=False, entry="main", trace=False):
    """The program as MLIR text: placed (pins, paint) or as the reference.
    With `trace` the reference also returns traced_values(p)."""
    names = {}
    for i, v in enumerate(p.args):
        names[v] = "%%a%d" % i
    ty = lambda v: ttype(p.shape(v), p.dtype(v))
    lines = []
    tmp = [0]

    def fresh():
        tmp[0] += 1
        return "%%t%d" % tmp[0]

    for index, n in enumerate(p.nodes):
        for j, r in enumerate(n.results):
            names[r] = "%%v%d" % r
        if n.kind == "constant":
            pin = "" if reference or n.device is None else \
                " {device = #dlc.device<%s>}" % n.device
            lines.append("%s = dlc.constant %s%s" % (names[n.results[0]], p.constants[n.results[0]], pin))
            continue
        if n.kind == "copy":
            dest = "cpu" if reference else n.copy_to
            lines.append("%s = dlc.copy %s to %s : %s loc(\"op%d\")" % (
                names[n.results[0]], names[n.operands[0]], dest, ty(n.operands[0]), index))
            continue
        local = dict(names)
        local_ty = ty
        if reference and n.paint:
            # What painting means: f16 operands, an f16 op, an f32 result.
            f16 = {}
            for o in n.operands:
                if p.dtype(o) == F32 and o not in f16:
                    t = fresh()
                    lines.append("%s = dlc.cast %s : %s -> %s" % (t, names[o], ty(o),
                                                                ttype(p.shape(o), F16)))
                    f16[o] = t
            local.update(f16)
            wide = {r: fresh() for r in n.results}
            local.update(wide)
            local_ty = lambda v: ttype(p.shape(v), F16) if (v in f16 or v in wide) else ty(v)
        text = op_text(n, local, local_ty)
        attrs = []
        if not reference:
            attrs.append("device = #dlc.device<%s>" % n.device)
            if n.paint:
                attrs.append('dlc.precision = "fp16"')
        if attrs:
            text = insert_attrs(text, ", ".join(attrs))
        results = ", ".join(local[r] for r in n.results)
        lines.append("%s = %s loc(\"op%d\")" % (results, text, index))
        if reference and n.paint:
            for r in n.results:
                lines.append("%s = dlc.cast %s : %s -> %s" % (names[r], local[r],
                                                            ttype(p.shape(r), F16), ty(r)))
    args = ", ".join("%s: %s {dlc.name = \"in%d\"}" % (names[v], ty(v), i)
                     for i, v in enumerate(p.args))
    returned = [(v, "out%d" % i) for i, v in enumerate(p.outputs)]
    if reference and trace:
        returned += [(v, "trace%d" % v) for v in traced_values(p)]
    results = ", ".join("%s {dlc.name = \"%s\"}" % (ty(v), name) for v, name in returned)
    body = "\n".join("  " + l for l in lines)
    ret = "  return %s : %s" % (", ".join(names[v] for v, _ in returned),
                                ", ".join(ty(v) for v, _ in returned))
    return "func.func @%s(%s) -> (%s) {\n%s\n%s\n}\n" % (entry, args, results, body, ret)


def op_text(n, names, ty):
    if n.text:
        return n.text(n, names, ty)
    operands = ", ".join(names[o] for o in n.operands)
    attrs = " {%s}" % n.attrs if n.attrs else ""
    if len(n.operands) == 1 and len(n.results) == 1:
        a, b = ty(n.operands[0]), ty(n.results[0])
        types = a if n.kind in ONE_TYPE else "%s -> %s" % (a, b)
    else:
        types = "(%s) -> %s" % (", ".join(ty(o) for o in n.operands),
                                ", ".join(ty(r) for r in n.results))
    return "dlc.%s %s%s : %s" % (n.kind, operands, attrs, types)


def insert_attrs(text, attrs):
    """Adds attributes to an op's text: into its {...}, else before its ' : '."""
    open_at = text.find(" {")
    if open_at >= 0:
        depth = 0
        for i in range(open_at + 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                return text[:i] + ", " + attrs + text[i:]
    head, sep, tail = text.partition(" : ")
    return head + " {" + attrs + "}" + sep + tail


def nested(vals, shape):
    """A dense literal's text: [[a, b], [c, d]] for shape (2, 2)."""
    if not shape:
        return vals[0]
    step = len(vals) // shape[0]
    return "[%s]" % ", ".join(nested(vals[i * step:(i + 1) * step], shape[1:])
                              for i in range(shape[0]))


def coverage(p):
    """What one program exercises, for the coverage table."""
    prod = p.producer()
    kinds = {n.kind for n in p.nodes if n.kind != "constant"}
    cross_view = any(n.kind in ("reshape", "slice") and n.operands[0] in prod
                     and prod[n.operands[0]].device not in (None, n.device)
                     for n in p.nodes)
    readers = {}
    for n in p.nodes:
        for o in n.operands:
            dev = n.copy_to if n.kind == "copy" else n.device
            readers.setdefault(o, set()).add(dev)
    multi = any(len(d) > 1 for d in readers.values())
    return kinds, cross_view, multi, any(n.paint for n in p.nodes)


def element_types(p):
    """The element types ops compute, each with where: 'ui8 cpu', 'f64 gpu'."""
    return {"%s %s" % (p.dtype(r), "cpu" if n.device in (None, "cpu") else "gpu")
            for n in p.nodes if n.kind not in ("constant", "copy") for r in n.results}


if __name__ == "__main__":
    import sys
    prog = Generator(int(sys.argv[1])).program()
    print(emit(prog, reference=len(sys.argv) > 2))
