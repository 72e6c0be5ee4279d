// dlc run --compare-reference runs the artifact, keeps every step's output
// (--dump-steps) and compares each with the reference interpreter's value of
// the same op on the same inputs. Against the model it was compiled from,
// every output matches, over three devices, in fp32 and in mixed precision,
// with ops without names (named by position before placement) and with an
// input from a file. Against @wrong (the same model, /mid/Mul an add there),
// it names the first step whose output differs, with its device, kernel and
// ops, and exits 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --devices=cpu,cuda:0,cuda:1 --no-cuda -o %t/m.dlcm
// RUN: dlc run %t/m.dlcm --gpu=sim --check-ordering --compare-reference=%s | FileCheck %s --check-prefix=SAME
// RUN: not dlc run %t/m.dlcm --gpu=sim --compare-reference=%s --compare-entry=wrong > %t/wrong.txt
// RUN: FileCheck %s --check-prefix=WRONG < %t/wrong.txt
// RUN: dlc compile %s --devices=cpu,cuda:0,cuda:1 --no-cuda --precision=mixed -o %t/mixed.dlcm
// RUN: dlc run %t/mixed.dlcm --gpu=sim --compare-reference=%s | FileCheck %s --check-prefix=MIXED
// RUN: dlc run %t/m.dlcm --gpu=sim --seed=3 --output-dir=%t/out
// RUN: dlc run %t/m.dlcm --gpu=sim --input=x=%t/out/y.npy --compare-reference=%s --dump-steps=%t/steps | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=DUMP < %t/steps/steps.jsonl
// Too tight a tolerance for fp16 finds the first cast.
// RUN: not dlc run %t/mixed.dlcm --gpu=sim --compare-reference=%s --compare-tolerance=1e-9 | FileCheck %s --check-prefix=TIGHT
// SAME: output 0 'y'
// SAME: compare-reference: 11 step outputs compared with the reference, all within 0.0001 x max|ref|
// WRONG: compare-reference: first divergence: step {{[0-9]+}} (call) of cuda:1, kernel 'k{{[0-9]+}}' (ops /mid/Mul{{.*}}), wrote buffer {{[0-9]+}} ('/mid/Mul{{.*}}', f32 [4,8]): element {{[0-9]+}} is {{.*}}, the reference {{.*}} (|difference| {{.*}} > {{.*}} = 0.0001 x max|ref| {{.*}})
// WRONG: compare-reference: {{[0-9]+}} step outputs compared with the reference, {{[0-9]+}} diverge
// MIXED: compare-reference: {{[0-9]+}} step outputs compared with the reference, all within 0.03 x max|ref|
// DUMP: {"sequence": 0, "device": "cpu", "step": {{[0-9]+}}, "kind": "{{call|copy}}"
// DUMP: "ops": ["/mid/Mul"{{.*}}"name": "/mid/Mul"{{.*}}"file": "{{[0-9]+}}.npy"}
// TIGHT: compare-reference: first divergence: {{.*}}1e-09 x max|ref|
func.func @main(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<8x8xf32>
  %h = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("/in/MatMul")
  %t = dlc.tanh %h {device = #dlc.device<cpu>} : tensor<4x8xf32>
  %m = dlc.mul %t, %x {device = #dlc.device<cuda:1>} : tensor<4x8xf32> loc("/mid/Mul")
  %r = dlc.reshape %m : tensor<4x8xf32> -> tensor<32xf32>
  %e = dlc.exp %r {device = #dlc.device<cuda:0>} : tensor<32xf32>
  %b = dlc.reshape %e : tensor<32xf32> -> tensor<4x8xf32>
  %y = dlc.add %b, %x {device = #dlc.device<cpu>} : tensor<4x8xf32> loc("/out/Add")
  return %y : tensor<4x8xf32>
}
func.func @wrong(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<8x8xf32>
  %h = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("/in/MatMul")
  %t = dlc.tanh %h : tensor<4x8xf32>
  %m = dlc.add %t, %x : tensor<4x8xf32> loc("/mid/Mul")
  %r = dlc.reshape %m : tensor<4x8xf32> -> tensor<32xf32>
  %e = dlc.exp %r : tensor<32xf32>
  %b = dlc.reshape %e : tensor<32xf32> -> tensor<4x8xf32>
  %y = dlc.add %b, %x : tensor<4x8xf32> loc("/out/Add")
  return %y : tensor<4x8xf32>
}
