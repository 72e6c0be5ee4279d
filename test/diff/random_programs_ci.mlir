// The CI mode of the differential tests: 200 random programs with random
// placements over cpu + 1..4 simulated GPUs, random fp16 paint and in-flight
// runs, a tenth through the CUDA emulation, fixed seeds; every case must give
// the interpreter's answer (README.md here). About a minute on 2 cores.
// RUN: rm -rf %t && %difftest --cases=200 --seed=1 --work=%t | FileCheck %s
// CHECK: coverage over 200 cases:
// CHECK: 200 cases (seeds 1..200) in {{[0-9]+}} s: {{(dropped [0-9], )?}}ok {{[0-9]+}}{{$}}
