//===- ArtifactFile.cpp - write an artifact without losing the old one ----===//

#include "compiler/Driver/ArtifactFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

llvm::Error dlc::writeArtifactFile(llvm::StringRef path, llvm::StringRef bytes) {
  auto cannotWrite = [&](const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write '" + path + "': " + why);
  };
  // A device or a pipe (-o /dev/null, a process substitution) is written
  // directly: a file renamed over it would replace /dev/null itself, as root.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) && llvm::sys::fs::exists(status) &&
      !llvm::sys::fs::is_regular_file(status)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (!ec) {
      os << bytes;
      os.flush();
      ec = os.error();
      os.clear_error();
    }
    return ec ? cannotWrite(ec.message()) : llvm::Error::success();
  }
  auto temp = llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return cannotWrite(llvm::toString(temp.takeError()));
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << bytes;
    os.flush();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::consumeError(temp->discard());
      return cannotWrite(why);
    }
  }
  if (llvm::Error error = temp->keep(path))
    return cannotWrite(llvm::toString(std::move(error)));
  return llvm::Error::success();
}
