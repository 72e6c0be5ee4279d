// Persistent state end to end: a state argument (dlc.state) starts as its
// dlc.initial, each run updates it in place, and the next run starts from
// what the last one left (a training step's parameters and optimizer state).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/Inputs'); import npy; npy.write('%t/x.npy', [1.0, 2.0, 0.5, -1.0], [4])"
// RUN: dlc compile %s -o %t/cpu.dlcm
// RUN: dlc run %t/cpu.dlcm --input x=%t/x.npy | FileCheck %s --check-prefix=ONE
// RUN: dlc run %t/cpu.dlcm --input x=%t/x.npy --iterations=3 | FileCheck %s --check-prefix=THREE
// The first run is the reference interpreter's (state from dlc.initial).
// RUN: dlc interpret %s --input=x=%t/x.npy | FileCheck %s --check-prefix=INTERP
// RUN: dlc run %t/cpu.dlcm --compare-reference %s | FileCheck %s --check-prefix=REF
// The next value computed on a simulated GPU and copied back, the update
// ordered after every read of the old value (proved at load, checked live).
// RUN: dlc compile %s --devices=cpu,cuda:0 --placement=gpu --no-cuda -o %t/gpu.dlcm
// RUN: dlc run %t/gpu.dlcm --gpu=sim --verify-schedule --check-ordering --input x=%t/x.npy --iterations=3 | FileCheck %s --check-prefix=THREE
// RUN: dlc run %t/gpu.dlcm --gpu=sim --compare-reference %s | FileCheck %s --check-prefix=REF
// RUN: dlc inspect %t/gpu.dlcm | FileCheck %s --check-prefix=INSPECT
// Runs that overlap would race on the state.
// RUN: not dlc run %t/cpu.dlcm --in-flight=2 2>&1 | FileCheck %s --check-prefix=INFLIGHT

// count <- count + x; y = (count + x) * x.
func.func @main(%count: tensor<4xf32> {dlc.state = "count", dlc.initial = dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>},
                %x: tensor<4xf32> {dlc.name = "x"})
    -> (tensor<4xf32> {dlc.name = "y"}, tensor<4xf32> {dlc.state = "count"}) {
  %next = dlc.add %count, %x : tensor<4xf32>
  %y = dlc.mul %next, %x : tensor<4xf32>
  return %y, %next : tensor<4xf32>, tensor<4xf32>
}

// ONE: output 0 'y': f32 [4] = [11, 44, 15.25, -39]
// ONE: state 0 'count': f32 [4] = [11, 22, 30.5, 39]
// THREE: output 0 'y': f32 [4] = [13, 52, 15.75, -37]
// THREE: state 0 'count': f32 [4] = [13, 26, 31.5, 37]
// INTERP: y: f32 [4]
// INTERP-NEXT: [11, 44, 15.25, -39]
// INTERP-NEXT: count.next: f32 [4]
// INTERP-NEXT: [11, 22, 30.5, 39]
// REF: all within
// INSPECT: format: 0.6
// INSPECT: input  0 'x': f32 [4], 16 bytes
// INSPECT-NEXT: output 0 'y': f32 [4], 16 bytes
// INSPECT-NEXT: state  0 'count': f32 [4], 16 bytes, kept from run to run
// INSPECT: steps of cpu
// INSPECT: copy %{{[0-9]+}}('add_0') -> %0('count')
// INSPECT: %0('count') on cpu: F32 [4], 16 bytes, persistent (starts as segment 0)
// INFLIGHT: max_in_flight 2, but model '{{.*}}cpu.dlcm' has persistent state, which each run updates for the next: its runs cannot overlap (max_in_flight must be 1)
