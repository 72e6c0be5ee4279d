// The `dlc` driver's own command line.
// No command: the usage on stderr, exit status 2.
// RUN: %python %S/Inputs/exit_code.py 2 dlc 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not dlc 2>/dev/null | count 0
// NONE: usage: dlc <command> [options]
// NONE: verify MODEL.mlir
// NONE: interpret MODEL.mlir

// An unknown command: named, then the usage; exit status 2.
// RUN: %python %S/Inputs/exit_code.py 2 dlc frobnicate model.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown command 'frobnicate'
// UNKNOWN: usage: dlc <command> [options]

// A command that looks like an option is unknown too.
// RUN: not dlc --verify %s 2>&1 | FileCheck %s --check-prefix=DASHED
// DASHED: error: unknown command '--verify'

// --help prints the usage on stdout and succeeds.
// RUN: dlc --help | FileCheck %s --check-prefix=HELP
// HELP: usage: dlc <command> [options]

// `dlc verify` without a model.
// RUN: not dlc verify 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: dlc verify: Not enough positional command line arguments specified!

// An unknown option of a command.
// RUN: not dlc verify --frobnicate %s 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: Unknown command line argument '--frobnicate'

// The control: this file is a valid (empty) model.
// RUN: dlc verify %s | FileCheck %s --check-prefix=OK
// OK: dlc_command_line.mlir: ok, 0 dlc ops (0 pinned), 0.000 GFLOP per run
