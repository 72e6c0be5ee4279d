// The differential tests can fail: with one event wait left out of every
// schedule (a test-only switch of dlc compile), the CI seeds fail, refused by
// the compile-time schedule verifier; with the verifier off too, the runtime's
// ordering checker or the comparison with the reference catches them.
// RUN: rm -rf %t && %difftest --cases=20 --seed=1 --work=%t/a --emulated=0 --dlc-flags="--test-drop-event-wait=0" --expect-failures | FileCheck %s --check-prefix=VERIFIER
// RUN: %difftest --cases=20 --seed=1 --work=%t/b --emulated=0 --dlc-flags="--test-drop-event-wait=0 --test-no-verify-schedule" --expect-failures | FileCheck %s --check-prefix=RUNTIME
// VERIFIER: refused: {{.*}}internal compiler error: the schedule dlc made is wrong
// VERIFIER: 20 cases (seeds 1..20) in {{[0-9]+}} s: {{.*}}refused {{[1-9]}}
// RUNTIME: failed: {{.*}}check-ordering
// RUNTIME: 20 cases (seeds 1..20) in {{[0-9]+}} s: {{.*}}failed {{[1-9]}}
