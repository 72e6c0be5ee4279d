// dlc run --check-numerics stops at the first kernel that writes a NaN or an
// infinity from finite inputs, naming its ops and device; without it the run
// succeeds and prints the NaN. A kernel whose input already holds the NaN is
// not blamed (the log's NaN flows through the CPU's add).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --devices=cpu,cuda:0 --no-cuda -o %t/m.dlcm
// RUN: dlc run %t/m.dlcm --gpu=sim | FileCheck %s --check-prefix=PLAIN
// RUN: not dlc run %t/m.dlcm --gpu=sim --check-numerics 2>&1 | FileCheck %s
// RUN: dlc compile %s --entry=finite -o %t/f.dlcm
// RUN: dlc run %t/f.dlcm --check-numerics | FileCheck %s --check-prefix=FINITE
// PLAIN: output 0 'y': f32 [4] = [nan
// CHECK: run: model '{{.*}}m.dlcm': check-numerics: step {{[0-9]+}} (call) of cuda:0, kernel 'k{{[0-9]+}}' (ops /shift/Sub, /log/Log), wrote a NaN or infinity to buffer {{[0-9]+}} ('/log/Log') at element 0 from finite inputs
// FINITE: output 0 'y': f32 [4]
func.func @main(%x: tensor<4xf32> {dlc.name = "x"}) -> (tensor<4xf32> {dlc.name = "y"}) {
  %two = dlc.constant dense<2.0> : tensor<4xf32>
  %s = dlc.sub %x, %two {device = #dlc.device<cuda:0>} : tensor<4xf32> loc("/shift/Sub")
  %l = dlc.log %s {device = #dlc.device<cuda:0>} : tensor<4xf32> loc("/log/Log")
  %y = dlc.add %l, %x {device = #dlc.device<cpu>} : tensor<4xf32> loc("/out/Add")
  return %y : tensor<4xf32>
}
func.func @finite(%x: tensor<4xf32> {dlc.name = "x"}) -> (tensor<4xf32> {dlc.name = "y"}) {
  %y = dlc.exp %x : tensor<4xf32> loc("/exp/Exp")
  return %y : tensor<4xf32>
}
