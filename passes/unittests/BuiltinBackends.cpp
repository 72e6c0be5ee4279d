//===- BuiltinBackends.cpp - the cpu and cuda backends for placement's tests -===//
//
// The tests place ops on the built-in profiles, which come from the backends
// (passes/TargetBackend.h); a tool registers them in registerAllDlcPasses.

#include "compiler/Target/Backends.h"

namespace {
const bool registered = (dlc::registerBuiltinTargetBackends(), true);
} // namespace
