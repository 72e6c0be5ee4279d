// Painting of the example models, every op on cuda:0 (policy gpu).
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu},func.func(dlc-mixed-precision{precision=mixed}))' 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: dlc-opt %models/encoder.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu},func.func(dlc-mixed-precision{precision=mixed}))' 2>&1 | FileCheck %s --check-prefix=ENC
// RUN: dlc-opt %models/cnn.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu},func.func(dlc-mixed-precision{precision=mixed}))' 2>&1 | FileCheck %s --check-prefix=CNN
// Overrides: gelu denied keeps the MLP's activations f32; softmax allowed
// paints it too (nothing is left in fp32, the output is cast on the CPU).
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu},func.func(dlc-mixed-precision{precision=mixed fp16-deny=gelu}))' 2>&1 | FileCheck %s --check-prefix=DENY
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu},func.func(dlc-mixed-precision{precision=mixed fp16-allow=softmax}))' 2>&1 | FileCheck %s --check-prefix=ALLOW

// MLP: converted 5 of 6 ops using 2 casts
// MLP: %[[X:.*]] = dlc.cast %arg0 {device = #dlc.device<cpu>, dlc.order = 0 : i64, dlc.reason = "cast"} : tensor<32x784xf32> -> tensor<32x784xf16>
// MLP: dlc.constant dense_resource<fc1.weight.f16> : tensor<1024x784xf16>
// MLP: dlc.linear %[[X]], {{.*}}accumulator = f32{{.*}} -> tensor<32x1024xf16>
// MLP-NEXT: dlc.gelu {{.*}} : tensor<32x1024xf16>
// MLP: dlc.linear {{.*}} -> tensor<32x1024xf16>
// MLP-NEXT: dlc.gelu {{.*}} : tensor<32x1024xf16>
// MLP: dlc.linear {{.*}} -> tensor<32x10xf16>
// MLP-NEXT: dlc.cast {{.*}}dlc.order = 6 : i64{{.*}} : tensor<32x10xf16> -> tensor<32x10xf32>
// MLP-NEXT: dlc.softmax {{.*}}dlc.order = 7 : i64{{.*}} : tensor<32x10xf32>

// Encoder: the layer norms, the residual adds and the softmax with the scale
// before it stay f32; the projections, the attention matmuls and the
// reshapes/transposes between them are f16, the GELU between the MLP's
// linears too.
// ENC: converted 16 of 22 ops using 6 casts
// ENC: dlc.layer_norm {{.*}} -> tensor<2x128x256xf32>
// ENC-NEXT: dlc.cast {{.*}} : tensor<2x128x256xf32> -> tensor<2x128x256xf16>
// ENC: dlc.linear {{.*}} -> tensor<2x128x768xf16>
// ENC-NEXT: dlc.split {{.*}} -> tensor<2x128x256xf16>, tensor<2x128x256xf16>, tensor<2x128x256xf16>
// ENC: dlc.transpose {{.*}} -> tensor<2x4x64x128xf16>
// ENC: dlc.matmul {{.*}} -> tensor<2x4x128x128xf16>
// ENC-NEXT: dlc.cast {{.*}} : tensor<2x4x128x128xf16> -> tensor<2x4x128x128xf32>
// ENC: dlc.mul {{.*}} -> tensor<2x4x128x128xf32>
// ENC-NEXT: dlc.softmax {{.*}} : tensor<2x4x128x128xf32>
// ENC-NEXT: dlc.cast {{.*}} : tensor<2x4x128x128xf32> -> tensor<2x4x128x128xf16>
// ENC-NEXT: dlc.matmul {{.*}} -> tensor<2x4x128x64xf16>
// ENC: dlc.linear {{.*}} -> tensor<2x128x256xf16>
// ENC-NEXT: dlc.cast {{.*}} : tensor<2x128x256xf16> -> tensor<2x128x256xf32>
// ENC-NEXT: dlc.add %arg0, {{.*}} : tensor<2x128x256xf32>
// ENC: dlc.linear {{.*}} -> tensor<2x128x1024xf16>
// ENC-NEXT: dlc.gelu {{.*}} : tensor<2x128x1024xf16>
// ENC: dlc.linear {{.*}} -> tensor<2x128x256xf16>
// ENC-NEXT: dlc.cast
// ENC-NEXT: dlc.add {{.*}} : tensor<2x128x256xf32>

// Residual CNN block: convolutions f16, batch norms f32 (deny); the relu
// between a batch norm and the next convolution joins the convolution, the
// stem's relu (read by the residual add, denied after a batch norm) and the
// add stay f32; relu and pooling after the add are f16 again up to the next
// convolution.
// CNN: converted 11 of 20 ops using 12 casts
// CNN: dlc.conv2d {{.*}}accumulator = f32{{.*}} -> tensor<4x16x32x32xf16>
// CNN-NEXT: dlc.cast {{.*}} : tensor<4x16x32x32xf16> -> tensor<4x16x32x32xf32>
// CNN: dlc.batch_norm {{.*}} -> tensor<4x16x32x32xf32>
// CNN-NEXT: %[[STEM:.*]] = dlc.relu {{.*}} : tensor<4x16x32x32xf32>
// CNN-NEXT: dlc.cast %[[STEM]] {{.*}} -> tensor<4x16x32x32xf16>
// CNN: dlc.batch_norm {{.*}} -> tensor<4x16x32x32xf32>
// CNN-NEXT: dlc.cast {{.*}} : tensor<4x16x32x32xf32> -> tensor<4x16x32x32xf16>
// CNN-NEXT: dlc.relu {{.*}} : tensor<4x16x32x32xf16>
// CNN: dlc.batch_norm {{.*}} -> tensor<4x16x32x32xf32>
// CNN-NEXT: dlc.add {{.*}}, %[[STEM]] {{.*}} : tensor<4x16x32x32xf32>
// CNN-NEXT: dlc.cast {{.*}} -> tensor<4x16x32x32xf16>
// CNN-NEXT: dlc.relu {{.*}} : tensor<4x16x32x32xf16>
// CNN-NEXT: dlc.max_pool2d {{.*}} -> tensor<4x16x16x16xf16>

// DENY: converted 3 of 6 ops using 6 casts
// DENY: dlc.linear {{.*}} -> tensor<32x1024xf16>
// DENY-NEXT: dlc.cast
// DENY-NEXT: dlc.gelu {{.*}} : tensor<32x1024xf32>

// ALLOW: converted 6 of 6 ops using 2 casts
// ALLOW: dlc.softmax {{.*}} : tensor<32x10xf16>
// ALLOW-NEXT: dlc.cast {{.*}}device = #dlc.device<cpu>{{.*}} : tensor<32x10xf16> -> tensor<32x10xf32>
