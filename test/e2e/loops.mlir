// dlc.loop compiled to native code (LowerLoops.cpp: an scf.for on tensors)
// against the reference interpreter: a recurrence with carried state, a
// scanned input and a stacked output; the same counted down (reverse); a
// count known only at run time (from the input, negative counts included:
// no iteration); a loop in a loop; a body with a softmax and a matmul; on
// two threads; and every loop placed with the ops around it on simulated
// GPUs (a loop stays on the CPU: the CUDA backend has no loops).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s recurrence %t
// RUN: %check-e2e %s recurrence %t/threads --threads=2
// RUN: %check-e2e %s recurrence_reverse %t
// RUN: %check-e2e %s run_time_count %t
// RUN: %check-e2e %s nested %t
// RUN: %check-e2e %s attention_steps %t
// RUN: %check-e2e %s recurrence %t/gpu --devices=cpu,cuda:0 --placement=gpu --gpu=sim
// RUN: dlc compile %s --entry=recurrence --devices=cpu,cuda:0 --placement=gpu --dump-placement=%t/p.txt -o %t/p.dlcm
// RUN: FileCheck %s --check-prefix=PLACED < %t/p.txt
// PLACED: cpu unsupported {{.*}} dlc.loop
// PLACED: cuda:0 default {{.*}} dlc.relu

// h' = tanh(x_t + h W^T + b), y_t = h'.
func.func @recurrence(%xs: tensor<40x3x8xf32>, %h0: tensor<3x8xf32>, %w: tensor<8x8xf32>,
                      %b: tensor<8xf32>) -> (tensor<3x8xf32>, tensor<40x3x8xf32>) {
  %h, %ys = dlc.loop carried(%h0 : tensor<3x8xf32>) scan(%xs : tensor<40x3x8xf32>)
      invariant(%w, %b : tensor<8x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>, tensor<40x3x8xf32> {
  ^bb0(%t: tensor<1xi64>, %hc: tensor<3x8xf32>, %x: tensor<3x8xf32>, %wi: tensor<8x8xf32>, %bi: tensor<8xf32>):
    %p = dlc.linear %hc, %wi, %bi : (tensor<3x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
    %s = dlc.add %x, %p : tensor<3x8xf32>
    %n = dlc.tanh %s : tensor<3x8xf32>
    dlc.yield %n, %n : tensor<3x8xf32>, tensor<3x8xf32>
  } {trips = 40 : i64}
  %out = dlc.relu %ys : tensor<40x3x8xf32>
  return %h, %out : tensor<3x8xf32>, tensor<40x3x8xf32>
}

// Positions count down; the position masks rows (a sequence_lens-like mask).
// Its rows are [1, 4, 5], stacked as [9, 1, 4, 5].
func.func @recurrence_reverse(%xs: tensor<9x4x5xf32>, %h0: tensor<4x5xf32>, %lens: tensor<4x1xi64>)
    -> (tensor<4x5xf32>, tensor<9x1x4x5xf32>) {
  %h, %ys = dlc.loop carried(%h0 : tensor<4x5xf32>) scan(%xs : tensor<9x4x5xf32>)
      invariant(%lens : tensor<4x1xi64>) -> tensor<4x5xf32>, tensor<9x1x4x5xf32> {
  ^bb0(%t: tensor<1xi64>, %hc: tensor<4x5xf32>, %x: tensor<4x5xf32>, %l: tensor<4x1xi64>):
    %s = dlc.add %x, %hc : tensor<4x5xf32>
    %n = dlc.sigmoid %s : tensor<4x5xf32>
    %t2 = dlc.reshape %t : tensor<1xi64> -> tensor<1x1xi64>
    %live = dlc.compare "lt", %t2, %l : (tensor<1x1xi64>, tensor<4x1xi64>) -> tensor<4x1xi1>
    %next = dlc.select %live, %n, %hc : tensor<4x1xi1>, tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
    %y = dlc.reshape %next : tensor<4x5xf32> -> tensor<1x4x5xf32>
    dlc.yield %next, %y : tensor<4x5xf32>, tensor<1x4x5xf32>
  } {trips = 9 : i64, reverse}
  return %h, %ys : tensor<4x5xf32>, tensor<9x1x4x5xf32>
}

// The count comes from the input: trunc(10 * x[0]), -10 to 10.
func.func @run_time_count(%x: tensor<6xf32>, %v: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %first = dlc.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>} : tensor<6xf32> -> tensor<1xf32>
  %ten = dlc.constant dense<10.0> : tensor<1xf32>
  %scaled = dlc.mul %first, %ten : tensor<1xf32>
  %n = dlc.cast %scaled : tensor<1xf32> -> tensor<1xi64>
  %r = dlc.loop count(%n : tensor<1xi64>) carried(%v : tensor<2x6xf32>) invariant(%x : tensor<6xf32>)
      -> tensor<2x6xf32> {
  ^bb0(%t: tensor<1xi64>, %vc: tensor<2x6xf32>, %xi: tensor<6xf32>):
    %half = dlc.constant dense<0.5> : tensor<1x1xf32>
    %a = dlc.mul %vc, %half : (tensor<2x6xf32>, tensor<1x1xf32>) -> tensor<2x6xf32>
    %tf = dlc.cast %t : tensor<1xi64> -> tensor<1xf32>
    %b = dlc.add %a, %tf : (tensor<2x6xf32>, tensor<1xf32>) -> tensor<2x6xf32>
    %c = dlc.add %b, %xi : (tensor<2x6xf32>, tensor<6xf32>) -> tensor<2x6xf32>
    dlc.yield %c : tensor<2x6xf32>
  }
  return %r : tensor<2x6xf32>
}

// Three outer iterations of four inner ones; the inner count is static.
func.func @nested(%v: tensor<4x4xf32>, %m: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = dlc.loop carried(%v : tensor<4x4xf32>) invariant(%m : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%t: tensor<1xi64>, %vc: tensor<4x4xf32>, %mi: tensor<4x4xf32>):
    %in = dlc.loop carried(%vc : tensor<4x4xf32>) invariant(%mi : tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%u: tensor<1xi64>, %w: tensor<4x4xf32>, %mm: tensor<4x4xf32>):
      %p = dlc.matmul %w, %mm : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      %q = dlc.tanh %p : tensor<4x4xf32>
      dlc.yield %q : tensor<4x4xf32>
    } {trips = 4 : i64}
    %s = dlc.add %in, %vc : tensor<4x4xf32>
    dlc.yield %s : tensor<4x4xf32>
  } {trips = 3 : i64}
  return %r : tensor<4x4xf32>
}

// Per step: scores against the carried keys, a softmax, a weighted sum.
func.func @attention_steps(%qs: tensor<12x1x16xf32>, %k: tensor<16x32xf32>, %v: tensor<32x16xf32>)
    -> tensor<12x1x16xf32> {
  %ys = dlc.loop scan(%qs : tensor<12x1x16xf32>) invariant(%k, %v : tensor<16x32xf32>, tensor<32x16xf32>)
      -> tensor<12x1x16xf32> {
  ^bb0(%t: tensor<1xi64>, %q: tensor<1x16xf32>, %ki: tensor<16x32xf32>, %vi: tensor<32x16xf32>):
    %s = dlc.matmul %q, %ki : (tensor<1x16xf32>, tensor<16x32xf32>) -> tensor<1x32xf32>
    %p = dlc.softmax %s {axis = 1 : i64} : tensor<1x32xf32>
    %o = dlc.matmul %p, %vi : (tensor<1x32xf32>, tensor<32x16xf32>) -> tensor<1x16xf32>
    dlc.yield %o : tensor<1x16xf32>
  } {trips = 12 : i64}
  return %ys : tensor<12x1x16xf32>
}
