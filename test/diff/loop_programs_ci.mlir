// The CI mode of the loop differential tests: 150 random programs as the
// bodies of dlc.loops (carried, scanned, invariant, counted down, or counted
// at run time), against the interpreter run iteration by iteration
// (loop_programs.py, README.md here). About 35 s on 2 cores.
// RUN: rm -rf %t && %python %S/loop_programs.py --cases=150 --seed=1 --work=%t | FileCheck %s
// CHECK: 150 cases (seeds 1..150): {{(dropped [0-9], )?}}ok {{[0-9]+}}{{$}}
