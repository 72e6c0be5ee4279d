"""Einsum node tests in Debian's layout, NumPy's einsum the reference: einsum_cases.py OUT."""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
rng = np.random.default_rng(7)
cases = [("ij,jk->ik", [(3,4),(4,5)]), ("bij,bjk->bik", [(2,3,4),(2,4,5)]), ("i,i", [(6,),(6,)]),
         ("ij->ji", [(3,4)]), ("ii->i", [(4,4)]), ("...ii->...i", [(2,3,3)]), ("bhqd,bhkd->bhqk", [(2,3,4,5),(2,3,6,5)]),
         ("bqhd,bkhd->bhqk", [(2,4,3,5),(2,6,3,5)]), ("ij,ij->", [(3,4),(3,4)]), ("abc,cd->abd", [(2,3,4),(4,5)]),
         ("ijk,jil->kl", [(3,4,5),(4,3,6)]), ("ab,bc,cd->ad", [(2,3),(3,4),(4,5)]), ("i,j->ij", [(3,),(4,)]),
         ("ba", [(3,4)]), ("...ij,...jk", [(2,3,4),(2,4,5)]), ("iij->j", [(3,3,4)]), ("ij,jk,kl", [(2,3),(3,4),(4,2)]),
         ("bn,anm,bm->ba", [(2,3),(4,3,5),(2,5)]), ("ii", [(5,5)]), ("ij->", [(3,4)]), ("abcd->dcba", [(2,3,4,5)])]
for n, (eq, shapes) in enumerate(cases):
    name = "test_einsum_gen_%02d" % n
    d = os.path.join(sys.argv[1], name); os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    y = np.einsum(eq, *xs).astype(np.float32)
    ins = ["x%d" % i for i in range(len(xs))]
    node = helper.make_node("Einsum", ins, ["y"], equation=eq)
    g = helper.make_graph([node], name, [helper.make_tensor_value_info(a, TensorProto.FLOAT, list(x.shape)) for a, x in zip(ins, xs)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]); m.ir_version = 8
    onnx.save(m, os.path.join(d, "model.onnx"))
    for i, x in enumerate(xs):
        open(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), "wb").write(numpy_helper.from_array(x, ins[i]).SerializeToString())
    open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb").write(numpy_helper.from_array(y, "y").SerializeToString())
