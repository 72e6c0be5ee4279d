// Contractions, convolutions, pooling, normalisation, softmax and reductions
// compiled to native code against the reference interpreter (ragged shapes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s matmul %t
// RUN: %check-e2e %s matmul_batched %t
// RUN: %check-e2e %s matmul_batched_ragged %t
// RUN: %check-e2e %s matmul_f16 %t
// RUN: %check-e2e %s matmul_blocked %t --cpu=znver3
// RUN: %check-e2e %s matmul_blocked %t/blocked_2 --cpu=znver3 --threads=2
// RUN: %check-e2e %s matmul_blocked %t/blocked_native
// RUN: %check-e2e %s linear %t
// RUN: %check-e2e %s linear_ragged_columns %t --cpu=znver3
// RUN: %check-e2e %s linear_ragged_columns %t/ragged_2 --cpu=znver3 --threads=2
// RUN: %check-e2e %s linear_no_bias_gelu %t
// RUN: %check-e2e %s linear_padded_panels %t/padded_panels --cpu=znver3
// RUN: %check-e2e %s conv %t
// RUN: %check-e2e %s conv_grouped %t
// RUN: %check-e2e %s conv_shifted %t
// RUN: %check-e2e %S/Inputs/conv_pixel_rows.mlir main %t/pixel_rows
// RUN: %check-e2e %S/Inputs/conv_pixel_rows.mlir main %t/pixel_rows_2 --threads=2
// RUN: %check-e2e %S/Inputs/conv_pixel_tiling.mlir main %t/pixel_tiling --cpu=znver3
// RUN: %check-e2e %S/Inputs/conv_pixel_major.mlir main %t/pixel_major --cpu=znver3
// RUN: %check-e2e %S/Inputs/conv_pixel_major.mlir main %t/pixel_major_2 --cpu=znver3 --threads=2
// RUN: %check-e2e %S/Inputs/conv_pixel_tiling.mlir main %t/pixel_tiling_2 --cpu=znver3 --threads=2
// RUN: %check-e2e %S/Inputs/conv_pixel_edges.mlir main %t/pixel_edges --cpu=znver3
// RUN: %check-e2e %S/Inputs/conv_chain.mlir main %t/conv_chain
// RUN: %check-e2e %S/Inputs/conv_chain.mlir main %t/conv_chain_2 --threads=2
// RUN: %check-e2e %s conv_depthwise %t
// RUN: %check-e2e %s conv_epilogues %t
// RUN: %check-e2e %s pools %t
// RUN: %check-e2e %s norms %t
// RUN: %check-e2e %s norms_pools_f64 %t
// RUN: %check-e2e %s softmax %t
// RUN: %check-e2e %s reductions %t
// RUN: %check-e2e %s row_max_negative %t
// RUN: %check-e2e %s attention_scores %t
// RUN: %check-e2e %s attention_scores %t/attention_2 --threads=2
// RUN: %check-e2e %s attention_heads %t
// RUN: %check-e2e %s attention_heads %t/heads_2 --threads=2
// RUN: %check-e2e %s transposed_batch_operands %t

func.func @matmul(%a: tensor<33x67xf32>, %b: tensor<67x45xf32>) -> tensor<33x45xf32> {
  %0 = dlc.matmul %a, %b : (tensor<33x67xf32>, tensor<67x45xf32>) -> tensor<33x45xf32>
  return %0 : tensor<33x45xf32>
}

func.func @matmul_batched(%a: tensor<2x3x9x5xf32>, %b: tensor<3x5x7xf32>) -> tensor<2x3x9x7xf32> {
  %0 = dlc.matmul %a, %b : (tensor<2x3x9x5xf32>, tensor<3x5x7xf32>) -> tensor<2x3x9x7xf32>
  return %0 : tensor<2x3x9x7xf32>
}

// Every tile static and vectorised: 5 and 21 rows (a ragged row of tiles
// after none or two full ones), 40 columns (a ragged 8-wide column), with an
// epilogue on each tile of each batch element's matrix.
func.func @matmul_batched_ragged(%a: tensor<2x3x5x16xf32>, %b: tensor<2x3x16x40xf32>, %c: tensor<3x21x16xf32>, %d: tensor<3x16x40xf32>, %bias: tensor<40xf32>)
    -> (tensor<2x3x5x40xf32>, tensor<3x21x40xf32>) {
  %0 = dlc.matmul %a, %b : (tensor<2x3x5x16xf32>, tensor<2x3x16x40xf32>) -> tensor<2x3x5x40xf32>
  %1 = dlc.add %0, %bias : (tensor<2x3x5x40xf32>, tensor<40xf32>) -> tensor<2x3x5x40xf32>
  %2 = dlc.matmul %c, %d : (tensor<3x21x16xf32>, tensor<3x16x40xf32>) -> tensor<3x21x40xf32>
  %3 = dlc.relu %2 : tensor<3x21x40xf32>
  return %1, %3 : tensor<2x3x5x40xf32>, tensor<3x21x40xf32>
}

// A short K and many rows take TileAndVectorize's blocked panels: for Zen 3
// (blocks of 128 KiB of B: 256 columns), two blocks and 88 columns left over,
// 16 rows of 6x16 tiles and 4 rows left over, the residual add and ReLU on
// each tile.
func.func @matmul_blocked(%a: tensor<100x128xf32>, %b: tensor<128x600xf32>, %r: tensor<100x600xf32>) -> tensor<100x600xf32> {
  %0 = dlc.matmul %a, %b : (tensor<100x128xf32>, tensor<128x600xf32>) -> tensor<100x600xf32>
  %1 = dlc.add %0, %r : tensor<100x600xf32>
  %2 = dlc.relu %1 : tensor<100x600xf32>
  return %2 : tensor<100x600xf32>
}

func.func @matmul_f16(%a: tensor<7x40xf16>, %b: tensor<40x9xf16>) -> tensor<7x9xf16> {
  %0 = dlc.matmul %a, %b : (tensor<7x40xf16>, tensor<40x9xf16>) -> tensor<7x9xf16>
  return %0 : tensor<7x9xf16>
}

func.func @linear(%x: tensor<2x5x30xf32>, %w: tensor<17x30xf32>, %b: tensor<17xf32>) -> tensor<2x5x17xf32> {
  %0 = dlc.linear %x, %w, %b : (tensor<2x5x30xf32>, tensor<17x30xf32>, tensor<17xf32>) -> tensor<2x5x17xf32>
  return %0 : tensor<2x5x17xf32>
}

// 26 and 10 columns: with AVX2's 6x16 tiles, a ragged last column of
// tiles 10 wide, split into 8 + 2 (TileAndVectorize.cpp, raggedSplit),
// with the bias and ReLU on each part.
func.func @linear_ragged_columns(%x: tensor<20x300xf32>, %w: tensor<300x26xf32>, %b: tensor<26xf32>, %w2: tensor<26x10xf32>) -> tensor<20x10xf32> {
  %0 = dlc.matmul %x, %w : (tensor<20x300xf32>, tensor<300x26xf32>) -> tensor<20x26xf32>
  %1 = dlc.add %0, %b : (tensor<20x26xf32>, tensor<26xf32>) -> tensor<20x26xf32>
  %2 = dlc.relu %1 : tensor<20x26xf32>
  %3 = dlc.matmul %2, %w2 : (tensor<20x26xf32>, tensor<26x10xf32>) -> tensor<20x10xf32>
  return %3 : tensor<20x10xf32>
}

// A constant-weight linear with 40 outputs: stored in 16-column panels
// (AVX2) with the last one padded by 8 zero columns, the product's padding
// sliced off (LinearToMatmul.cpp); batches of 3 and 1.
func.func @linear_padded_panels(%x: tensor<3x6xf32>, %x1: tensor<1x6xf32>) -> (tensor<3x40xf32>, tensor<1x40xf32>) {
  %w = dlc.constant dense<[[-0.455, -0.697, -0.427, 0.127, -0.091, 0.155], [0.305, -0.164, -0.292, 0.468, 0.648, -0.796], [-0.252, 0.778, 0.502, -0.536, -0.213, -0.867], [0.607, 0.962, -0.899, -0.885, 0.557, 0.348], [-0.127, -0.306, -0.643, 0.954, -0.414, -0.637], [0.212, 0.297, -0.373, -0.011, 0.231, -0.366], [0.271, 0.813, 0.740, -0.481, -0.763, 0.043], [0.884, 0.288, 0.015, 0.470, 0.216, -0.578], [-0.870, 0.556, 0.944, 0.713, 0.553, -0.583], [-0.456, -0.825, 0.431, -0.849, 0.408, 0.647], [0.331, 0.937, -0.774, 0.007, 0.180, 0.360], [0.789, 0.951, -0.906, 0.374, 0.890, -0.735], [-0.715, -0.630, -0.979, 0.533, -0.780, 0.756], [-0.441, 0.216, -0.761, -0.486, 0.101, -0.965], [-0.196, 0.157, 0.677, -0.393, -0.423, -0.484], [0.489, -0.743, -0.499, 0.819, -0.115, 0.961], [0.091, 0.476, 0.257, -0.663, 0.103, 0.016], [-0.462, -0.360, -0.214, 0.620, -0.010, 0.686], [0.883, 0.673, -0.017, -0.353, 0.595, -0.211], [0.430, -0.340, -0.326, -0.269, -0.417, 0.177], [-0.161, -0.321, 0.875, 0.998, 0.710, 0.266], [-0.514, -0.072, -0.564, -0.162, 0.332, 0.993], [-0.790, -0.643, -0.846, -0.851, -0.137, -0.597], [-0.590, 0.428, 0.714, -0.301, 0.632, -0.549], [0.870, 0.597, 0.971, -0.745, -0.832, 0.976], [-0.425, -0.641, 0.934, -0.032, -0.471, -0.978], [-0.239, 0.974, -0.984, -0.386, -0.522, -0.618], [-0.603, -0.947, 0.514, 0.449, -0.103, 0.231], [-0.173, 0.765, -0.415, 0.381, 0.608, -0.254], [0.336, -0.695, 0.918, 0.596, -0.548, -0.576], [-0.523, -0.836, -0.346, -0.438, -0.234, 0.149], [-0.900, -0.582, 0.644, -0.926, -0.853, 0.664], [0.669, -0.517, 0.524, -0.408, 0.300, -0.214], [-0.390, -0.734, -0.826, -0.810, -0.489, 0.102], [0.648, -0.834, -0.390, 0.822, 0.786, -0.122], [0.290, 0.711, -0.016, 0.006, 0.510, -0.867], [0.425, -0.577, 0.926, -0.786, -0.465, -0.864], [0.241, -0.341, 0.646, -0.046, -0.527, -0.379], [-0.956, 0.295, -0.172, 0.569, 0.591, 0.598], [0.869, 0.088, -0.894, 0.748, 0.661, -0.450]]> : tensor<40x6xf32>
  %b = dlc.constant dense<[-0.296, -0.026, 0.587, 0.595, 0.256, -0.350, 0.519, 0.356, 0.192, 0.431, -0.968, 0.373, 0.800, 0.168, 0.346, -0.882, 0.235, 0.043, 0.690, -0.911, -0.593, -0.655, -0.230, 0.394, -0.052, 0.350, 0.026, -0.228, 0.441, -0.283, -0.621, 0.979, 0.092, -0.147, 0.133, -0.507, 0.047, 0.682, -0.254, -0.545]> : tensor<40xf32>
  %0 = dlc.linear %x, %w, %b : (tensor<3x6xf32>, tensor<40x6xf32>, tensor<40xf32>) -> tensor<3x40xf32>
  %1 = dlc.linear %x1, %w, %b : (tensor<1x6xf32>, tensor<40x6xf32>, tensor<40xf32>) -> tensor<1x40xf32>
  return %0, %1 : tensor<3x40xf32>, tensor<1x40xf32>
}

func.func @linear_no_bias_gelu(%x: tensor<9x31xf32>, %w: tensor<12x31xf32>) -> tensor<9x12xf32> {
  %0 = dlc.linear %x, %w : (tensor<9x31xf32>, tensor<12x31xf32>) -> tensor<9x12xf32>
  %1 = dlc.gelu %0 : tensor<9x12xf32>
  return %1 : tensor<9x12xf32>
}

func.func @conv(%x: tensor<2x3x11x13xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x6xf32> {
  %0 = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>}
      : (tensor<2x3x11x13xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x5x6xf32>
  %1 = dlc.relu %0 : tensor<2x5x5x6xf32>
  return %1 : tensor<2x5x5x6xf32>
}

// Stride-1 convolutions with 16+ channels and 8k filters take ConvToMatmul's
// shifted-matmul path (no im2col): 3x3 padded (one zero row added under the
// image) with bias and ReLU, 3x5 with asymmetric pads, 2x2 unpadded (a pad of
// extra rows only), 5x5 on a 7-wide image (two extra rows), over 2 images.
func.func @conv_shifted(%x: tensor<2x16x9x7xf32>, %w: tensor<8x16x3x3xf32>, %w35: tensor<16x16x3x5xf32>, %w22: tensor<8x16x2x2xf32>, %w55: tensor<8x16x5x5xf32>, %b: tensor<8xf32>) -> (tensor<2x8x9x7xf32>, tensor<2x16x8x7xf32>, tensor<2x8x8x6xf32>, tensor<2x8x7x5xf32>) {
  %c = dlc.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x16x9x7xf32>, tensor<8x16x3x3xf32>, tensor<8xf32>) -> tensor<2x8x9x7xf32>
  %0 = dlc.relu %c : tensor<2x8x9x7xf32>
  %1 = dlc.conv2d %x, %w35 {pads = array<i64: 0, 2, 1, 2>} : (tensor<2x16x9x7xf32>, tensor<16x16x3x5xf32>) -> tensor<2x16x8x7xf32>
  %2 = dlc.conv2d %x, %w22 : (tensor<2x16x9x7xf32>, tensor<8x16x2x2xf32>) -> tensor<2x8x8x6xf32>
  %3 = dlc.conv2d %x, %w55 {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x16x9x7xf32>, tensor<8x16x5x5xf32>) -> tensor<2x8x7x5xf32>
  return %0, %1, %2, %3 : tensor<2x8x9x7xf32>, tensor<2x16x8x7xf32>, tensor<2x8x8x6xf32>, tensor<2x8x7x5xf32>
}

// Epilogues that run on the convolution's tiles: a 1x1 convolution (a
// matmul on the image) with bias, a residual add and ReLU6; a strided 3x3
// one with ReLU.
func.func @conv_epilogues(%x: tensor<2x16x4x8xf32>, %w: tensor<24x16x1x1xf32>, %b: tensor<24xf32>, %r: tensor<2x24x4x8xf32>, %w3: tensor<8x16x3x3xf32>) -> (tensor<2x24x4x8xf32>, tensor<2x8x2x4xf32>) {
  %c = dlc.conv2d %x, %w, %b : (tensor<2x16x4x8xf32>, tensor<24x16x1x1xf32>, tensor<24xf32>) -> tensor<2x24x4x8xf32>
  %s = dlc.add %c, %r : (tensor<2x24x4x8xf32>, tensor<2x24x4x8xf32>) -> tensor<2x24x4x8xf32>
  %0 = dlc.clip %s {min = 0.0, max = 6.0} : tensor<2x24x4x8xf32>
  %c3 = dlc.conv2d %x, %w3 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x16x4x8xf32>, tensor<8x16x3x3xf32>) -> tensor<2x8x2x4xf32>
  %1 = dlc.relu %c3 : tensor<2x8x2x4xf32>
  return %0, %1 : tensor<2x24x4x8xf32>, tensor<2x8x2x4xf32>
}

// Depthwise convolutions (MobileNet's): stride 1 with bias and ReLU6 (which
// fuse into the tap loop), stride 2 on an odd size, a dilated 5x5 without
// padding, and an f16 one (f32 sums, rounded once).
func.func @conv_depthwise(%x: tensor<2x6x9x11xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6xf32>, %w5: tensor<6x1x5x5xf32>, %h: tensor<1x6x9x11xf16>, %wh: tensor<6x1x3x3xf16>) -> (tensor<2x6x9x11xf32>, tensor<2x6x5x6xf32>, tensor<2x6x1x3xf32>, tensor<1x6x9x11xf16>) {
  %c = dlc.conv2d %x, %w, %b {groups = 6 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x6x9x11xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<2x6x9x11xf32>
  %0 = dlc.clip %c {min = 0.0, max = 6.0} : tensor<2x6x9x11xf32>
  %1 = dlc.conv2d %x, %w {groups = 6 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x6x9x11xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x5x6xf32>
  %2 = dlc.conv2d %x, %w5 {groups = 6 : i64, dilations = array<i64: 2, 2>} : (tensor<2x6x9x11xf32>, tensor<6x1x5x5xf32>) -> tensor<2x6x1x3xf32>
  %3 = dlc.conv2d %h, %wh {groups = 6 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x9x11xf16>, tensor<6x1x3x3xf16>) -> tensor<1x6x9x11xf16>
  return %0, %1, %2, %3 : tensor<2x6x9x11xf32>, tensor<2x6x5x6xf32>, tensor<2x6x1x3xf32>, tensor<1x6x9x11xf16>
}

func.func @conv_grouped(%x: tensor<1x6x9x9xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x5x5xf32> {
  %0 = dlc.conv2d %x, %w {groups = 3 : i64, dilations = array<i64: 2, 2>}
      : (tensor<1x6x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x5xf32>
  return %0 : tensor<1x6x5x5xf32>
}

func.func @pools(%x: tensor<2x3x9x10xf32>) -> (tensor<2x3x5x5xf32>, tensor<2x3x5x5xf32>, tensor<2x3x9x10xf32>, tensor<2x3x1x1xf32>) {
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>}
      : tensor<2x3x9x10xf32> -> tensor<2x3x5x5xf32>
  %1 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>}
      : tensor<2x3x9x10xf32> -> tensor<2x3x5x5xf32>
  %2 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true}
      : tensor<2x3x9x10xf32> -> tensor<2x3x9x10xf32>
  %3 = dlc.global_avg_pool %x : tensor<2x3x9x10xf32> -> tensor<2x3x1x1xf32>
  return %0, %1, %2, %3 : tensor<2x3x5x5xf32>, tensor<2x3x5x5xf32>, tensor<2x3x9x10xf32>, tensor<2x3x1x1xf32>
}

func.func @norms(%x: tensor<2x3x5x7xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>,
                 %v: tensor<3xf32>, %lg: tensor<5x7xf32>, %lb: tensor<5x7xf32>) -> (tensor<2x3x5x7xf32>, tensor<2x3x5x7xf32>) {
  %av = dlc.abs %v : tensor<3xf32>
  %0 = dlc.batch_norm %x, %g, %b, %m, %av {epsilon = 1.0e-3 : f64}
      : (tensor<2x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5x7xf32>
  %1 = dlc.layer_norm %x, %lg, %lb {axis = 2 : i64} : (tensor<2x3x5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<2x3x5x7xf32>
  return %0, %1 : tensor<2x3x5x7xf32>, tensor<2x3x5x7xf32>
}

// f64 normalisations, softmax and pools compute in f64 (they assumed f32
// accumulators: ONNX's flexattention test in double failed to compile).
func.func @norms_pools_f64(%x: tensor<2x3x5x7xf64>, %g: tensor<3xf64>, %b: tensor<3xf64>, %m: tensor<3xf64>,
                           %v: tensor<3xf64>, %lg: tensor<5x7xf64>, %lb: tensor<5x7xf64>)
    -> (tensor<2x3x5x7xf64>, tensor<2x3x5x7xf64>, tensor<2x3x5x7xf64>, tensor<2x3x3x4xf64>, tensor<2x3x1x1xf64>, tensor<2x3x3x4xf64>) {
  %av = dlc.abs %v : tensor<3xf64>
  %0 = dlc.batch_norm %x, %g, %b, %m, %av {epsilon = 1.0e-3 : f64}
      : (tensor<2x3x5x7xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x5x7xf64>
  %1 = dlc.layer_norm %x, %lg, %lb {axis = 2 : i64} : (tensor<2x3x5x7xf64>, tensor<5x7xf64>, tensor<5x7xf64>) -> tensor<2x3x5x7xf64>
  %2 = dlc.softmax %x {axis = 3 : i64} : tensor<2x3x5x7xf64>
  %3 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>}
      : tensor<2x3x5x7xf64> -> tensor<2x3x3x4xf64>
  %4 = dlc.global_avg_pool %x : tensor<2x3x5x7xf64> -> tensor<2x3x1x1xf64>
  %5 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>}
      : tensor<2x3x5x7xf64> -> tensor<2x3x3x4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x5x7xf64>, tensor<2x3x5x7xf64>, tensor<2x3x5x7xf64>, tensor<2x3x3x4xf64>, tensor<2x3x1x1xf64>, tensor<2x3x3x4xf64>
}

func.func @softmax(%x: tensor<3x11x5xf32>) -> (tensor<3x11x5xf32>, tensor<3x11x5xf32>) {
  %0 = dlc.softmax %x {axis = 1 : i64} : tensor<3x11x5xf32>
  %1 = dlc.softmax %x : tensor<3x11x5xf32>
  return %0, %1 : tensor<3x11x5xf32>, tensor<3x11x5xf32>
}

// Attention's scores: the scaling, a mask and a per-head bias run on each
// batched matmul's tile (ReuseProducerBuffer moves them into the batch
// loops); 19 rows and 40 keys leave ragged tiles; a per-(batch, head) scale of
// size-1 dims stays a pass of its own.
func.func @attention_scores(%q: tensor<2x3x19x16xf32>, %k: tensor<2x3x16x40xf32>, %v: tensor<2x3x40x8xf32>,
                            %mask: tensor<19x40xf32>, %bias: tensor<3x19x40xf32>, %hs: tensor<2x3x1x1xf32>)
    -> (tensor<2x3x19x8xf32>, tensor<2x3x19x40xf32>) {
  %s = dlc.matmul %q, %k : (tensor<2x3x19x16xf32>, tensor<2x3x16x40xf32>) -> tensor<2x3x19x40xf32>
  %c = dlc.constant dense<0.25> : tensor<f32>
  %m = dlc.mul %s, %c : (tensor<2x3x19x40xf32>, tensor<f32>) -> tensor<2x3x19x40xf32>
  %a = dlc.add %m, %mask : (tensor<2x3x19x40xf32>, tensor<19x40xf32>) -> tensor<2x3x19x40xf32>
  %b = dlc.add %a, %bias : (tensor<2x3x19x40xf32>, tensor<3x19x40xf32>) -> tensor<2x3x19x40xf32>
  %p = dlc.softmax %b : tensor<2x3x19x40xf32>
  %o = dlc.matmul %p, %v : (tensor<2x3x19x40xf32>, tensor<2x3x40x8xf32>) -> tensor<2x3x19x8xf32>
  %s2 = dlc.matmul %q, %k : (tensor<2x3x19x16xf32>, tensor<2x3x16x40xf32>) -> tensor<2x3x19x40xf32>
  %h = dlc.mul %s2, %hs : (tensor<2x3x19x40xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x19x40xf32>
  return %o, %h : tensor<2x3x19x8xf32>, tensor<2x3x19x40xf32>
}

// Multi-head attention as PyTorch exports it, 19 tokens, 3 heads of 8: the
// batched matmuls read Q and V through their head transposes and write P.V
// in the merged layout (PartitionKernels, LowerContractions,
// ReuseProducerBuffer); Kᵀ moves the last dim and stays a transpose; a head
// transpose with a second use is computed.
func.func @attention_heads(%qkv: tensor<2x19x72xf32>) -> (tensor<2x19x24xf32>, tensor<2x3x19x8xf32>) {
  %q, %k, %v = dlc.split %qkv {axis = 2 : i64, sizes = array<i64: 24, 24, 24>} : tensor<2x19x72xf32> -> tensor<2x19x24xf32>, tensor<2x19x24xf32>, tensor<2x19x24xf32>
  %qh = dlc.reshape %q : tensor<2x19x24xf32> -> tensor<2x19x3x8xf32>
  %kh = dlc.reshape %k : tensor<2x19x24xf32> -> tensor<2x19x3x8xf32>
  %vh = dlc.reshape %v : tensor<2x19x24xf32> -> tensor<2x19x3x8xf32>
  %qt = dlc.transpose %qh {perm = array<i64: 0, 2, 1, 3>} : tensor<2x19x3x8xf32> -> tensor<2x3x19x8xf32>
  %kt = dlc.transpose %kh {perm = array<i64: 0, 2, 3, 1>} : tensor<2x19x3x8xf32> -> tensor<2x3x8x19xf32>
  %vt = dlc.transpose %vh {perm = array<i64: 0, 2, 1, 3>} : tensor<2x19x3x8xf32> -> tensor<2x3x19x8xf32>
  %s = dlc.matmul %qt, %kt : (tensor<2x3x19x8xf32>, tensor<2x3x8x19xf32>) -> tensor<2x3x19x19xf32>
  %c = dlc.constant dense<0.35> : tensor<f32>
  %m = dlc.mul %s, %c : (tensor<2x3x19x19xf32>, tensor<f32>) -> tensor<2x3x19x19xf32>
  %p = dlc.softmax %m : tensor<2x3x19x19xf32>
  %o = dlc.matmul %p, %vt : (tensor<2x3x19x19xf32>, tensor<2x3x19x8xf32>) -> tensor<2x3x19x8xf32>
  %ot = dlc.transpose %o {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x19x8xf32> -> tensor<2x19x3x8xf32>
  %y = dlc.reshape %ot : tensor<2x19x3x8xf32> -> tensor<2x19x24xf32>
  %shared = dlc.transpose %qh {perm = array<i64: 0, 2, 1, 3>} : tensor<2x19x3x8xf32> -> tensor<2x3x19x8xf32>
  %o2 = dlc.matmul %p, %shared : (tensor<2x3x19x19xf32>, tensor<2x3x19x8xf32>) -> tensor<2x3x19x8xf32>
  %z = dlc.add %o2, %shared : (tensor<2x3x19x8xf32>, tensor<2x3x19x8xf32>) -> tensor<2x3x19x8xf32>
  return %y, %z : tensor<2x19x24xf32>, tensor<2x3x19x8xf32>
}

// Transposes keeping the last dim around batched matmuls, other shapes: the
// batch dims swapped, a 3-D operand broadcast over a 4-D batch, a 2-D one, and
// the result's batch dims swapped back.
func.func @transposed_batch_operands(%a: tensor<3x2x9x5xf32>, %b: tensor<5x3x7xf32>, %c: tensor<9x2x5xf32>, %d: tensor<5x7xf32>)
    -> (tensor<3x2x9x7xf32>, tensor<9x2x7xf32>) {
  %at = dlc.transpose %a {perm = array<i64: 1, 0, 2, 3>} : tensor<3x2x9x5xf32> -> tensor<2x3x9x5xf32>
  %bt = dlc.transpose %b {perm = array<i64: 1, 0, 2>} : tensor<5x3x7xf32> -> tensor<3x5x7xf32>
  %0 = dlc.matmul %at, %bt : (tensor<2x3x9x5xf32>, tensor<3x5x7xf32>) -> tensor<2x3x9x7xf32>
  %r0 = dlc.transpose %0 {perm = array<i64: 1, 0, 2, 3>} : tensor<2x3x9x7xf32> -> tensor<3x2x9x7xf32>
  %ct = dlc.transpose %c {perm = array<i64: 1, 0, 2>} : tensor<9x2x5xf32> -> tensor<2x9x5xf32>
  %1 = dlc.matmul %ct, %d : (tensor<2x9x5xf32>, tensor<5x7xf32>) -> tensor<2x9x7xf32>
  %r1 = dlc.transpose %1 {perm = array<i64: 1, 0, 2>} : tensor<2x9x7xf32> -> tensor<9x2x7xf32>
  return %r0, %r1 : tensor<3x2x9x7xf32>, tensor<9x2x7xf32>
}

func.func @reductions(%x: tensor<4x5x6xf32>) -> (tensor<4x1x6xf32>, tensor<5xf32>, tensor<f32>, tensor<4x5x1xf32>) {
  %0 = dlc.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : tensor<4x5x6xf32> -> tensor<4x1x6xf32>
  %1 = dlc.reduce_mean %x {axes = array<i64: 0, -1>} : tensor<4x5x6xf32> -> tensor<5xf32>
  %2 = dlc.reduce_max %x : tensor<4x5x6xf32> -> tensor<f32>
  %3 = dlc.reduce_max %x {axes = array<i64: 2>, keepdims = true} : tensor<4x5x6xf32> -> tensor<4x5x1xf32>
  return %0, %1, %2, %3 : tensor<4x1x6xf32>, tensor<5xf32>, tensor<f32>, tensor<4x5x1xf32>
}

// Row maxima of all-negative rows of 49 (read as 64 lanes, VectorizeRows):
// the lanes past the row must not count (they are -inf, not 0).
func.func @row_max_negative(%x: tensor<6x49xf32>) -> tensor<6x1xf32> {
  %k = dlc.constant dense<10.0> : tensor<f32>
  %n = dlc.sub %x, %k : (tensor<6x49xf32>, tensor<f32>) -> tensor<6x49xf32>
  %m = dlc.reduce_max %n {axes = array<i64: -1>, keepdims = true} : tensor<6x49xf32> -> tensor<6x1xf32>
  return %m : tensor<6x1xf32>
}
