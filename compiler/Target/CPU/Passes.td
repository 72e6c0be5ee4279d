//===- Passes.td - the CPU path: graph rewrites and lowering -------------===//

#ifndef DLC_LOWERING_PASSES_TD
#define DLC_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerDlcToLinalg : Pass<"dlc-lower-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lowers every dlc op to linalg, tensor, arith and math on tensors";
  let description = [{
    The first step of the CPU path (see CpuPipeline.cpp for the whole path).
    Named linalg ops where they exist (matmul, transpose, fill), linalg.generic
    otherwise; f16 and bf16 are computed in f32 and rounded once per op. No dlc
    op remains afterwards.

    ```mlir
    %y = dlc.add %a, %b : tensor<4x8xf32>
    // becomes
    %e = tensor.empty() : tensor<4x8xf32>
    %y = linalg.generic {...} ins(%a, %b : ...) outs(%e : ...) { arith.addf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def ApproximateMath : Pass<"dlc-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replaces math ops by polynomial approximations";
  let description = [{
    exp, log, tanh, erf, ... become arithmetic that vectorises, instead of
    scalar libm calls; what has no approximation is left for libm.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect", "::mlir::x86vector::X86VectorDialect"];
}

def ExpandArith : Pass<"dlc-expand-arith", "mlir::func::FuncOp"> {
  let summary = "Expands ceil/floor integer division and bf16 casts; keeps float max/min";
  let description = [{
    arith-expand-ops without its maximumf/minimumf expansion: those lower to
    llvm.maximum/llvm.minimum, which LLVM vectorises as reductions.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseElementwise : Pass<"dlc-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "linalg-fuse-elementwise-ops that does not recompute a costly broadcast producer";
  let description = [{
    Fuses elementwise linalg.generic chains into one loop nest, as upstream's
    linalg-fuse-elementwise-ops does, except where the consumer reads the
    producer's result broadcast (fewer elements than it iterates) and the
    producer's body is not cheap (it has math ops or a division): fused, the
    producer would run once per consumer iteration (an SE block's
    sigmoid(1x144x1x1) 3136 times per channel inside x * s). See
    FuseElementwise.cpp.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TileAndVectorize : Pass<"dlc-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tiles f32 matmuls to a register tile (8x32 by default) and vectorises them";
  let description = [{
    On tensors, before bufferization: M and N tiled to the register tile
    (`tile-rows` x `tile-columns`; the compile pipeline takes it from the
    target, CpuTiles.h) with the fill of C fused, K tiled by 1, each tile
    vectorised to a vector.contract (masked at ragged edges). See
    TileAndVectorize.cpp.
  }];
  let options = [
    Option<"tileRows", "tile-rows", "int64_t", "8", "rows of C per register tile">,
    Option<"tileColumns", "tile-columns", "int64_t", "32",
           "f32 columns of C per register tile (and of a packed B panel)">,
    Option<"blockBytes", "block-bytes", "int64_t", "65536",
           "bytes of B a blocked matmul packs per block of columns (an eighth of L2)">,
    Option<"vectorBits", "vector-bits", "int64_t", "512",
           "bits of one vector register: a ragged last column of tiles wider than one and "
           "not a multiple of it is split off at a whole number of them">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect"];
}

def CollapseShortRows : Pass<"dlc-collapse-short-rows", "mlir::func::FuncOp"> {
  let summary = "Flattens the two innermost dims of elementwise nests with rows under 32";
  let description = [{
    A top-level all-parallel linalg.generic whose innermost dim is shorter
    than 32 and whose operands (whole tensors, not views) read its two
    innermost dims in order gets them collapsed into one, so that LLVM
    vectorises the long loop instead of a short row and its scalar tail. See
    CollapseShortRows.cpp.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def ParallelizeLoopNests : Pass<"dlc-parallelize-loop-nests", "mlir::func::FuncOp"> {
  let summary = "Splits large elementwise, reduction and transpose nests into parallel chunks";
  let description = [{
    A top-level linalg.generic or linalg.transpose of at least 32K elements
    is tiled along its outermost parallel dimension of 4+ (in whole chunks,
    at most 256 of them) into an scf.for marked `dlc.parallel`, which
    OutlineParallelLoops runs on the runtime's pool. See
    ParallelizeLoopNests.cpp.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def PadPerChunk : Pass<"dlc-pad-per-chunk", "mlir::func::FuncOp"> {
  let summary = "Pads each parallel chunk's channels inside the chunk";
  let description = [{
    A linalg.generic inside a loop (a ParallelizeLoopNests chunk) that reads
    whole padded planes through slices of a spatial tensor.pad made outside
    the loop gets a pad of just its own channels, in the loop: the whole
    padded copy of the tensor (a fill and a copy through L3) goes away. See
    PadPerChunk.cpp.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def SplitAccumulatorChains : Pass<"dlc-split-accumulator-chains", "mlir::func::FuncOp"> {
  let summary = "Gives a thin register tile's K loop several partial sums per accumulator";
  let description = [{
    A loop whose carried values are all vector.contract accumulators taking
    fewer vector registers than the core keeps FMAs in flight (`in-flight`:
    latency x FMAs per cycle) is unrolled 2-4 times with that many partial
    sums per accumulator, added after it; the remaining steps run in the
    original loop. See SplitAccumulatorChains.cpp.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "512", "bits of one vector register">,
    Option<"inFlight", "in-flight", "int64_t", "4",
           "FMAs the core keeps in flight (latency x per cycle): fewer accumulator registers than this are split">,
  ];
}

def DeinterleaveStridedTaps : Pass<"dlc-deinterleave-strided-taps", "mlir::func::FuncOp"> {
  let summary = "Reads stride-2 window taps from copies of the image's even and odd columns";
  let description = [{
    A rank-4 linalg.generic whose taps (slices of one image with a row
    stride of 2: a stride-2 pool or depthwise convolution) are at least 25,
    or read rows of at least 56 outputs, gets the image split once into its
    even and odd columns, and its taps read those with unit stride, instead
    of shuffling every tap's lanes out of the image. See
    DeinterleaveStridedTaps.cpp.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def VectorizeRows : Pass<"dlc-vectorize-rows", "mlir::func::FuncOp"> {
  let summary = "Vectorises elementwise nests with short rows one row at a time";
  let description = [{
    An all-parallel linalg.generic whose innermost dim is under 64 is tiled
    to single rows and vectorised along them, so that LLVM does not unroll
    the row and vectorise across channels with gathers; one that reads
    stride-2 rows (up to 128) too, each read whole and its even lanes
    shuffled out, in whole registers with masked loads and stores. A sum
    along rows of up to 256 becomes one vector.reduction per row. See
    VectorizeRows.cpp.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "512",
           "the target's vector width: rows whose stride-2 views are shuffled in registers are at most eight vectors long">,
    Option<"shiftedRowFloats", "shifted-row-floats", "int64_t", "64",
           "the longest unit-stride row whose taps are shifted in registers (cpu::KernelTiles::shiftedRowFloats)">,
  ];
}

def ConvToMatmul : Pass<"dlc-conv-to-matmul", "mlir::func::FuncOp"> {
  let summary = "Rewrites f32 NCHW convolutions as im2col and matmul";
  let description = [{
    Per image, the input windows are copied into a (C*KH*KW) x (OH*OW)
    matrix and multiplied by the filter seen as F x (C*KH*KW), so that the
    convolution runs on the tiled, vectorised matmul. See ConvToMatmul.cpp.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let options = [
    Option<"tilePixels", "tile-pixels", "int64_t", "8",
           "output pixels per pixel-row register tile (its filters: the packed panel's width)">,
    Option<"steadyPixels", "steady-pixels", "int64_t", "1",
           "the fewest pixels that keep the FMA units busy (cpu::splitRow: how rows are cut into tiles)">,
    Option<"channelBlockBytes", "channel-block-bytes", "int64_t", "0",
           "the most bytes of a filter panel a pixel-row tile reads per block of channels (0: all channels at once)">,
  ];
}

def ReuseProducerBuffer : Pass<"dlc-reuse-producer-buffer", "mlir::func::FuncOp"> {
  let summary = "Elementwise ops write over the single-use result they consume";
  let description = [{
    `generic ins(%mm, %b) outs(%empty)` becomes `generic ins(%b) outs(%mm)`
    when %mm has one use and the same type: epilogues update a matmul's or
    convolution's result in place, and no temporary is allocated. A batched
    matmul's epilogue, and a transpose keeping the last dim of its result,
    move into its batch loops (each matrix updated in place, or inserted in
    its transposed place).
  }];
}

def HoistVectorTransfers : Pass<"dlc-hoist-vector-transfers", "mlir::func::FuncOp"> {
  let summary = "Keeps loop-invariant vector tiles in registers across loops";
  let description = [{
    After bufferization: the C tile of a vectorised matmul is read before
    and written after its K loop instead of in every iteration.
  }];
}

def PrefetchPanelRows : Pass<"dlc-prefetch-panel-rows", "mlir::func::FuncOp"> {
  let summary = "Prefetches the rows of packed weight panels a quarter of L1d (8 KB) ahead";
  let description = [{
    After bufferization: a vector.transfer_read of one whole row of
    contiguous f32 rows, indexed by the loop around it (a register tile's
    K loop over a packed B panel), gets a memref.prefetch per cache line of
    the row 8 KB ahead, for weights of 256 KB or more: weights streamed from
    DRAM no longer stall at each 4 KB page, where the hardware prefetchers
    stop. See PrefetchPanelRows.cpp.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"aheadBytes", "ahead-bytes", "int64_t", "8192",
           "how far ahead of the row read the prefetch runs (the target's KernelTiles)">,
  ];
}

def UnrollTileLoops : Pass<"dlc-unroll-tile-loops", "mlir::func::FuncOp"> {
  let summary = "Runs each register tile's K loop several steps per turn";
  let description = [{
    An scf.for of constant bounds whose body holds exactly one
    vector.contract (a register tile's K loop) and no nested region, with at
    least 2 * `factor` steps, is marked `dlc.unroll_count = factor`, which
    ConvertScfToCf makes LLVM loop metadata: LLVM unrolls it, so that the
    loop's bookkeeping no longer takes dispatch slots from the FMAs on a
    core shared with another thread. The sums keep their order. See
    UnrollTileLoops.cpp.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
  let options = [
    Option<"factor", "factor", "int64_t", "4",
           "steps per turn (the target's KernelTiles::tileLoopUnroll); 1 leaves the loops alone">,
  ];
}

def LowerStridedFills : Pass<"dlc-lower-strided-fills", "mlir::func::FuncOp"> {
  let summary = "Fills of short rows that are not contiguous become kept loops of row stores";
  let description = [{
    After bufferization: a linalg.fill of a static memref whose unit-stride
    rows (at most 16 elements) are all that is contiguous, a padded image's
    left and right borders, becomes a loop nest marked dlc.kept_loop around
    one vector.transfer_write per row, instead of scalar loops that LLVM
    unrolls and turns into scatters. See LowerStridedFills.cpp.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertScfToCf : Pass<"dlc-convert-scf-to-cf"> {
  let summary = "convert-scf-to-cf, with dlc.kept_loop loops annotated for LLVM";
  let description = [{
    Upstream's SCF to control-flow lowering, except that the back edge of an
    scf.for marked dlc.kept_loop carries an `llvm.loop` annotation disabling
    unrolling and vectorisation. See ConvertScfToCf.cpp.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def VectorizeTransposes : Pass<"dlc-vectorize-transposes", "mlir::func::FuncOp"> {
  let summary = "Transposes that move the innermost dim, 8x16 blocks at a time in registers";
  let description = [{
    A static f32 linalg.transpose on tensors whose output's innermost dim is
    another input dim (Kᵀ of attention) becomes loops over 8x16 blocks: 8
    input rows read as vectors, transposed with shuffles, written as 16
    output rows of 8. See VectorizeTransposes.cpp.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def GlobalizeTensorConstants : Pass<"dlc-globalize-tensor-constants", "mlir::ModuleOp"> {
  let summary = "Tensor constants in kernels become reads of memref.globals, one module step";
  let description = [{
    One-shot bufferization turns an `arith.constant` tensor into a
    `memref.get_global`, creating the global in the module. The CPU path
    bufferizes each kernel on its own thread, and two kernels inserting
    globals into the module at once corrupt its op list (CI saw
    "'memref.get_global' op '__constant_4xi64' does not reference a valid
    global memref"). This pass makes the globals first, on one thread:

    ```mlir
    %c = arith.constant dense<[2, 0, 2, 2]> : tensor<4xi64>
    // becomes
    memref.global "private" constant @__constant_4xi64 : memref<4xi64> = dense<[2, 0, 2, 2]>
    %m = memref.get_global @__constant_4xi64 : memref<4xi64>
    %c = bufferization.to_tensor %m restrict : memref<4xi64>
    ```

    The tensor is not writable: bufferization copies it before an in-place
    write, as it does for the constant itself.
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", "64", "alignment of the globals in bytes">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LowerVectors : Pass<"dlc-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "Lowers vector contractions to outer products and FMAs";
  let description = [{
    vector.contract to vector.outerproduct to vector.fma, transfers of rank
    above 1 unrolled, masks and transposes lowered: what convert-vector-to-llvm
    expects, shaped for the FMA units.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

//===----------------------------------------------------------------------===//
// The CPU's graph rewrites: constant weights in the layouts its kernels read
//===----------------------------------------------------------------------===//

def LinearToMatmul : Pass<"dlc-linear-to-matmul", "mlir::func::FuncOp"> {
  let summary = "Rewrites constant-weight linear ops as matmul with Wᵀ and a bias add";
  let description = [{
    `linear(x, W, b)` with a constant `W [N, K]` becomes
    `reshape(add(matmul(reshape(x), Wᵀ), b))`, with `Wᵀ [K, N]` computed at
    compile time, so that the CPU's matmul streams B along rows. The old
    weight constant stays for other users and is erased when unused. Pins are
    kept on every new op. On the CPU, Wᵀ is stored in panels of
    `panel-columns` columns, the matmul's register tile (CpuTiles.h).
  }];
  let options = [
    Option<"panelColumns", "panel-columns", "int64_t", "32",
           "columns of a packed CPU weight panel: dlc-tile-and-vectorize's tile-columns">,
  ];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def PackConvWeights : Pass<"dlc-pack-conv-weights", "mlir::func::FuncOp"> {
  let summary = "Packs constant weights of CPU convolutions in the layout their lowering reads";
  let description = [{
    A CPU `conv2d` with a constant f32 filter gets it packed at compile time
    as its lowering reads it (compiler/Target/CPU/ConvStrategy.h decides which): on rows
    of output pixels, 32-filter panels `[F/32, KH, KW, C, 32]` behind a
    `dlc.transpose` and a `dlc.reshape` back to `[F, C, KH, KW]`; as one
    matmul per tap, `[KH, KW, F, C]` behind a `dlc.transpose`. The view joins
    the convolution's kernel and the CPU lowering reads the packed constant
    directly. Convolutions placed on a GPU are left alone.
  }];
  let dependentDialects = ["::dlc::DlcDialect"];
  let options = [
    Option<"panelFilters", "panel-filters", "int64_t", "32",
           "filters per pixel-row panel: the target's pixel-row tile (CpuTiles.h)">,
    Option<"stridedIm2colPixels", "strided-im2col-pixels", "int64_t",
           "::dlc::cpu::kStridedIm2colPixelsAvx2",
           "output pixels from which a strided 1x1 convolution over 64+ channels "
           "takes im2col (CpuTiles.h, KernelTiles::stridedIm2colPixels)">,
  ];
}

#endif // DLC_LOWERING_PASSES_TD
