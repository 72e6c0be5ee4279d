//===- EmulatedHostCode.cpp - CUDA kernels as host code for simulated GPUs -===//

#include "compiler/Target/CUDA/EmulatedHostCode.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#ifndef DLC_HOST_CXX
#define DLC_HOST_CXX "c++"
#endif

using namespace dlc::cuda;

llvm::Expected<std::string>
dlc::cuda::buildEmulatedHostCode(llvm::ArrayRef<KernelSource> kernels,
                                 llvm::StringRef symbolSuffix) {
  std::string source = "#include \"cuda_emu.h\"\n" + preamble();
  for (const KernelSource &k : kernels)
    source += "\n" + k.code;
  source += "\n#include <utility>\n"
            "template <typename... P, size_t... I>\n"
            "static void dlc_call(void (*kernel)(P...), void **b, std::index_sequence<I...>) {\n"
            "  kernel(static_cast<P>(b[I])...);\n"
            "}\n";
  for (const KernelSource &k : kernels) {
    auto dims = [](const std::array<uint32_t, 3> &d) {
      return "dim3(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
             std::to_string(d[2]) + ")";
    };
    source += "extern \"C\" void " + k.entry + symbolSuffix.str() + "(void **buffers) {\n" +
              "  ::dlc_emu::launch(" + dims(k.grid) + ", " + dims(k.block) + ", [&] { dlc_call(" +
              k.entry + ", buffers, std::make_index_sequence<" + std::to_string(k.parameters) +
              ">()); });\n}\n";
  }

  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("dlc-emulated", dir))
    return llvm::createStringError("cannot create a temporary folder: " + ec.message());
  auto cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
  auto write = [&](llvm::StringRef name, llvm::StringRef text) -> llvm::Error {
    std::error_code ec;
    llvm::raw_fd_ostream os((dir + "/" + name).str(), ec);
    if (ec)
      return llvm::createStringError("cannot write " + name.str() + ": " + ec.message());
    os << text;
    return llvm::Error::success();
  };
  if (llvm::Error e = write("cuda_emu.h", emulationHeader()))
    return std::move(e);
  if (llvm::Error e = write("kernels.cpp", source))
    return std::move(e);
  std::string cxx = std::getenv("DLC_HOST_CXX") ? std::getenv("DLC_HOST_CXX") : DLC_HOST_CXX;
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(cxx);
  if (!program)
    return llvm::createStringError("--gpu-host-code=emulated needs a host C++ compiler; '" +
                                   cxx + "' not found");
  std::string cpp = (dir + "/kernels.cpp").str(), so = (dir + "/kernels.so").str(),
              log = (dir + "/log").str();
  std::string include = "-I" + dir.str().str();
  llvm::SmallVector<llvm::StringRef> args = {*program, "-std=c++17", "-O2", "-shared", "-fPIC",
                                             "-w", include, cpp, "-o", so};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*program, args, std::nullopt, redirects, 0, 0, &message);
  if (rc != 0) {
    auto output = llvm::MemoryBuffer::getFile(log);
    return llvm::createStringError(
        "the host C++ compiler (" + *program + ") failed on the emulated CUDA kernels" +
        (message.empty() ? "" : ": " + message) + ":\n" +
        (output ? (*output)->getBuffer().str() : std::string()));
  }
  auto bytes = llvm::MemoryBuffer::getFile(so, /*IsText=*/false);
  if (!bytes)
    return llvm::createStringError("cannot read " + so + ": " + bytes.getError().message());
  return (*bytes)->getBuffer().str();
}
