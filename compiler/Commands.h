//===- Commands.h - `dlc` subcommands that live in files of their own -----===//
#ifndef DLC_COMPILER_COMMANDS_H
#define DLC_COMPILER_COMMANDS_H

namespace dlc {

/// `dlc probe-devices SPEC.json`: a device spec with this CPU's measured
/// profile (ProbeDevicesCommand.cpp).
int probeDevicesCommand(int argc, char **argv);

} // namespace dlc

#endif // DLC_COMPILER_COMMANDS_H
