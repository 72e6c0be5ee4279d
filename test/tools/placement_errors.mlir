// Errors a user can cause with a placement, each naming what is at fault,
// with a non-zero exit and no artifact. (Pins to absent devices, devices that
// cannot run an op, --fallback=error, bad --placement-from dumps and bad
// device specs have their tests in passes/test/place_devices_*.mlir,
// dlc_compile_placement.mlir and compile_errors.mlir.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: not dlc compile %s --devices=cpu,cuda:0,cuda:0 --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: --devices: device 'cuda:0' is listed twice
// RUN: not dlc compile %s --devices= --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: --devices: no devices given (expected e.g. cpu,cuda:0)
// RUN: not dlc compile %s --devices=cpu,cuda:0 --device-spec=%S/Inputs/placement_spec_not_object.json --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: placement_spec_not_object.json: expected a JSON object with 'devices' and 'links'
// RUN: not dlc compile %s --devices=cpu,cuda:0 --dump-placement=%t/p.csv --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: error: --dump-placement: '{{.*}}p.csv' must end in .txt, .json or .dot
// RUN: not dlc compile %s --devices=cpu,cuda:0 --placement=gpu --device-spec=%S/Inputs/placement_no_softmax_anywhere.json --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=NOWHERE
// NOWHERE: error: {{.*}}no device can run op '/sm/Softmax' (dlc.softmax): not cuda:0, not the cpu
// RUN: not dlc compile %s --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --device-spec=%S/Inputs/placement_tiny_gpus.json --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: error: {{.*}}--placement=pipeline:2: the model does not fit in the memory of 2 GPUs
// RUN: not dlc compile %s --devices=cpu,cuda:0,cuda:1 --pin=/fc/=cuda:0 --device-spec=%S/Inputs/placement_tiny_gpus.json --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=PINS
// PINS: error: {{.*}}pins exceed the memory of cuda:0: op '/fc/MatMul' needs {{[0-9]+}} more bytes with 0 of 10000 in use
// Two ops of one name (an ONNX node's two halves) placed apart in an edited dump.
// RUN: dlc compile %s --devices=cpu,cuda:0,cuda:1 --no-cuda --dump-placement=%t/p.json -o %t/ok.dlcm
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); ops=[o for o in d['ops'] if o['name']=='/fc/MatMul']; assert len(ops)==2; ops[0]['device']='cuda:0'; ops[1]['device']='cuda:1'; json.dump(d,open(sys.argv[2],'w'))" %t/p.json %t/split.json
// RUN: not dlc compile %s --devices=cpu,cuda:0,cuda:1 --no-cuda --placement-from=%t/split.json -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: {{.*}}op '/fc/MatMul' appears in {{.*}}split.json on both cuda:0 and cuda:1: ops of the same name must share a device
// Data parallelism needs a batch to split and outputs that depend on it;
// other functions of the file are not placed (their errors are not this
// compile's).
// RUN: not dlc compile %s --entry=no_inputs --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: error: {{.*}}--placement=data-parallel:2: @no_inputs has no inputs to split along the batch
// NOINPUT-NOT: error
// RUN: not dlc compile %s --entry=unbatched_output --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --no-cuda -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=UNBATCHED
// UNBATCHED: error: {{.*}}--placement=data-parallel:2: output 1 of @unbatched_output does not depend on the batch
// UNBATCHED-NOT: error
// RUN: not ls %t/a.dlcm
func.func @main(%x: tensor<64x64xf32> {dlc.name = "x"}) -> (tensor<64x64xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<64x64xf32>
  %a = dlc.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("/fc/MatMul")
  %s = dlc.softmax %a {axis = 1 : i64} : tensor<64x64xf32> loc("/sm/Softmax")
  %y = dlc.add %s, %a : tensor<64x64xf32> loc("/fc/MatMul")
  return %y : tensor<64x64xf32>
}
func.func @no_inputs() -> (tensor<4xf32> {dlc.name = "y"}) {
  %c = dlc.constant dense<1.0> : tensor<4xf32>
  %y = dlc.exp %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @unbatched_output(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}, tensor<8xf32> {dlc.name = "c"}) {
  %c = dlc.constant dense<1.0> : tensor<8xf32>
  %e = dlc.exp %c : tensor<8xf32>
  %y = dlc.relu %x : tensor<4x8xf32>
  return %y, %e : tensor<4x8xf32>, tensor<8xf32>
}
