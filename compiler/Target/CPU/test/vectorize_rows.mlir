// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-vectorize-rows))' | FileCheck %s

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#chan = affine_map<(d0, d1, d2) -> (d1)>

// A bias add over 512 rows of 49: one vector<49> per row, the bias
// broadcast, in a loop over the rows.
// CHECK: #[[BCAST:.*]] = affine_map<(d0) -> (0, d0, 0)>
// CHECK-LABEL: func.func @bias_rows
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x49xf32>, vector<1x1x49xf32>
// CHECK: vector.transfer_read {{.*}}permutation_map = #[[BCAST]]} : tensor<1xf32>, vector<1x1x49xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x49xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x49xf32>, tensor<1x1x49xf32>
// CHECK-NOT: linalg.generic
func.func @bias_rows(%x: tensor<1x512x49xf32>, %b: tensor<512xf32>) -> tensor<1x512x49xf32> {
  %e = tensor.empty() : tensor<1x512x49xf32>
  %y = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x512x49xf32>, tensor<512xf32>) outs(%e : tensor<1x512x49xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x512x49xf32>
  return %y : tensor<1x512x49xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A stride-2 view (a pooling or depthwise tap at stride 2): each row of 10
// is read as the 19 contiguous floats it spans, in whole registers (32 lanes:
// a masked load), and the even lanes shuffled out into a 16-lane row that is
// stored with a mask (10 lanes).
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x20x20xf32>)
// CHECK: scf.for %[[N:[^ ]+]] =
// CHECK: scf.for %[[C:[^ ]+]] =
// CHECK: %[[SPAN:.*]] = tensor.extract_slice %[[X]][%[[N]], %[[C]], 0, 0] [1, 1, 1, 19] [1, 1, 1, 1]
// CHECK: %[[WIDE:.*]] = vector.transfer_read %[[SPAN]]{{.*}} : tensor<1x1x19xf32>, vector<32xf32>
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 0, 0, 0, 0, 0, 0] : vector<32xf32>, vector<32xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[EVEN]], %[[EVEN]] : vector<16xf32>
// CHECK: vector.transfer_write %[[SQ]], {{.*}} : vector<16xf32>, tensor<1x1x10xf32>
// CHECK-NOT: linalg.generic
func.func @strided(%x: tensor<1x8x20x20xf32>) -> tensor<1x8x10xf32> {
  %t = tensor.extract_slice %x[0, 0, 0, 0] [1, 8, 1, 10] [1, 1, 1, 2] : tensor<1x8x20x20xf32> to tensor<1x8x10xf32>
  %e = tensor.empty() : tensor<1x8x10xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x8x10xf32>) outs(%e : tensor<1x8x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10xf32>
  return %0 : tensor<1x8x10xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Left to LLVM: an i1 result (bit-packed as a vector) and rows of 64 or more
// that no piece from 16 to 64 divides (67).
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: vector.
// CHECK-COUNT-2: linalg.generic
func.func @unchanged(%y: tensor<1x8x10xf32>, %z: tensor<1x8x67xf32>) -> (tensor<1x8x10xi1>, tensor<1x8x67xf32>) {
  %ei = tensor.empty() : tensor<1x8x10xi1>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x10xf32>) outs(%ei : tensor<1x8x10xi1>) {
  ^bb0(%a: f32, %o: i1):
    %zero = arith.constant 0.0 : f32
    %s = arith.cmpf ogt, %a, %zero : f32
    linalg.yield %s : i1
  } -> tensor<1x8x10xi1>
  %ez = tensor.empty() : tensor<1x8x67xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%z : tensor<1x8x67xf32>) outs(%ez : tensor<1x8x67xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x8x67xf32>
  return %1, %2 : tensor<1x8x10xi1>, tensor<1x8x67xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ch = affine_map<(d0, d1, d2) -> (d1)>

// A long row (a 14x14 plane flattened: 196) in equal pieces, each one
// vector, in a loop over the row: the largest power of two from 16 to 64
// that divides it (784 goes in 16s), else the largest piece from 16 to 64
// (49 for 196; a multiple of 8 when one divides).
// CHECK-LABEL: func.func @long_row
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: scf.for %{{.*}} = %{{.*}} to %c196 step %c49
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x49xf32>, vector<1x1x49xf32>
// CHECK: arith.mulf {{.*}} : vector<1x1x49xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x49xf32>, tensor<1x1x49xf32>
// CHECK-LABEL: func.func @rows_of_784
// CHECK: scf.for %{{.*}} = %{{.*}} to %c784 step %c16
// CHECK: vector<1x1x16xf32>
func.func @long_row(%x: tensor<1x4x196xf32>, %s: tensor<4xf32>) -> tensor<1x4x196xf32> {
  %e = tensor.empty() : tensor<1x4x196xf32>
  %0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<1x4x196xf32>, tensor<4xf32>) outs(%e : tensor<1x4x196xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x4x196xf32>
  return %0 : tensor<1x4x196xf32>
}
func.func @rows_of_784(%x: tensor<1x2x784xf32>) -> tensor<1x2x784xf32> {
  %e = tensor.empty() : tensor<1x2x784xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x784xf32>) outs(%e : tensor<1x2x784xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x2x784xf32>
  return %0 : tensor<1x2x784xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A stride-2 tap of a zero-padded image is read from the image itself: the
// source row (clamped into the image) once, in a whole 8-lane register whose
// lanes past the 6 read are the padding value, its lanes shuffled out with
// that padding where a column falls outside (lane 0 reads column -1, lanes
// past the row of 4 are junk), and the whole row replaced by padding when
// the row does.
// CHECK-LABEL: func.func @padded_tap
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>)
// CHECK: scf.for %[[N:[^ ]+]] =
// CHECK: scf.for %[[C:[^ ]+]] =
// CHECK: scf.for %[[H:[^ ]+]] =
// CHECK: %[[R:.*]] = arith.subi
// CHECK-DAG: arith.cmpi sge, %[[R]]
// CHECK-DAG: arith.cmpi sle, %[[R]]
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[N]], %[[C]], %{{.*}}, 0] [1, 1, 1, 6] [1, 1, 1, 1]
// CHECK: %[[V:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<1x1x1x6xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = vector.shuffle %[[V]], %{{.*}} [6, 1, 3, 5, 6, 6, 6, 6] : vector<8xf32>, vector<8xf32>
// CHECK: %[[SEL:.*]] = arith.select %{{.*}}, %[[S]], %{{.*}} : vector<8xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[SEL]], %[[SEL]] : vector<8xf32>
// CHECK: vector.transfer_write %[[SQ]], {{.*}} : vector<8xf32>, tensor<1x1x1x4xf32>
// CHECK-NOT: linalg.generic
func.func @padded_tap(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %t = tensor.extract_slice %p[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 2, 2] : tensor<1x4x10x10xf32> to tensor<1x4x4x4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// At stride 1 the read is exactly one row of the image (8 floats) and the
// left tap's lanes are it shifted by one, the padding shuffled in first.
// CHECK-LABEL: func.func @padded_tap_unit
// CHECK-SAME: (%[[X:.*]]: tensor<1x64x8x8xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]]{{.*}} [1, 1, 1, 8] [1, 1, 1, 1]
// CHECK: %[[V:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<1x1x1x8xf32>, vector<8xf32>
// CHECK: vector.shuffle %[[V]], %{{.*}} [8, 0, 1, 2, 3, 4, 5, 6] : vector<8xf32>, vector<8xf32>
func.func @padded_tap_unit(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x8x8xf32> to tensor<1x64x10x10xf32>
  %t = tensor.extract_slice %p[0, 0, 0, 0] [1, 64, 8, 8] [1, 1, 1, 1] : tensor<1x64x10x10xf32> to tensor<1x64x8x8xf32>
  %e = tensor.empty() : tensor<1x64x8x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x64x8x8xf32>) outs(%e : tensor<1x64x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x64x8x8xf32>
  return %y : tensor<1x64x8x8xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Shifting a tap's row in registers pays while the row is at most the
// target's shifted-row-floats (cpu::KernelTiles): a row of 48 is shifted
// with AVX-512's 64 (the default) and left for the padded copy (PadPerChunk,
// then this pass again) with AVX2's 16, where 48-float rows spilled (144ch
// 56x56 depthwise on Zen 3: 1.25 -> 0.57 ms), and 28-float ones too (192ch
// 28x28: 168 -> 109 us).
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-vectorize-rows{vector-bits=256 shifted-row-floats=16}))' | FileCheck %s --check-prefix=AVX2
// CHECK-LABEL: func.func @padded_tap_48
// CHECK: vector.shuffle
// AVX2-LABEL: func.func @padded_tap_48
// AVX2-NOT: vector.
// AVX2: linalg.generic
// AVX2-NOT: vector.
// AVX2: return
func.func @padded_tap_48(%x: tensor<1x4x48x48xf32>) -> tensor<1x4x48x48xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x48x48xf32> to tensor<1x4x50x50xf32>
  %t = tensor.extract_slice %p[0, 0, 0, 0] [1, 4, 48, 48] [1, 1, 1, 1] : tensor<1x4x50x50xf32> to tensor<1x4x48x48xf32>
  %e = tensor.empty() : tensor<1x4x48x48xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x4x48x48xf32>) outs(%e : tensor<1x4x48x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4x48x48xf32>
  return %y : tensor<1x4x48x48xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @padded_tap_28
// CHECK: vector.shuffle
// AVX2-LABEL: func.func @padded_tap_28
// AVX2-NOT: vector.
// AVX2: linalg.generic
// AVX2-NOT: vector.
// AVX2: return
func.func @padded_tap_28(%x: tensor<1x4x28x28xf32>) -> tensor<1x4x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x28x28xf32> to tensor<1x4x30x30xf32>
  %t = tensor.extract_slice %p[0, 0, 0, 0] [1, 4, 28, 28] [1, 1, 1, 1] : tensor<1x4x30x30xf32> to tensor<1x4x28x28xf32>
  %e = tensor.empty() : tensor<1x4x28x28xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x4x28x28xf32>) outs(%e : tensor<1x4x28x28xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4x28x28xf32>
  return %y : tensor<1x4x28x28xf32>
}

// -----

// The sum of each row of 49 (a 7x7 global average pool's flattened plane):
// the row read in four 16-float registers (zeros past 49), one
// vector.reduction carrying the addition's reassoc flag (a tree, not 49
// dependent additions), added to the output's element.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x49xf32>
// CHECK: scf.for %[[N:[^ ]+]] =
// CHECK: scf.for %[[C:[^ ]+]] =
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[N]], %[[C]], 0] [1, 1, 49] [1, 1, 1]
// CHECK: %[[V:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<1x1x49xf32>, vector<64xf32>
// CHECK: %[[ACC:.*]] = tensor.extract %{{.*}} : tensor<1x1xf32>
// CHECK: %[[S:.*]] = vector.reduction <add>, %[[V]], %[[ACC]] fastmath<reassoc> : vector<64xf32> into f32
// CHECK: tensor.insert %[[S]]
// CHECK-NOT: linalg.generic
func.func @row_sums(%x: tensor<1x16x49xf32>, %init: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x49xf32>) outs(%init : tensor<1x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a fastmath<reassoc> : f32
    linalg.yield %s : f32
  } -> tensor<1x16xf32>
  return %y : tensor<1x16xf32>
}

// -----

// The maximum of each row (softmax's, a row of 49): the same, with -inf
// past the row's end and a <maximumf> reduction (NaN propagates as in
// arith.maximumf).
// CHECK-LABEL: func.func @row_maxima
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x49xf32>
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]]
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[V:.*]] = vector.transfer_read %[[ROW]]{{.*}}, %[[NEGINF]]{{.*}} : tensor<1x1x49xf32>, vector<64xf32>
// CHECK: %[[M:.*]] = vector.reduction <maximumf>, %[[V]], %{{.*}} : vector<64xf32> into f32
// CHECK: tensor.insert %[[M]]
// CHECK-NOT: linalg.generic
func.func @row_maxima(%x: tensor<1x16x49xf32>, %init: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %m = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x49xf32>) outs(%init : tensor<1x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x16xf32>
  return %m : tensor<1x16xf32>
}

// -----

// Not row reductions: a minimum, the maximum of each element's magnitude,
// and a sum over the middle dim.
// CHECK-LABEL: func.func @not_row_sums
// CHECK-NOT: vector.reduction
// CHECK: linalg.generic
// CHECK: arith.minimumf
// CHECK: linalg.generic
// CHECK: math.absf
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: return
func.func @not_row_sums(%x: tensor<1x16x49xf32>, %init: tensor<1x16xf32>, %init2: tensor<1x49xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x49xf32>) {
  %m = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x49xf32>) outs(%init : tensor<1x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.minimumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x49xf32>) outs(%init : tensor<1x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %g = math.absf %a : f32
    %s = arith.maximumf %acc, %g : f32
    linalg.yield %s : f32
  } -> tensor<1x16xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(n, p, c) -> (n, c, p)>, affine_map<(n, p, c) -> (n, p)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x49xf32>) outs(%init2 : tensor<1x49xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x49xf32>
  return %m, %b, %c : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x49xf32>
}
