// The CI mode of conv_programs.py: 100 random convolutions (fixed seeds) through
// the CPU's register-tiled strategies, for AVX2 with random register tiles, at 1
// and 2 threads, each against the interpreter. About 25 s on 2 cores. Seeds 25
// (one channel, 7x7-like output whose last columns run down the column) and 97
// (a one-pixel run at stride 2) failed before the fix that slices those
// unambiguously (ConvToMatmul.cpp).
// RUN: rm -rf %t && %python %S/conv_programs.py --cases=100 --seed=1 --work=%t | FileCheck %s
// CHECK: 100 cases (seeds 1..100): ok 100, failed 0
