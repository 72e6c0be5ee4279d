//===- ArtifactFile.h - write an artifact without losing the old one -------===//
#ifndef DLC_COMPILER_DRIVER_ARTIFACTFILE_H
#define DLC_COMPILER_DRIVER_ARTIFACTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Writes `bytes` to `path`: to a temporary file beside it, renamed over it,
/// so that a failed write never leaves a truncated artifact in place of a
/// good one; a device or a pipe (-o /dev/null) is written directly. The
/// error reads "cannot write 'PATH': why".
llvm::Error writeArtifactFile(llvm::StringRef path, llvm::StringRef bytes);

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_ARTIFACTFILE_H
