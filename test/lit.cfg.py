# lit configuration for every dlc lit suite (dialects/, passes/, compiler/, test/).
import os
import lit.formats

config.name = "dlc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit_suite.py", "lit.site.cfg.py", "models", "Inputs"]

# Each test folder's own lit.cfg.py sets test_source_root / test_exec_root.

# Our tools first, then LLVM's FileCheck / not / count.
config.environment["PATH"] = os.pathsep.join(
    [config.dlc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%models", os.path.join(config.dlc_src_root, "test", "models")))
config.substitutions.append(("%python", config.python_executable))
# Compile + run + interpret + compare one function: %check-e2e MODEL ENTRY WORKDIR [flags]
config.substitutions.append(("%check-e2e", "%s %s" % (
    config.python_executable, os.path.join(config.dlc_src_root, "test", "e2e", "Inputs", "check_e2e.py"))))

# Differential tests (test/diff): random programs and random placements.
config.substitutions.append(("%difftest", "%s %s" % (
    config.python_executable, os.path.join(config.dlc_src_root, "test", "diff", "difftest.py"))))
config.substitutions.append(("%batch-programs", "%s %s" % (
    config.python_executable, os.path.join(config.dlc_src_root, "test", "diff", "batch_programs.py"))))
config.substitutions.append(("%model-placements", "%s %s" % (
    config.python_executable, os.path.join(config.dlc_src_root, "test", "diff", "model_placements.py"))))

# The runtime tests' fake CUDA driver (runtime/test/FakeCuda.cpp), for
# DLC_CUDA_DRIVER=%fake_cuda: GPUs in host memory, without a GPU.
config.substitutions.append(("%fake_cuda", os.path.join(config.dlc_obj_root, "lib", "libdlc_fake_cuda.so")))

if config.dlc_have_cuda:
    config.available_features.add("cuda-toolkit")

# NVRTC loads (compiler/Target/CUDA/Nvrtc.cpp looks for it the same way): tests
# that compile GPU code through it say REQUIRES: nvrtc.
def _dlc_have_nvrtc():
    import ctypes
    import glob
    home = os.environ.get("CUDA_HOME", getattr(config, "dlc_cuda_home", "/usr/local/cuda"))
    candidates = [os.environ["DLC_NVRTC"]] if "DLC_NVRTC" in os.environ else \
        sorted(glob.glob(os.path.join(home, "lib64", "libnvrtc.so.*")))
    for path in candidates:
        try:
            ctypes.CDLL(path)
            return True
        except OSError:
            pass
    return False

if _dlc_have_nvrtc():
    config.available_features.add("nvrtc")
# DLC_NVRTC=/nonexistent runs every suite as on a machine without the CUDA
# toolkit (dlc compile then warns and keeps host code only).
if "DLC_NVRTC" in os.environ:
    config.environment["DLC_NVRTC"] = os.environ["DLC_NVRTC"]

# AArch64: the runtime cross-built by tools/build-aarch64.sh, run under
# qemu-aarch64 (test/e2e/aarch64.mlir). %dlc-run-aarch64 is that dlc-run.
_aarch64_run = os.path.join(config.dlc_src_root, "build-aarch64", "bin", "dlc-run")
import shutil as _shutil
if os.path.exists(_aarch64_run) and _shutil.which("qemu-aarch64") and \
        os.path.isdir("/usr/aarch64-linux-gnu/lib"):
    config.available_features.add("aarch64-qemu")
    config.substitutions.append(("%dlc-run-aarch64", "qemu-aarch64 -L /usr/aarch64-linux-gnu " + _aarch64_run))
