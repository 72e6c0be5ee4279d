"""GatherND node tests in Debian's layout, the ONNX specification's reference
implementation (in NumPy) as the expected output: gathernd_cases.py OUT.
Negative indices, batch_dims 0 to 2, tuples addressing 1 to all dimensions."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def gather_nd(data, indices, batch_dims):
    """The reference from ONNX's GatherND documentation."""
    batch_dims_shape = list(indices.shape[:batch_dims])
    batch_dims_size = int(np.prod(batch_dims_shape))
    output_shape = batch_dims_shape + list(indices.shape)[batch_dims:-1] \
        if indices.shape[-1] == data.ndim - batch_dims else \
        batch_dims_shape + list(indices.shape)[batch_dims:-1] + list(data.shape)[batch_dims + indices.shape[-1]:]
    output_data_buffer = []
    reshaped_indices = indices.reshape(batch_dims_size, -1, indices.shape[-1])
    reshaped_data = data.reshape((batch_dims_size,) + data.shape[batch_dims:])
    for batch_dim in range(reshaped_indices.shape[0]):
        for outer_dim in range(reshaped_indices.shape[1]):
            gather_index = tuple(reshaped_indices[batch_dim][outer_dim])
            output_data_buffer.append(reshaped_data[(batch_dim, *gather_index)])
    return np.asarray(output_data_buffer, dtype=data.dtype).reshape(output_shape)


rng = np.random.default_rng(11)
cases = [((4, 5, 6), (3, 2), 0), ((4, 5, 6), (2, 3, 1), 0), ((4, 5, 6), (7, 3), 0),
         ((2, 5, 6), (2, 4, 1), 1), ((2, 3, 5, 4), (2, 3, 2, 2), 2), ((3, 4), (3, 1), 1)]
for n, (dshape, ishape, b) in enumerate(cases):
    name = "test_gathernd_gen_%02d" % n
    d = os.path.join(sys.argv[1], name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    data = rng.standard_normal(dshape).astype(np.float32)
    k = ishape[-1]
    dims = np.array(dshape[b:b + k])
    idx = rng.integers(-dims, dims, size=ishape).astype(np.int64)
    y = gather_nd(data, np.where(idx < 0, idx + dims, idx), b)
    node = helper.make_node("GatherND", ["data", "indices"], ["y"], batch_dims=b)
    g = helper.make_graph([node], name, [helper.make_tensor_value_info("data", TensorProto.FLOAT, list(dshape)),
                                         helper.make_tensor_value_info("indices", TensorProto.INT64, list(ishape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, os.path.join(d, "model.onnx"))
    for i, (a, nm) in enumerate([(data, "data"), (idx, "indices")]):
        with open(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, nm).SerializeToString())
    with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "y").SerializeToString())
