"""Writes self-attention over a symbolic sequence of bound T tokens (d 8, 2
heads) for test/e2e/symbolic_sequence.mlir:

    sequence_attention.py T [--bidirectional] [--mean] [--seed=S]

The weights are seeded and do not depend on T, so the model written for
T = n is the bound's model at a run of n tokens (the reference). Causal by
default (GPT-2's lower-triangular mask, a constant whose dims 0 and 1 have
the sequence's extent: at n tokens it is mask[:n, :n]); --bidirectional
leaves the mask out (every token reads every other: a run of n tokens is
no prefix of the bound's); --mean adds a mean over the sequence (refused).
--seed=S draws the model's width (2 to 48), heads (1 to 4), mask, the
keys' layout (K transposed before or as the product reads it), the scores'
scale and a GELU MLP after the block from S (test/e2e/symbolic_sequence.mlir
runs several seeds at random sizes): models nobody wrote by hand.
"""
import random
import sys
seed = next((int(a.split("=")[1]) for a in sys.argv if a.startswith("--seed=")), None)
rng = random.Random(11 if seed is None else seed)
T, D, H = int(sys.argv[1]), 8, 2
causal = "--bidirectional" not in sys.argv
mean = "--mean" in sys.argv
keys_first, mlp, scale = False, False, 0.5
if seed is not None:
    H = rng.choice([1, 2, 4])
    D = H * rng.choice([2, 4, 8, 12])
    causal = rng.random() < 0.5
    keys_first = rng.random() < 0.5
    mlp = rng.random() < 0.5
    scale = rng.choice([0.25, 0.5, 1.0])
dh = D // H
def mat(r, c, s=0.5):
    return "[" + ",\n ".join("[" + ", ".join("%.3f" % rng.uniform(-s, s) for _ in range(c)) + "]" for _ in range(r)) + "]"
def vec(n, s=0.1):
    return "[" + ", ".join("%.3f" % rng.uniform(-s, s) for _ in range(n)) + "]"
mask = "[" + ", ".join("[" + ", ".join("true" if j <= i else "false" for j in range(T)) + "]" for i in range(T)) + "]"
t = lambda *s: "tensor<" + "x".join(str(d) for d in s) + "xf32>"
L = []
L.append('func.func @main(%%x: %s {dlc.name = "x"}) -> (%s {dlc.name = "y"}) attributes {dlc.symbolic_batch = "seq"} {' % (t(T, D), t(T, D)))
for n in "qkvo":
    L.append("  %%w%s = dlc.constant dense<%s> : %s" % (n, mat(D, D), t(D, D)))
    L.append("  %%b%s = dlc.constant dense<%s> : %s" % (n, vec(D), t(D)))
if causal:
  L.append("  %%mask = dlc.constant dense<%s> : tensor<%dx%dxi1> {dlc.symbol_dims = array<i64: 0, 1>}" % (mask, T, T))
L.append("  %%scale = dlc.constant dense<%s> : tensor<f32>" % scale)
if mlp:
    L.append("  %%w1 = dlc.constant dense<%s> : %s" % (mat(2 * D, D), t(2 * D, D)))
    L.append("  %%w2 = dlc.constant dense<%s> : %s" % (mat(D, 2 * D), t(D, 2 * D)))
L.append("  %ninf = dlc.constant dense<0xFF800000> : tensor<f32>")
for n in "qkv":
    L.append("  %%%s = dlc.linear %%x, %%w%s, %%b%s : (%s, %s, %s) -> %s" % (n, n, n, t(T, D), t(D, D), t(D), t(T, D)))
    L.append("  %%%s4 = dlc.reshape %%%s : %s -> %s" % (n, n, t(T, D), t(T, H, dh)))
L.append("  %%qh = dlc.transpose %%q4 {perm = array<i64: 1, 0, 2>} : %s -> %s" % (t(T, H, dh), t(H, T, dh)))
if keys_first:
    # K as [H, T, dh], transposed by the product's operand.
    L.append("  %%kt = dlc.transpose %%k4 {perm = array<i64: 1, 0, 2>} : %s -> %s" % (t(T, H, dh), t(H, T, dh)))
    L.append("  %%kh = dlc.transpose %%kt {perm = array<i64: 0, 2, 1>} : %s -> %s" % (t(H, T, dh), t(H, dh, T)))
else:
    L.append("  %%kh = dlc.transpose %%k4 {perm = array<i64: 1, 2, 0>} : %s -> %s" % (t(T, H, dh), t(H, dh, T)))
L.append("  %%vh = dlc.transpose %%v4 {perm = array<i64: 1, 0, 2>} : %s -> %s" % (t(T, H, dh), t(H, T, dh)))
L.append("  %%s = dlc.matmul %%qh, %%kh : (%s, %s) -> %s" % (t(H, T, dh), t(H, dh, T), t(H, T, T)))
L.append("  %%s2 = dlc.mul %%s, %%scale : (%s, tensor<f32>) -> %s" % (t(H, T, T), t(H, T, T)))
if causal:
  L.append("  %%s3 = dlc.select %%mask, %%s2, %%ninf : tensor<%dx%dxi1>, %s, tensor<f32> -> %s" % (T, T, t(H, T, T), t(H, T, T)))
else:
  L.append("  %%s3 = dlc.add %%s2, %%s2 : %s" % t(H, T, T))
L.append("  %%p = dlc.softmax %%s3 {axis = -1 : i64} : %s" % t(H, T, T))
L.append("  %%o = dlc.matmul %%p, %%vh : (%s, %s) -> %s" % (t(H, T, T), t(H, T, dh), t(H, T, dh)))
L.append("  %%ot = dlc.transpose %%o {perm = array<i64: 1, 0, 2>} : %s -> %s" % (t(H, T, dh), t(T, H, dh)))
L.append("  %%o2 = dlc.reshape %%ot : %s -> %s" % (t(T, H, dh), t(T, D)))
L.append("  %%proj = dlc.linear %%o2, %%wo, %%bo : (%s, %s, %s) -> %s" % (t(T, D), t(D, D), t(D), t(T, D)))
L.append("  %%y0 = dlc.add %%x, %%proj : %s" % t(T, D))
if mean:
  L.append("  %%m = dlc.reduce_mean %%y0 {axes = array<i64: 0>, keepdims = true} : %s -> %s" % (t(T, D), t(1, D)))
  L.append("  %%y = dlc.sub %%y0, %%m : (%s, %s) -> %s" % (t(T, D), t(1, D), t(T, D)))
elif mlp:
  L.append("  %%h1 = dlc.linear %%y0, %%w1 : (%s, %s) -> %s" % (t(T, D), t(2 * D, D), t(T, 2 * D)))
  L.append("  %%h2 = dlc.gelu %%h1 : %s" % t(T, 2 * D))
  L.append("  %%h3 = dlc.linear %%h2, %%w2 : (%s, %s) -> %s" % (t(T, 2 * D), t(D, 2 * D), t(T, D)))
  L.append("  %%y = dlc.add %%y0, %%h3 : %s" % t(T, D))
else:
  L.append("  %%y = dlc.add %%y0, %%y0 : %s" % t(T, D))
L.append("  return %%y : %s" % t(T, D))
L.append("}")
print("// Generated by test/e2e/Inputs/sequence_attention.py %s" % " ".join(sys.argv[1:]))
print("\n".join(L))
