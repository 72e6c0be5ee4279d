//===- CpuPipeline.h - CPU kernels to a shared object ---------------------===//
//
//   kernels (func.func on memrefs, destination-passing style, dlc ops inside)
//     --dlc-lower-to-linalg, fuse elementwise chains-->    linalg on tensors
//       (depthwise convs and max pools: one nest over their window's taps)
//     --dlc-conv-to-matmul: pixel-row tiles (epilogue per tile), per-tap
//       shifted matmuls, or im2col + matmul
//     --dlc-tile-and-vectorize: B panels packed, 8x32 register tiles (an
//       in-place epilogue run on each tile's registers before its write)
//     --dlc-parallelize-loop-nests: other big nests in parallel chunks
//     --dlc-vectorize-transposes: transposes moving the innermost dim, 8x16
//       blocks shuffled in registers
//     --dlc-vectorize-rows: nests with short or stride-2 rows, row by row
//       (stride-2 window taps read from the unpadded image)
//     --dlc-pad-per-chunk: chunks of depthwise/pooling pad their own planes
//     --dlc-vectorize-rows: again, for those chunks
//     --eliminate-empty-tensors, one-shot-bufferize-->      linalg on memrefs
//     --dlc-prefetch-panel-rows: K loops over packed weight panels prefetch
//       8 KB ahead (DRAM-streamed weights, past 4 KB page boundaries)
//     --loops, math approximations, to LLVM-->             LLVM dialect
//     + one `<kernel>_entry(void **buffers)` wrapper per kernel (the runtime's ABI)
//     --translate, optimise (O3), codegen for the target CPU--> object code
//     --LLD, in process-->                                 ELF shared object bytes
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_CPUPIPELINE_H
#define DLC_COMPILER_TARGET_CPU_CPUPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/raw_ostream.h"

#include "compiler/Target/CPU/CpuTiles.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc {

struct CpuTargetOptions {
  /// An LLVM CPU name ("znver4", "x86-64-v3") or "native" (this machine's).
  std::string cpu = "native";
  /// Overrides the tiles derived from the target (`dlc compile
  /// --kernel-tiles=RxC`, for tuning experiments): cpuKernelTiles returns it.
  std::optional<cpu::KernelTiles> tiles;
};

/// A compiled CPU library: what the artifact's Library table records.
struct CpuLibrary {
  std::string sharedObject;  // ELF bytes
  std::string targetTriple;
  std::string targetCpu;
  /// The CPU features the code may use (LLVM spelling), for the runtime's check.
  std::vector<std::string> cpuFeatures;
};

/// The suffix of the exported wrapper of each kernel: `extern "C" void
/// <kernel>_entry(void **buffers)`, one pointer per memref argument in order.
inline constexpr const char *kEntrySuffix = "_entry";

/// LLD resets every LLVM command-line option to its default when it links
/// (cl::ResetAllOptionOccurrences). A tool that reads its options after code
/// generation (dlc-opt prints the IR after dlc-codegen, with
/// -mlir-print-debuginfo) gives its arguments here once they are parsed; they
/// are parsed again after each link. (dlc itself copies its flags first.)
void reparseOptionsAfterLinking(int argc, char **argv);

/// The dialects and external interface models (bufferization of linalg,
/// tensor, arith, ...) the CPU path needs; part of registerAllDlcDialects.
void registerCpuPipelineDialects(mlir::DialectRegistry &registry);

/// Lowers every kernel of `module` (public func.func ops whose arguments are
/// statically shaped memrefs) to the LLVM dialect and adds the entry
/// wrappers. Diagnostics go to the module's context.
/// `tiles`: the kernels' shapes for the target (cpuKernelTiles, CpuTarget.h).
/// `timing`: each pass is timed under it (dlc compile --time-stages).
/// `progress`: a terminal's stream, told how many kernels are lowered.
mlir::LogicalResult lowerCpuKernelsToLLVMDialect(mlir::ModuleOp module,
                                                 const cpu::KernelTiles &tiles = cpu::kAvx512Tiles,
                                                 mlir::TimingScope *timing = nullptr,
                                                 llvm::raw_ostream *progress = nullptr);

/// Parallel tile loops (OutlineParallelLoops.cpp; ABI: runtime/include/dlc/
/// parallel.h). ConvToMatmul, TileAndVectorize and ParallelizeLoopNests mark loops whose
/// iterations write disjoint output with this unit attribute.
inline constexpr const char *kParallelLoopAttr = "dlc.parallel";
/// On memrefs: each outermost marked loop's body becomes a function that a
/// launch declaration runs once per iteration.
void outlineParallelLoops(mlir::ModuleOp module);
/// On the LLVM dialect: defines the launches (parallel_for through the
/// runtime's pool, serial without it) and dlc_set_parallel_runtime, and sends
/// malloc/free of temporaries to the runtime's scratch cache.
void finishParallelLaunches(mlir::ModuleOp module);
/// Whether an (LLVM) function is an outlined loop body, not a kernel.
bool isParallelBody(mlir::Operation *func);

/// Moves each kernel, with the functions it calls and copies of the globals
/// and declarations it uses, into a builtin.module of its own inside
/// `module`, so that the module-level conversions to the LLVM dialect run per
/// kernel on the context's threads (KernelModules.cpp). False, with nothing
/// moved, when a function with a body is used by two kernels.
bool nestKernelModules(mlir::ModuleOp module);
/// Moves the nested modules' ops back into `module`, one copy of each
/// global and declaration.
mlir::LogicalResult flattenKernelModules(mlir::ModuleOp module);

/// Translates an LLVM-dialect module, optimises it, and links a shared object.
/// With `llvmIR`, also prints the optimised LLVM IR there; with `timing`,
/// its steps are timed under it.
mlir::FailureOr<CpuLibrary>
compileCpuLibrary(mlir::ModuleOp module, const CpuTargetOptions &options,
                  llvm::raw_ostream *llvmIR = nullptr, mlir::TimingScope *timing = nullptr,
                  llvm::raw_ostream *progress = nullptr);

/// A progress line on a terminal ("\r" then the text, the line cleared
/// after it): `done` of `total` `what`. Thread-safe.
void reportProgress(llvm::raw_ostream *progress, llvm::StringRef what, unsigned done,
                    unsigned total);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_CPUPIPELINE_H
