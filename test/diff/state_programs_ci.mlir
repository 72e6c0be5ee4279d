// The CI mode of the persistent-state differential tests: 100 random programs
// over cpu + 1..4 simulated GPUs with one input made state, three runs each
// against the interpreter fed its own next state (state_programs.py, README.md
// here). About 25 s on 2 cores.
// RUN: rm -rf %t && %python %S/state_programs.py --cases=100 --seed=1 --work=%t | FileCheck %s
// CHECK: 100 cases (seeds 1..100), 3 runs each: {{(dropped [0-9], )?}}ok {{[0-9]+}}, skipped {{[0-9]+}}{{$}}
