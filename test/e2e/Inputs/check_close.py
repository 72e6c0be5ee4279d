"""Prints "close" when two .npy files hold the same shape and values within
1e-5 relative L2 error (the same model run by two variants or machines),
else exits 1 naming the error.

    check_close.py A.npy B.npy
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy

_, ashape, a = npy.read(sys.argv[1])
_, bshape, b = npy.read(sys.argv[2])
if ashape != bshape:
    sys.exit("shapes differ: %s and %s" % (ashape, bshape))
num = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
den = math.sqrt(sum(y * y for y in b)) or 1.0
if not num / den <= 1e-5:
    sys.exit("relative L2 error %.3g > 1e-5" % (num / den))
print("close")
