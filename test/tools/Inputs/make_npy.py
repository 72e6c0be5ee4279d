"""Writes a .npy file by hand (the test Python has no numpy).

    make_npy.py OUT DESCR SHAPE [--fortran] [--drop N] [--extra N]
                [--magic BYTES] [--version MAJOR] [--header TEXT]

DESCR is a dtype such as '<f4', SHAPE is comma-separated ('2,3'; '' for a
scalar). The data are 0, 1, 2, ... in that dtype. The options damage the file:
--drop N removes the last N data bytes, --extra N appends N zero bytes,
--magic replaces the 6-byte magic, --version sets the format's major version,
--header replaces the header dictionary text.
"""
import argparse
import struct

FORMATS = {"<f4": "<f", "<f2": "<e", "<f8": "<d", "<i4": "<i", "<i8": "<q",
           "|b1": "<?", "|u1": "<B", "<u2": "<H", ">f4": ">f"}

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("descr")
parser.add_argument("shape")
parser.add_argument("--fortran", action="store_true")
parser.add_argument("--drop", type=int, default=0)
parser.add_argument("--extra", type=int, default=0)
parser.add_argument("--magic")
parser.add_argument("--version", type=int, default=1)
parser.add_argument("--header")
args = parser.parse_args()

shape = [int(d) for d in args.shape.split(",") if d]
count = 1
for d in shape:
    count *= d
fmt = FORMATS[args.descr]
data = b"".join(struct.pack(fmt, i % 2 == 1 if fmt == "<?" else i)
                for i in range(count))
data = data[:len(data) - args.drop] + b"\0" * args.extra

shape_text = "(" + "".join("%d, " % d for d in shape).rstrip(" ") + ")"
if len(shape) > 1:
    shape_text = shape_text.replace(",)", ")")
header = args.header if args.header is not None else (
    "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }"
    % (args.descr, "True" if args.fortran else "False", shape_text))
header = header.encode("latin1")
# Pad with spaces and end with a newline so that the data start 64-aligned.
len_bytes = 2 if args.version == 1 else 4
total = 6 + 2 + len_bytes + len(header) + 1
header += b" " * (-total % 64) + b"\n"
magic = args.magic.encode("latin1") if args.magic is not None else b"\x93NUMPY"
prefix = magic + bytes([args.version, 0])
prefix += struct.pack("<H" if len_bytes == 2 else "<I", len(header))
with open(args.out, "wb") as f:
    f.write(prefix + header + data)
