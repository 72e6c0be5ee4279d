// The symbolic batch on random programs (batch_programs.py): 40 programs whose
// inputs carry a batch of 4, random devices over cpu + 1..4 simulated GPUs,
// compiled once and run at a random batch from 1 to 4; each run must give the
// interpreter's outputs for its units (a program with a kernel sized at run
// time, reading the batch whole, at the bound), and a program the batch rules
// refuse must be refused by name (an op that mixes the batch's units).
// RUN: rm -rf %t && %batch-programs --cases=40 --seed=1 --work=%t | FileCheck %s
// CHECK: 40 cases: {{[1-9][0-9]*}} ran (batches 1,2,3,4; {{[0-9]+}} sized at run time), {{[0-9]+}} refused by the batch rules, {{[0-9]+}} dropped (reference not finite), 0 failed
