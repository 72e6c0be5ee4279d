"""Minimal .npy reading and writing for the tests, without NumPy (the tests'
Python may not have it). Little-endian f8, f4, f2, the integers, b1; C order."""
import ast
import math
import struct

_FORMATS = {"<f4": "f", "<f2": "e", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?", "<u2": "H",
            "|i1": "b", "|u1": "B", "<i2": "h", "<u4": "I", "<u8": "Q"}


def write(path, values, shape, descr="<f4"):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), _FORMATS[descr]), *values))


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "not an npy file: " + path
    (hlen,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + hlen].decode())
    shape = list(header["shape"])
    count = math.prod(shape)
    fmt = _FORMATS[header["descr"]]
    values = struct.unpack_from("<%d%s" % (count, fmt), data, 10 + hlen)
    return header["descr"], shape, list(values)
