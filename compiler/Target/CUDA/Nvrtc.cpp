//===- Nvrtc.cpp - NVRTC, loaded at run time -------------------------------===//

#include "compiler/Target/CUDA/Nvrtc.h"
#include "compiler/Target/CUDA/CudaEmitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

#ifndef DLC_NVRTC_SONAME
#define DLC_NVRTC_SONAME "libnvrtc.so.13"
#endif
#ifndef DLC_CUDA_HOME
#define DLC_CUDA_HOME "/usr/local/cuda"
#endif

using namespace dlc::cuda;

namespace {

using Program = void *;
// The C API of nvrtc.h (stable since CUDA 11); declared here so the compiler
// builds without the toolkit.
#define DLC_NVRTC_FUNCTIONS(X)                                                   \
  X(nvrtcGetErrorString, const char *, (int))                                    \
  X(nvrtcCreateProgram, int,                                                     \
    (Program *, const char *, const char *, int, const char *const *, const char *const *)) \
  X(nvrtcCompileProgram, int, (Program, int, const char *const *))               \
  X(nvrtcGetProgramLogSize, int, (Program, size_t *))                            \
  X(nvrtcGetProgramLog, int, (Program, char *))                                  \
  X(nvrtcGetPTXSize, int, (Program, size_t *))                                   \
  X(nvrtcGetPTX, int, (Program, char *))                                         \
  X(nvrtcGetCUBINSize, int, (Program, size_t *))                                 \
  X(nvrtcGetCUBIN, int, (Program, char *))                                       \
  X(nvrtcDestroyProgram, int, (Program *))

struct Library {
#define X(name, ret, args) ret(*name) args = nullptr;
  DLC_NVRTC_FUNCTIONS(X)
#undef X
  std::string error; // why it is unavailable, else empty
  std::string path;
};

const Library &library() {
  static Library lib;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    if (const char *env = std::getenv("DLC_NVRTC"))
      candidates.push_back(env);
    else {
      std::string home = std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : DLC_CUDA_HOME;
      candidates = {DLC_NVRTC_SONAME, home + "/lib64/" DLC_NVRTC_SONAME, "libnvrtc.so",
                    home + "/lib64/libnvrtc.so"};
    }
    void *handle = nullptr;
    std::string tried;
    for (const std::string &c : candidates) {
      handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle) { lib.path = c; break; }
      tried += (tried.empty() ? "" : ", ") + c;
    }
    if (!handle) {
      lib.error = "GPU targets unavailable: NVRTC not found (tried " + tried + ")";
      return;
    }
#define X(name, ret, args)                                                       \
    lib.name = reinterpret_cast<ret(*) args>(dlsym(handle, #name));              \
    if (!lib.name && lib.error.empty())                                          \
      lib.error = "GPU targets unavailable: " + lib.path + " lacks " #name;
    DLC_NVRTC_FUNCTIONS(X)
#undef X
  });
  return lib;
}

int archNumber(const std::string &arch) { return std::atoi(arch.c_str() + 3); }

} // namespace

llvm::Error dlc::cuda::checkArchs(const std::vector<std::string> &archs) {
  if (archs.empty())
    return llvm::createStringError("--cuda-arch: no architecture given");
  for (const std::string &a : archs) {
    llvm::StringRef s(a);
    unsigned n = 0;
    if (!s.consume_front("sm_") || s.getAsInteger(10, n) || n < 80)
      return llvm::createStringError(
          "--cuda-arch: '" + a + "' is not an architecture dlc generates for (sm_80 or newer, e.g. sm_90)");
  }
  return llvm::Error::success();
}

llvm::Error dlc::cuda::nvrtcAvailable() {
  const Library &lib = library();
  return lib.error.empty() ? llvm::Error::success() : llvm::createStringError(lib.error);
}

llvm::Expected<CompiledModule>
dlc::cuda::compileWithNvrtc(const std::string &source, const std::string &name,
                            const std::vector<std::string> &archs) {
  if (llvm::Error e = nvrtcAvailable())
    return std::move(e);
  if (llvm::Error e = checkArchs(archs))
    return std::move(e);
  const Library &lib = library();
  std::string home = std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : DLC_CUDA_HOME;
  std::string include = "-I" + home + "/include";
  // One compile: `target` is compute_NN (PTX) or sm_NN (CUBIN).
  auto compile = [&](const std::string &target, bool cubin) -> llvm::Expected<std::string> {
    Program program = nullptr;
    int rc = lib.nvrtcCreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
    if (rc != 0)
      return llvm::createStringError(llvm::formatv("nvrtcCreateProgram for {0}: {1}", name,
                                                   lib.nvrtcGetErrorString(rc)).str());
    std::string archOption = "-arch=" + target;
    const char *options[] = {archOption.c_str(), "-default-device", "-std=c++17",
                             include.c_str(), "-lineinfo"};
    rc = lib.nvrtcCompileProgram(program, 5, options);
    size_t logSize = 0;
    lib.nvrtcGetProgramLogSize(program, &logSize);
    std::string log(logSize, '\0');
    if (logSize) lib.nvrtcGetProgramLog(program, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    std::string out;
    if (rc == 0) {
      size_t size = 0;
      (cubin ? lib.nvrtcGetCUBINSize : lib.nvrtcGetPTXSize)(program, &size);
      out.resize(size);
      if (size) (cubin ? lib.nvrtcGetCUBIN : lib.nvrtcGetPTX)(program, out.data());
      if (!cubin && !out.empty() && out.back() == '\0') out.pop_back();
    }
    lib.nvrtcDestroyProgram(&program);
    if (rc != 0)
      return llvm::createStringError(llvm::formatv("NVRTC failed to compile {0} for {1} ({2}):\n{3}",
                                                   name, target, lib.nvrtcGetErrorString(rc), log).str());
    if (out.empty())
      return llvm::createStringError("NVRTC produced no " + std::string(cubin ? "CUBIN" : "PTX") +
                                     " for " + name + " (" + target + ")");
    return out;
  };
  std::vector<std::string> sorted = archs;
  std::sort(sorted.begin(), sorted.end(), [](auto &a, auto &b) { return archNumber(a) < archNumber(b); });
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  CompiledModule module;
  module.ptxArch = "compute_" + sorted.front().substr(3);
  llvm::Expected<std::string> ptx = compile(module.ptxArch, false);
  if (!ptx)
    return ptx.takeError();
  module.ptx = std::move(*ptx);
  for (const std::string &arch : sorted) {
    llvm::Expected<std::string> cubin = compile(arch, true);
    if (!cubin)
      return cubin.takeError();
    module.cubins.emplace_back(arch, std::move(*cubin));
  }
  return module;
}

llvm::Expected<CompiledModule>
dlc::cuda::compileKernels(llvm::ArrayRef<KernelSource> kernels,
                          const std::vector<std::string> &archs) {
  llvm::Expected<CompiledModule> module =
      compileWithNvrtc(moduleSource(kernels), "dlc_kernels.cu", archs);
  if (module)
    return module;
  if (llvm::Error unavailable = nvrtcAvailable()) {
    llvm::consumeError(module.takeError());
    return std::move(unavailable);
  }
  std::string whole = llvm::toString(module.takeError());
  std::string report;
  for (const KernelSource &k : kernels) {
    std::vector<std::string> first{archs.front()};
    llvm::Expected<CompiledModule> alone =
        compileWithNvrtc(preamble() + "\n" + k.code, k.entry + ".cu", first);
    if (alone) continue;
    report += "kernel " + k.entry + " (ops: " + llvm::join(k.ops, ", ") + "): " +
              llvm::toString(alone.takeError()) + "\n";
  }
  if (report.empty()) // only the module fails: report it whole
    return llvm::createStringError(whole);
  while (!report.empty() && report.back() == '\n') report.pop_back();
  return llvm::createStringError(report);
}
