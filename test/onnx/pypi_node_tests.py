#!/usr/bin/env python3
"""Writes the node tests of PyPI's onnx wheel in the layout of Debian's
libonnx-testdata (OUT/<test>/model.onnx, test_data_set_N/{input,output}_M.pb),
for dlc-onnx-conformance. Newer wheels ship the test generators
(onnx/backend/test/case/node), not their data, so this runs them.

    pip install --target DIR onnx            # the wheel and its dependencies
    PYTHONPATH=DIR python3 test/onnx/pypi_node_tests.py OUT
    build/bin/dlc-onnx-conformance OUT --jobs=2 [--verbose]

Sequence, map and optional inputs are written as ONNX writes them; the
runner refuses those models anyway.
"""
import os
import shutil
import sys

import onnx
from onnx import numpy_helper
from onnx.backend.test.case import node


def proto_of(value, value_info):
    t = value_info.type
    if t.HasField("sequence_type"):
        return numpy_helper.from_list(value, value_info.name)
    if t.HasField("map_type"):
        return numpy_helper.from_dict(value, value_info.name)
    if t.HasField("optional_type"):
        return numpy_helper.from_optional(value, value_info.name)
    if isinstance(value, onnx.TensorProto):
        return value
    return numpy_helper.from_array(value, value_info.name)


def main(out):
    cases = node.collect_testcases()
    for case in cases:
        directory = os.path.join(out, case.name)
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        with open(os.path.join(directory, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        for i, (inputs, outputs) in enumerate(case.data_sets):
            data = os.path.join(directory, "test_data_set_%d" % i)
            os.makedirs(data)
            for kind, values, infos in (("input", inputs, case.model.graph.input),
                                        ("output", outputs, case.model.graph.output)):
                for j, value in enumerate(values):
                    with open(os.path.join(data, "%s_%d.pb" % (kind, j)), "wb") as f:
                        f.write(proto_of(value, infos[j]).SerializeToString())
    print("%d node tests of onnx %s in %s" % (len(cases), onnx.__version__, out))


if __name__ == "__main__":
    main(sys.argv[1])
