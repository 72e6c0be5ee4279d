// dlc-raise-onnx-patterns, run by dlc import: exporter decompositions back to
// layer_norm, gelu and linear, named after the module they came from.
// RUN: rm -rf %t && mkdir -p %t

// RUN: %make-onnx layernorm %t/ln.onnx
// RUN: dlc import %t/ln.onnx | FileCheck %s --check-prefix=LN
// LN: func.func @main(%[[X:[^:]*]]: tensor<2x5x16xf32>
// LN-NOT: dlc.reduce_mean
// LN: dlc.layer_norm %[[X]], %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99{{.*}}E-6 : f64} : (tensor<2x5x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x5x16xf32> loc([[LNLOC:#loc[0-9]*]])
// LN-NEXT: return
// LN: [[LNLOC]] = loc("/ln/LayerNormalization")
// --no-raise keeps the chain as exported.
// RUN: dlc import %t/ln.onnx --no-raise | FileCheck %s --check-prefix=LNCHAIN
// LNCHAIN: dlc.reduce_mean
// LNCHAIN: dlc.pow
// LNCHAIN: dlc.sqrt
// LNCHAIN-NOT: dlc.layer_norm

// RUN: %make-onnx gelu %t/gelu.onnx
// RUN: dlc import %t/gelu.onnx | FileCheck %s --check-prefix=GELU
// GELU: func.func @main(%[[X:[^:]*]]: tensor<4x8xf32>
// GELU-NEXT: %[[G:.*]] = dlc.gelu %[[X]] : tensor<4x8xf32> loc([[GLOC:#loc[0-9]*]])
// GELU-NEXT: return %[[G]]
// GELU: [[GLOC]] = loc("/act/Gelu")

// approximate='tanh': x * (tanh(sqrt(2/pi) (x + 0.044715 x^3)) + 1) * 0.5.
// RUN: %make-onnx gelu_tanh %t/gelu_tanh.onnx
// RUN: dlc import %t/gelu_tanh.onnx | FileCheck %s --check-prefix=GELUT
// GELUT: func.func @main(%[[X:[^:]*]]: tensor<4x8xf32>
// GELUT-NEXT: %[[G:.*]] = dlc.gelu %[[X]] {tanh_approximation = true} : tensor<4x8xf32>
// GELUT-NEXT: return %[[G]]
// RUN: dlc import %t/gelu_tanh.onnx --no-raise -o %t/gelu_tanh_chain.mlir
// RUN: dlc import %t/gelu_tanh.onnx -o %t/gelu_tanh_raised.mlir
// RUN: dlc interpret %t/gelu_tanh_chain.mlir --random-inputs --output-dir %t/gt_chain > /dev/null
// RUN: dlc interpret %t/gelu_tanh_raised.mlir --random-inputs --output-dir %t/gt_raised > /dev/null
// RUN: %onnx-python -c "import numpy as n; a=n.load('%t/gt_chain/y.npy'); b=n.load('%t/gt_raised/y.npy'); assert n.allclose(a, b, rtol=1e-5, atol=1e-6), abs(a-b).max()"

// RUN: %make-onnx linear %t/linear.onnx
// RUN: dlc import %t/linear.onnx | FileCheck %s --check-prefix=LIN
// LIN: %[[B:.*]] = dlc.constant dense<{{.*}}> : tensor<16xf32>
// LIN: %[[WT:.*]] = dlc.constant dense_resource<w_t.T> : tensor<16x8xf32>
// LIN: dlc.linear %{{.*}}, %[[WT]], %[[B]] : (tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<2x3x16xf32> loc([[LLOC:#loc[0-9]*]])
// LIN-NOT: dlc.matmul
// LIN: [[LLOC]] = loc("/fc/MatMul")

// The pass on its own, through dlc-opt, on IR as the importer writes it.
// RUN: dlc import %t/gelu.onnx --no-raise -o %t/gelu.mlir
// RUN: dlc-opt %t/gelu.mlir --pass-pipeline='builtin.module(func.func(dlc-raise-onnx-patterns))' | FileCheck %s --check-prefix=OPT
// OPT: dlc.gelu
// OPT-NOT: dlc.erf

// Raised and unraised models compute the same (reference interpreter).
// RUN: dlc import %t/ln.onnx --no-raise -o %t/ln_chain.mlir
// RUN: dlc import %t/ln.onnx -o %t/ln_raised.mlir
// RUN: dlc interpret %t/ln_chain.mlir --random-inputs --output-dir %t/chain > /dev/null
// RUN: dlc interpret %t/ln_raised.mlir --random-inputs --output-dir %t/raised > /dev/null
// RUN: %onnx-python -c "import numpy as n; a=n.load('%t/chain/y.npy'); b=n.load('%t/raised/y.npy'); assert n.allclose(a, b, rtol=1e-4, atol=1e-5), abs(a-b).max()"
