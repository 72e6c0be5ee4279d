// A convolution with one filter per input channel (groups = channels > 1)
// has the cost kind depthwise_conv2d, with a rate of its own in a spec's
// kernel_flops; a grouped one that is not depthwise stays conv2d:
// grouped 2*16*64*4*9 FLOPs at 1e11 = 0.737 us, depthwise 2*16*64*9 at 1e10
// = 1.843 us (the roofline's bandwidth term is out of the way: 1e15 B/s).
//
// RUN: dlc compile %S/Inputs/depthwise_and_dense.mlir --device-spec=%S/Inputs/kernel_flops_depthwise.json --print-placement -o %t.dlcm 2>&1 | FileCheck %s
// CHECK: 0  cpu       cost                0.737  f32   dlc.conv2d        grouped
// CHECK: 1  cpu       cost                1.843  f32   dlc.conv2d        depthwise
