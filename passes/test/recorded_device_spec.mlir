// dlc-place records the spec it placed with on the module (dlc.device_spec:
// the spec's JSON and each device's file); dlc-report-placement reads it and
// takes no device options of its own.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 device-spec=%S/Inputs/small_gpu.json})' | FileCheck %s --check-prefix=FILE
// FILE: module attributes {dlc.device_spec = {files = ["{{.*}}small_gpu.json", "{{.*}}small_gpu.json"], json = "{{.*}}\22kind\22: \22cuda\22,{{.*}}\22memory_bytes\22: 40000,
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0})' | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: module attributes {dlc.device_spec = {files = ["", ""], json = "{{.*}}\22source\22: \22built-in
// The report over the recorded spec, with no options: the file's figures.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 device-spec=%S/Inputs/small_gpu.json policy=gpu},dlc-report-placement{print})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: 0  cuda:0    default             5.000  f32   dlc.relu          relu_0
// REPORT: profiles:
// REPORT-NEXT: cpu {{.*}}small_gpu.json
// REPORT-NEXT: cuda:0 {{.*}}small_gpu.json
// Without dlc-place there is nothing to report over.
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-report-placement{print})' 2>&1 | FileCheck %s --check-prefix=NOPLACE
// NOPLACE: error: dlc-report-placement: the module has no dlc.device_spec (run dlc-place first)
// A record edited into something else is an error naming it.
// RUN: sed -e 's/^module {/module attributes {dlc.device_spec = "cpu"} {/' %s | not dlc-opt --pass-pipeline='builtin.module(dlc-report-placement{print})' 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: error: dlc.device_spec: expected {files = [strings], json = "..."}
// RUN: sed -e 's/^module {/module attributes {dlc.device_spec = {files = [], json = "{}"}} {/' %s | not dlc-opt --pass-pipeline='builtin.module(dlc-report-placement{print})' 2>&1 | FileCheck %s --check-prefix=BADJSON
// BADJSON: error: the module's dlc.device_spec: devices: missing field
module {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = dlc.relu %x {dlc.name = "relu_0"} : tensor<8xf32>
    return %r : tensor<8xf32>
  }
}
