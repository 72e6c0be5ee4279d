//===- RuntimeTools.h - the bodies of dlc-run and `dlc run/inspect` -------===//
//
// Plain C++ (no LLVM), so that dlc-run stays the runtime alone; the dlc tool
// forwards its `run` and `inspect` subcommands here. Both print to stdout,
// report errors on stderr and return an exit code (0 success, 1 error,
// 2 bad usage); neither exits.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TOOLS_RUNTIMETOOLS_H
#define DLC_RUNTIME_TOOLS_RUNTIMETOOLS_H

/// dlc-run model.dlcm [--input NAME=FILE.npy ...] [--output-dir DIR]
///   [--iterations=N] [--warmup=N] [--threads=N] [--seed=S]
/// argv[0] is the program name used in messages.
int dlcRunMain(int argc, char **argv);

/// dlc-run --inspect model.dlcm: devices, signature, kernels, steps, memory
/// plan, placement. argv[0] is the program name, argv[1] the file.
int dlcInspectMain(int argc, char **argv);

/// dlc-run --probe-devices=FILE.json [--sim-gpus=N]: measures this machine
/// (CPU f32 FLOP/s, memory bandwidth, copies between simulated GPUs' arenas)
/// and writes a device spec for `dlc compile --device-spec`.
int dlcProbeDevicesMain(int argc, char **argv);

/// The whole dlc-run: --version, --help, --inspect FILE, else dlcRunMain.
int dlcRunToolMain(int argc, char **argv);

#endif // DLC_RUNTIME_TOOLS_RUNTIMETOOLS_H
