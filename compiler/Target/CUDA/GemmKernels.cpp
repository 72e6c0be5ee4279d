//===- GemmKernels.cpp - matmul and linear ---------------------------------===//
//
// FFMA tiles for f32 and integers, mma.sync tensor cores for f16/bf16, the
// fused ops in the epilogue.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CUDA/KernelEmitter.h"

#include "llvm/Support/CommandLine.h"

using namespace dlc::cuda::detail;
using namespace dlc;

// Tuning knobs of the 128x128 tensor-core tiling, for measuring on a GPU.
static llvm::cl::opt<int64_t> gemmDepth("cuda-gemm-depth", llvm::cl::Hidden, llvm::cl::init(64),
                                        llvm::cl::desc("k-step of the CUDA GEMM's 128x128 tiles"));
static llvm::cl::opt<int64_t> gemmStages("cuda-gemm-stages", llvm::cl::Hidden, llvm::cl::init(2),
                                         llvm::cl::desc("cp.async stages of the CUDA GEMM's 128x128 tiles"));

LogicalResult KernelEmitter::emitMatmul() {
  // matmul: [..., M, K] x [..., K, N]. linear (a non-constant weight, which
  // dlc-linear-to-matmul leaves): [..., K] x [N, K]^T + bias, rows flattened.
  // conv2d, as an implicit GEMM per group (blockIdx.z): rows are the output
  // pixels (image, y, x), columns the group's output channels, K runs over
  // (input channel, ky, kx); the A tile is gathered from the input as it is
  // loaded (no im2col buffer) and the filter is B, transposed like linear's.
  auto linear = dyn_cast<LinearOp>(anchor);
  auto conv = dyn_cast<Conv2dOp>(anchor);
  Value a = anchor->getOperand(0), b = anchor->getOperand(1), res = anchor->getResult(0);
  Value bias = linear ? linear.getBias() : conv ? conv.getBias() : Value();
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b), rs = shapeOf(res);
  Type t = elemOf(a);
  bool mma = t.isF16() || t.isBF16();
  if (!mma && !t.isF32() && !t.isSignlessInteger(32) && !t.isSignlessInteger(64))
    return anchor->emitError() << "the CUDA backend has no matmul for '" << t << "' ('"
                               << opNames.lookup(anchor) << "')";
  bool transposedB = linear || conv;
  int64_t M, N, K, batches;
  ArrayRef<int64_t> batch;
  if (conv) {
    int64_t groups = conv.getGroups();
    N = bs[0] / groups;
    K = bs[1] * bs[2] * bs[3];
    M = rs[0] * rs[2] * rs[3];
    batches = groups;
  } else {
    K = as.back();
    N = linear ? bs[0] : rs.back();
    M = linear ? countOf(as) / K : rs[rs.size() - 2];
    batch = linear ? ArrayRef<int64_t>() : rs.drop_back(2);
    batches = countOf(batch);
  }
  // Tensor-core GEMMs with enough 128x128 tiles to fill a GPU twice over take
  // them: 8 warps of 64x32, two blocks per multiprocessor (at most 128
  // registers a thread), by default k-steps of 64 in two stages (70-80 KiB of
  // shared memory). On an H200 (f16, 4096^3) that ran at 242 TFLOP/s, against
  // 225 with three stages, 206 with k-steps of 32 in four, 143-192 at one
  // block per multiprocessor. Smaller GEMMs take 64x64 tiles (4 warps of
  // 32x32, k-steps of 32 in three stages).
  MmaTiling tiling = mma && ((M + 127) / 128) * ((N + 127) / 128) * batches >= 256
                         ? MmaTiling{128, 128, 2, 4, gemmDepth, gemmStages}
                         : MmaTiling{64, 64, 2, 2, 32, 3};
  if (mma && (tiling.depth % 16 || tiling.depth < 16 || tiling.stages < 2 ||
              tiling.stages * tiling.stageBytes(transposedB) > 227 * 1024))
    return anchor->emitError() << "the CUDA GEMM tiling (k-step " << tiling.depth << ", " << tiling.stages
                               << " stages) needs a k-step a multiple of 16, at least 2 stages and at most "
                                  "227 KiB of shared memory";
  if (mma) {
    result.sharedBytes = static_cast<uint32_t>(tiling.stages * tiling.stageBytes(transposedB));
    result.minBlocksPerSM = tiling.rows == 128 ? 2 : 0;
  }
  int64_t tile = tiling.rows;
  result.kind = std::string(mma ? "gemm-mma" : "gemm-ffma") + (conv ? " (implicit conv2d)" : "");
  result.grid = {static_cast<uint32_t>((N + tile - 1) / tile), static_cast<uint32_t>((M + tile - 1) / tile),
                 static_cast<uint32_t>(batches)};
  result.block = mma ? std::array<uint32_t, 3>{tiling.threads(), 1, 1} : std::array<uint32_t, 3>{16, 16, 1};
  line("// " + num(batches) + " x [" + num(M) + " x " + num(K) + "] * [" + num(K) + " x " + num(N) + "]" +
       (conv ? " (conv2d as an implicit GEMM, one group per blockIdx.z)"
             : linear ? " (weight [N x K], transposed)" : "") +
       (mma ? ", tensor cores (mma.sync m16n8k16, f32 accumulation)" : t.isF32() ? ", FFMA" : ", integer") +
       ", " + num(tile) + "x" + num(tile) + " tiles");
  line("const long long M = " + num(M) + ", N = " + num(N) + ", K = " + num(K) + ";");
  line("const long long m0 = blockIdx.y * " + num(tile) + "LL, n0 = blockIdx.x * " + num(tile) + "LL;");
  Coords bc = coordsOf("(long long)blockIdx.z", batch, "b");
  auto batchOffset = [&](ArrayRef<int64_t> shape) -> std::string {
    if (linear || conv) return "0";
    ArrayRef<int64_t> own = shape.drop_back(2);
    Coords oc = project(batch, bc, own);
    std::string o = offsetOf(own, oc);
    return o == "0" ? std::string("0") : "(" + o + ") * " + num(shape[shape.size() - 2] * shape.back());
  };
  std::string ct = computeType(t);
  std::string st = mma ? "unsigned short" : ct;
  // Element (m0 + r, k0 + k) of the left operand, (k0 + k, n0 + c) of the right.
  std::string aAt = "A[(m0 + r) * K + k0 + k]";
  std::string bAt = transposedB ? "B[(n0 + c) * K + k0 + k]" : "B[(k0 + k) * N + n0 + c]";
  if (conv) {
    // The input pixel behind A's element: row -> (image, y, x), k -> (channel
    // of the group, ky, kx); padding reads zero.
    ArrayRef<int64_t> st2 = conv.getStrides(), pads = conv.getPads(), dil = conv.getDilations();
    std::string gather = identifier(entry) + "_input";
    globals += "// conv2d input element for implicit-GEMM row m, column k of group g; 0 in the padding\n"
               "__device__ __forceinline__ " + st + " " + gather + "(const " + st +
               " *x, long long m, long long k, long long g) {\n";
    globals += "  const long long ox = m % " + num(rs[3]) + ", oy = m / " + num(rs[3]) + " % " +
               num(rs[2]) + ", image = m / " + num(rs[2] * rs[3]) + ";\n";
    globals += "  const long long kx = k % " + num(bs[3]) + ", ky = k / " + num(bs[3]) + " % " +
               num(bs[2]) + ", channel = g * " + num(bs[1]) + " + k / " + num(bs[2] * bs[3]) + ";\n";
    globals += "  const long long iy = oy * " + num(st2[0]) + " - " + num(pads[0]) + " + ky * " +
               num(dil[0]) + ", ix = ox * " + num(st2[1]) + " - " + num(pads[1]) + " + kx * " +
               num(dil[1]) + ";\n";
    globals += "  if (iy < 0 || iy >= " + num(as[2]) + " || ix < 0 || ix >= " + num(as[3]) +
               ") return (" + st + ")0;\n";
    globals += "  return x[((image * " + num(as[1]) + " + channel) * " + num(as[2]) + " + iy) * " +
               num(as[3]) + " + ix];\n}\n";
    aAt = gather + "(A, m0 + r, k0 + k, blockIdx.z)";
  }
  line("const " + st + " *A = reinterpret_cast<const " + st + " *>(" + bufferOf(a) + ") + " + batchOffset(as) + ";");
  line("const " + st + " *B = reinterpret_cast<const " + st + " *>(" + bufferOf(b) + ") + " +
       (conv ? "blockIdx.z * N * K" : batchOffset(bs)) + ";");
  auto epilogue = [&](const std::string &row, const std::string &col, const std::string &acc) {
    open("if (" + row + " < M && " + col + " < N)");
    scoped([&] {
      line("const long long row = " + row + ", col = " + col + ";");
      std::string at = fresh("at");
      if (conv) // [image, group * N + col, y, x]
        line("const long long " + at + " = ((row / " + num(rs[2] * rs[3]) + " * " + num(rs[1]) +
             " + blockIdx.z * N + col) * " + num(rs[2] * rs[3]) + ") + row % " + num(rs[2] * rs[3]) + ";");
      else
        line("const long long " + at + " = (" + (batch.empty() ? std::string("0") : "(long long)blockIdx.z") +
             " * M + row) * N + col;");
      Coords c = coordsOf(at, rs, "c");
      std::string value = acc;
      if (bias)
        value = acc + " + " + loadAs(elemOf(bias), bufferOf(bias) + "[" + (conv ? "blockIdx.z * N + col" : "col") + "]");
      anchorValue = res;
      anchorCoords = c;
      anchorVar = fresh(opNames.lookup(anchor));
      line("const " + ct + " " + anchorVar + " = " + roundTo(elemOf(res), value) + ";");
      storeOutputs(rs, c);
    });
    close();
  };
  if (!mma) {
    line("__shared__ " + ct + " As[16][64 + 1];  // k-major: the 16 threads of a row read one bank");
    line("__shared__ " + ct + " Bs[16][64];");
    line("const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;");
    line(ct + " acc[4][4] = {};");
    open("for (long long k0 = 0; k0 < K; k0 += 16)");
    open("for (int l = tid; l < 64 * 16; l += 256)");
    line("const int r = l / 16, k = l % 16;");
    line("As[k][r] = (m0 + r < M && k0 + k < K) ? " + aAt + " : (" + ct + ")0;");
    close();
    open("for (int l = tid; l < 16 * 64; l += 256)");
    line("const int k = l / 64, c = l % 64;");
    line("Bs[k][c] = (k0 + k < K && n0 + c < N) ? " + bAt + " : (" + ct + ")0;");
    close();
    line("__syncthreads();");
    open("for (int k = 0; k < 16; ++k)");
    line(ct + " a[4], b[4];");
    line("for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];");
    line("for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];");
    line("for (int i = 0; i < 4; ++i)");
    line(t.isF32() ? "  for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);"
                   : "  for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];");
    close();
    line("__syncthreads();");
    close();
    line("// epilogue: the fused ops, then the stores");
    open("for (int i = 0; i < 4; ++i)");
    open("for (int j = 0; j < 4; ++j)");
    epilogue("m0 + ty + 16 * i", "n0 + tx + 16 * j", "acc[i][j]");
    close();
    close();
    return success(!hadError);
  }
  // Vector loads where rows are 16-byte aligned: K a multiple of 8 for A and
  // the transposed B, N for B; a vector is then wholly inside the matrix or
  // wholly outside (zeros).
  MmaOperands operands{aAt, bAt, !conv && K % 8 == 0, transposedB ? K % 8 == 0 : N % 8 == 0, transposedB};
  emitMmaTiles(tiling, operands, t.isBF16() ? "DLC_MMA_BF16" : "DLC_MMA_F16");
  line("// epilogue: accumulator i of a tile is row g + 8 * (i / 2), column 2 * t + i % 2");
  open("for (int mi = 0; mi < " + num(tiling.fragmentsM()) + "; ++mi)");
  open("for (int ni = 0; ni < " + num(tiling.fragmentsN()) + "; ++ni)");
  open("for (int i = 0; i < 4; ++i)");
  epilogue("m0 + wm + mi * 16 + g + 8 * (i / 2)", "n0 + wn + ni * 8 + 2 * t + i % 2", "acc[mi][ni][i]");
  close();
  close();
  close();
  return success(!hadError);
}

void KernelEmitter::emitMmaTileLoads(const MmaTiling &tiling, const MmaOperands &ops) {
  // Stage s of the shared tiles from (m0, k0) of A and (k0, n0) of B: A row
  // major [rows][depth + 8], B k-major [depth][columns + 8] or, transposed,
  // n-major [columns][depth + 8]. The padding keeps ldmatrix's eight row
  // reads in distinct banks and every row 16-byte aligned.
  std::string threads = num(tiling.threads()), rows = num(tiling.rows), cols = num(tiling.columns);
  std::string depth = num(tiling.depth), vectors = num(tiling.depth / 8);
  open("auto load = [&](int s, long long k0)");
  if (ops.vectorA) {
    open("for (int l = threadIdx.x; l < " + rows + " * " + vectors + "; l += " + threads + ")");
    line("const int r = l / " + vectors + ", k = l % " + vectors + " * 8;");
    line("const bool in = m0 + r < M && k0 + k < K;");
    line("DLC_CP_ASYNC16(&As[s][r][k], in ? &A[(m0 + r) * K + k0 + k] : A, in);");
  } else {
    open("for (int l = threadIdx.x; l < " + rows + " * " + depth + "; l += " + threads + ")");
    line("const int r = l / " + depth + ", k = l % " + depth + ";");
    line("As[s][r][k] = (m0 + r < M && k0 + k < K) ? " + ops.aAt + " : (unsigned short)0;");
  }
  close();
  if (ops.vectorB && !ops.transposedB) {
    open("for (int l = threadIdx.x; l < " + depth + " * " + cols + " / 8; l += " + threads + ")");
    line("const int k = l / " + num(tiling.columns / 8) + ", c = l % " + num(tiling.columns / 8) + " * 8;");
    line("const bool in = k0 + k < K && n0 + c < N;");
    line("DLC_CP_ASYNC16(&Bs[s][k][c], in ? &B[(k0 + k) * N + n0 + c] : B, in);");
  } else if (ops.vectorB) {
    open("for (int l = threadIdx.x; l < " + cols + " * " + vectors + "; l += " + threads + ")");
    line("const int c = l / " + vectors + ", k = l % " + vectors + " * 8;");
    line("const bool in = k0 + k < K && n0 + c < N;");
    line("DLC_CP_ASYNC16(&Bs[s][c][k], in ? &B[(n0 + c) * K + k0 + k] : B, in);");
  } else {
    open("for (int l = threadIdx.x; l < " + depth + " * " + cols + "; l += " + threads + ")");
    line(ops.transposedB ? "const int c = l / " + depth + ", k = l % " + depth + ";"
                         : "const int k = l / " + cols + ", c = l % " + cols + ";");
    line(std::string(ops.transposedB ? "Bs[s][c][k]" : "Bs[s][k][c]") + " = (k0 + k < K && n0 + c < N) ? " +
         ops.bAt + " : (unsigned short)0;");
  }
  close();
  close(";");
}

void KernelEmitter::emitMmaSharedTiles(const MmaTiling &tiling, bool transposedB) {
  std::string rows = num(tiling.rows), cols = num(tiling.columns), stages = num(tiling.stages);
  std::string row = "[" + num(tiling.depth) + " + 8]";
  std::string aRow = "[" + rows + "]" + row;
  std::string bRow = transposedB ? "[" + cols + "]" + row : "[" + num(tiling.depth) + "][" + cols + " + 8]";
  line("// " + stages + " stages of A " + aRow + " and B " + bRow +
       ", raw f16/bf16 bits; the padding keeps ldmatrix's rows in distinct banks");
  std::string bytes = num(tiling.stages * tiling.stageBytes(transposedB));
  line("DLC_DYNAMIC_SHARED(dlc_smem, " + bytes + ");");
  line("static_assert(sizeof(unsigned short[" + stages + "]" + aRow + ") + sizeof(unsigned short[" + stages + "]" +
       bRow + ") <= " + bytes + ", \"the stages exceed the shared memory asked for\");");
  line("unsigned short (*As)" + aRow + " = reinterpret_cast<unsigned short (*)" + aRow + ">(dlc_smem);");
  line("unsigned short (*Bs)" + bRow + " = reinterpret_cast<unsigned short (*)" + bRow + ">(dlc_smem + sizeof(unsigned short[" +
       stages + "]" + aRow + "));");
}

void KernelEmitter::emitMmaTiles(const MmaTiling &tiling, const MmaOperands &ops, const std::string &mmaMacro) {
  int64_t fm = tiling.fragmentsM(), fn = tiling.fragmentsN();
  std::string stages = num(tiling.stages), depth = num(tiling.depth);
  emitMmaSharedTiles(tiling, ops.transposedB);
  line("const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;");
  line("const int g = lane / 4, t = lane % 4;  // the PTX fragment layout's groupID, threadID_in_group");
  line("const int wm = (warp / " + num(tiling.warpsN) + ") * " + num(16 * fm) + ", wn = (warp % " +
       num(tiling.warpsN) + ") * " + num(8 * fn) + ";  // this warp's part of the tile");
  line("float acc[" + num(fm) + "][" + num(fn) + "][4] = {};");
  emitMmaTileLoads(tiling, ops);
  line("// a ring of stages: tiles k + 1 ... k + " + num(tiling.stages - 1) +
       " are in flight (cp.async) while tile k is multiplied");
  line("const long long tiles = (K + " + num(tiling.depth - 1) + ") / " + depth + ";");
  open("for (int st = 0; st < " + num(tiling.stages - 1) + "; ++st)");
  line("if (st < tiles) load(st, st * " + depth + "LL);");
  line("DLC_CP_ASYNC_COMMIT();");
  close();
  open("for (long long kt = 0; kt < tiles; ++kt)");
  line("DLC_CP_ASYNC_WAIT(" + num(tiling.stages - 2) + ");  // tile kt has landed");
  line("__syncthreads();  // for every thread, and all are done with tile kt - 1's stage");
  line("const long long next = kt + " + num(tiling.stages - 1) + ";");
  line("if (next < tiles) load(next % " + stages + ", next * " + depth + ");");
  line("DLC_CP_ASYNC_COMMIT();");
  line("const int s = kt % " + stages + ";");
  open("for (int kk = 0; kk < " + depth + "; kk += 16)");
  line("unsigned a[" + num(fm) + "][4], b[" + num(fn) + "][2];");
  line("for (int mi = 0; mi < " + num(fm) + "; ++mi)");
  line("  DLC_LDMATRIX_X4(a[mi][0], a[mi][1], a[mi][2], a[mi][3], &As[s][wm + mi * 16 + lane % 16][kk + lane / 16 * 8]);");
  line("// lanes 8j..8j+7 address matrix j: k half j % 2 of fragment column ni + j / 2");
  open("for (int ni = 0; ni < " + num(fn) + "; ni += 2)");
  if (ops.transposedB)
    line("DLC_LDMATRIX_X4(b[ni][0], b[ni][1], b[ni + 1][0], b[ni + 1][1], "
         "&Bs[s][wn + (ni + lane / 16) * 8 + lane % 8][kk + lane / 8 % 2 * 8]);");
  else
    line("DLC_LDMATRIX_X4_TRANS(b[ni][0], b[ni][1], b[ni + 1][0], b[ni + 1][1], "
         "&Bs[s][kk + lane / 8 % 2 * 8 + lane % 8][wn + (ni + lane / 16) * 8]);");
  close();
  line("for (int mi = 0; mi < " + num(fm) + "; ++mi)");
  line("  for (int ni = 0; ni < " + num(fn) + "; ++ni) " + mmaMacro + "(acc[mi][ni], a[mi], b[ni], acc[mi][ni]);");
  close();
  close();
}

/// Row reductions need their reduced axes trailing and contiguous.
