// dlc compile model.onnx: import, compile and run in one step; the outputs
// match ONNX's own reference implementation (onnx.reference is not in ONNX
// 1.12, so the expected values come from NumPy in make_onnx.py's terms).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %make-onnx mlp %t/mlp.onnx
// RUN: dlc compile %t/mlp.onnx -o %t/mlp.dlcm
// RUN: %onnx-python -c "import numpy as n; n.save('%t/x.npy', n.linspace(-1, 1, 32, dtype=n.float32).reshape(4, 8))"
// RUN: dlc run %t/mlp.dlcm --input=x=%t/x.npy --output-dir=%t/out | FileCheck %s
// CHECK: out
// RUN: %onnx-python -c "import onnx, numpy as n; from onnx import numpy_helper as h; m=onnx.load('%t/mlp.onnx'); w={i.name: h.to_array(i) for i in m.graph.initializer}; x=n.load('%t/x.npy'); y=n.maximum(x @ w['fc.weight'].T + w['fc.bias'], 0); assert n.allclose(n.load('%t/out/out.npy'), y, rtol=1e-5, atol=1e-6)"

// Pins match the ONNX node names.
// RUN: dlc compile %t/mlp.onnx --devices=cpu,cuda:0 --pin='/act/=cuda:0' --print-placement -o %t/pinned.dlcm 2>&1 | FileCheck %s --check-prefix=PIN
// PIN: cuda:0 pinned {{.*}} dlc.relu /act/Relu
