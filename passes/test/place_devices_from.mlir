// --placement-from=DUMP.json reuses a (hand-edited) placement dump, checked
// like pins; every op it places gets reason `pinned`.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 placement-from=%S/Inputs/placement_edited.json})' | FileCheck %s
// CHECK: func.func @f{{.*}}dlc.placement = "placement-from"
// CHECK-DAG: dlc.constant {{.*}}device = #dlc.device<cuda:1>, dlc.reason = "default"
// CHECK-DAG: dlc.matmul {{.*}}{device = #dlc.device<cuda:1>, {{.*}}dlc.reason = "pinned"}
// CHECK-DAG: dlc.relu {{.*}}{device = #dlc.device<cuda:0>, {{.*}}dlc.reason = "pinned"}
// CHECK-DAG: dlc.softmax {{.*}}{device = #dlc.device<cpu>, {{.*}}dlc.reason = "pinned"}
// A dump written by the pass reads back to the same devices.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 dump=%t.json})' -o /dev/null
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 dump=%t.txt})' -o /dev/null
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 placement-from=%t.json dump=%t2.txt})' -o /dev/null
// RUN: grep -E '^ +[0-9]+  ' %t.txt | awk '{print $2, $NF}' | sort > %t.a
// RUN: grep -E '^ +[0-9]+  ' %t2.txt | awk '{print $2, $NF}' | sort > %t.b
// RUN: diff %t.a %t.b
// Errors name the op and the device.
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 placement-from=%S/Inputs/placement_missing_op.json})' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}op 'act' is missing from the placement dump {{.*}}placement_missing_op.json
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 placement-from=%S/Inputs/placement_unknown_device.json})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: {{.*}}op 'act' is placed on unknown device 'tpu:0' by {{.*}}placement_unknown_device.json
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 placement-from=%S/Inputs/placement_not_listed.json})' 2>&1 | FileCheck %s --check-prefix=NOTLISTED
// NOTLISTED: error: {{.*}}op 'fc' is placed on cuda:5 by {{.*}}placement_not_listed.json, which is not among the devices (cpu, cuda:0, cuda:1)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 placement-from=%S/Inputs/placement_edited.json})' 2>&1 | FileCheck %s --check-prefix=NOTDEV
// NOTDEV: error: {{.*}}op 'fc' is placed on cuda:1 by {{.*}}placement_edited.json, which is not among the devices (cpu, cuda:0)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/no_softmax_gpu.json placement-from=%S/Inputs/placement_unsupported.json})' 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: error: {{.*}}op 'sm' is placed on cuda:0 by {{.*}}placement_unsupported.json, which cannot run dlc.softmax
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{placement-from=%S/Inputs/missing.json})' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read placement dump '{{.*}}missing.json'
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %w = dlc.constant dense<0.5> : tensor<16x16xf32> loc("w")
  %m = dlc.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32> loc("fc")
  %r = dlc.relu %m : tensor<8x16xf32> loc("act")
  %s = dlc.softmax %r {axis = -1 : i64} : tensor<8x16xf32> loc("sm")
  return %s : tensor<8x16xf32>
}
