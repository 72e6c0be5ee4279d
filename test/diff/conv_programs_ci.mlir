// The CI mode of conv_programs.py: 100 random convolutions (fixed seeds) through
// the CPU's register-tiled strategies and depthwise rows, for AVX2 with random
// register tiles, at 1 and 2 threads, each against the interpreter. About 20 s on
// 2 cores. The two bugs its first run found are test/e2e's conv_pixel_edges.
// RUN: rm -rf %t && %python %S/conv_programs.py --cases=100 --seed=1 --work=%t | FileCheck %s
// CHECK: 100 cases (seeds 1..100): ok 100, failed 0
