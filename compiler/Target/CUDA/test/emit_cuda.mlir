// The CUDA C++ of the key kernel kinds (dlc compile --emit=cuda; no NVRTC
// needed): a fused f16 chain in __half2 arithmetic, a softmax with a warp per
// row, a tensor-core GEMM with its bias and GELU in the epilogue.
// RUN: dlc compile %s --entry=chain --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=CHAIN
// RUN: dlc compile %s --entry=softmax --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=SOFTMAX
// RUN: dlc compile %s --entry=gemm --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=GEMM
// RUN: dlc compile %s --entry=big --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=BIG
// RUN: dlc compile %s --entry=chain --emit=cuda | count 0

// CHAIN: #define DLC_MMA_F16(d, a, b, c) DLC_MMA("f16", d, a, b, c)
// CHAIN-LABEL: // k0 (elementwise): dlc.mul '/scale/Mul' -> dlc.add '/shift/Add' -> dlc.relu '/act/Relu'
// CHAIN-NEXT: extern "C" __global__ void __launch_bounds__(256) k0(const __half *__restrict__ p0, const __half *__restrict__ p1, const __half *__restrict__ p2, __half *__restrict__ p3) {
// CHAIN-NEXT:   // vectorised: __half2 arithmetic, 4 elements per thread
// CHAIN-NEXT:   const long long n = 2048;
// CHAIN-NEXT:   for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
// CHAIN:          const __half2 [[X:x[0-9]+]] = reinterpret_cast<const __half2 *>(p0)[2 * i + 0];
// CHAIN:          const __half2 [[MUL:scale_Mul_[0-9]+]] = __hmul2([[X]], {{x[0-9]+}});  // dlc.mul
// CHAIN-NEXT:     const __half2 [[ADD:shift_Add_[0-9]+]] = __hadd2([[MUL]], {{x[0-9]+}});  // dlc.add
// CHAIN-NEXT:     const __half2 [[RELU:act_Relu_[0-9]+]] = __hmax2([[ADD]], __float2half2_rn(0.0f));  // dlc.relu
// CHAIN-NEXT:     reinterpret_cast<__half2 *>(p3)[2 * i + 0] = [[RELU]];
// CHAIN:          reinterpret_cast<__half2 *>(p3)[2 * i + 1] =
func.func @chain(%x: tensor<32x256xf16>, %s: tensor<32x256xf16>, %b: tensor<32x256xf16>) -> tensor<32x256xf16> {
  %m = dlc.mul %x, %s : tensor<32x256xf16> loc("/scale/Mul")
  %a = dlc.add %m, %b : tensor<32x256xf16> loc("/shift/Add")
  %r = dlc.relu %a : tensor<32x256xf16> loc("/act/Relu")
  return %r : tensor<32x256xf16>
}

// The shuffles behind the warp reductions, in the preamble:
// SOFTMAX:       __device__ __forceinline__ float dlc_warp_sum(float v) {
// SOFTMAX-NEXT:    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
// SOFTMAX-LABEL: // k0 (row-reduction): dlc.softmax '/attn/Softmax'
// SOFTMAX-NEXT:  extern "C" __global__ void __launch_bounds__(128) k0(const float *__restrict__ p0, float *__restrict__ p1) {
// SOFTMAX-NEXT:    // one warp per row: 64 rows of 1000
// SOFTMAX-NEXT:    const long long row = blockIdx.x * 4LL + threadIdx.x / 32;
// SOFTMAX:         m = dlc_max(m, p0[row * 1000 + j]);
// SOFTMAX:         m = dlc_warp_max(m);
// SOFTMAX:         s += expf(p0[row * 1000 + j] - m);
// SOFTMAX:         const float inv = 1.0f / dlc_warp_sum(s);
// SOFTMAX:         const float [[V:attn_Softmax_[0-9]+]] = expf(p0[row * 1000 + j] - m) * inv;
// SOFTMAX-NEXT:    p1[c0 * 1000 + c1] = (float)([[V]]);
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %s = dlc.softmax %x : tensor<64x1000xf32> loc("/attn/Softmax")
  return %s : tensor<64x1000xf32>
}

// GEMM-LABEL: // k0 (gemm-mma): dlc.matmul '/fc1/MatMul' -> dlc.add '/fc1/Add' -> dlc.gelu '/act/Gelu'
// GEMM:         // 1 x [128 x 256] * [256 x 512], tensor cores (mma.sync m16n8k16, f32 accumulation), 64x64 tiles
// GEMM:         // 3 stages of A [64][32 + 8] and B [32][64 + 8]
// GEMM:         DLC_DYNAMIC_SHARED(dlc_smem, 29184);
// GEMM:         unsigned short (*Bs)[32][64 + 8] = reinterpret_cast<unsigned short (*)[32][64 + 8]>(dlc_smem + sizeof(unsigned short[3][64][32 + 8]));
// GEMM:         float acc[2][4][4] = {};
// GEMM:         DLC_CP_ASYNC16(&As[s][r][k], in ? &A[(m0 + r) * K + k0 + k] : A, in);
// GEMM:         DLC_CP_ASYNC16(&Bs[s][k][c], in ? &B[(k0 + k) * N + n0 + c] : B, in);
// GEMM:         DLC_CP_ASYNC_WAIT(1);
// GEMM:         const long long next = kt + 2;
// GEMM:         if (next < tiles) load(next % 3, next * 32);
// GEMM:         DLC_LDMATRIX_X4(a[mi][0], a[mi][1], a[mi][2], a[mi][3], &As[s][wm + mi * 16 + lane % 16][kk + lane / 16 * 8]);
// GEMM:         DLC_LDMATRIX_X4_TRANS(b[ni][0], b[ni][1], b[ni + 1][0], b[ni + 1][1], &Bs[s][kk + lane / 8 % 2 * 8 + lane % 8][wn + (ni + lane / 16) * 8]);
// GEMM:         DLC_MMA_F16(acc[mi][ni], a[mi], b[ni], acc[mi][ni]);
// GEMM:         // epilogue: accumulator i of a tile is row g + 8 * (i / 2), column 2 * t + i % 2
// GEMM:         const float [[MM:fc1_MatMul_[0-9]+]] = dlc_round_f16(acc[mi][ni][i]);
// GEMM-NEXT:    const float [[BIAS:x[0-9]+]] = __half2float(p2[c1]);
// GEMM-NEXT:    const float [[ADD:fc1_Add_[0-9]+]] = dlc_round_f16([[MM]] + [[BIAS]]);  // dlc.add
// GEMM-NEXT:    const float [[GELU:act_Gelu_[0-9]+]] = dlc_round_f16(0.5f * [[ADD]] * (1.0f + erff([[ADD]] * 0.707106781f)));  // dlc.gelu
// GEMM-NEXT:    p3[{{.*}}] = __float2half_rn([[GELU]]);
func.func @gemm(%x: tensor<128x256xf16>, %w: tensor<256x512xf16>, %b: tensor<512xf16>) -> tensor<128x512xf16> {
  %m = dlc.matmul %x, %w : (tensor<128x256xf16>, tensor<256x512xf16>) -> tensor<128x512xf16> loc("/fc1/MatMul")
  %a = dlc.add %m, %b : (tensor<128x512xf16>, tensor<512xf16>) -> tensor<128x512xf16> loc("/fc1/Add")
  %g = dlc.gelu %a : tensor<128x512xf16> loc("/act/Gelu")
  return %g : tensor<128x512xf16>
}

// Enough 128x128 tiles for two waves: 8 warps of 64x32, two blocks per
// multiprocessor, k-steps of 64 in two stages; a linear's weight is n-major in
// shared memory and read without .trans.
// BIG-LABEL: // k0 (gemm-mma): dlc.linear 'big'
// BIG:         __launch_bounds__(256, 2)
// BIG:         tensor cores (mma.sync m16n8k16, f32 accumulation), 128x128 tiles
// BIG:         // 2 stages of A [128][64 + 8] and B [128][64 + 8]
// BIG:         DLC_DYNAMIC_SHARED(dlc_smem, 73728);
// BIG:         const int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
// BIG:         float acc[4][4][4] = {};
// BIG:         const int c = l / 8, k = l % 8 * 8;
// BIG:         DLC_CP_ASYNC16(&Bs[s][c][k], in ? &B[(n0 + c) * K + k0 + k] : B, in);
// BIG:         const long long tiles = (K + 63) / 64;
// BIG:         DLC_CP_ASYNC_WAIT(0);
// BIG:         for (int kk = 0; kk < 64; kk += 16)
// BIG:         DLC_LDMATRIX_X4(b[ni][0], b[ni][1], b[ni + 1][0], b[ni + 1][1], &Bs[s][wn + (ni + lane / 16) * 8 + lane % 8][kk + lane / 8 % 2 * 8]);
// A developer's tuning knobs (hidden options); a tiling that cannot work is an error.
// RUN: dlc compile %s --entry=big --devices=cpu,cuda:0 --placement=gpu --emit=cuda --cuda-gemm-depth=32 --cuda-gemm-stages=4 | FileCheck %s --check-prefix=KNOBS
// KNOBS: DLC_DYNAMIC_SHARED(dlc_smem, 81920);
// KNOBS: DLC_CP_ASYNC_WAIT(2);
// RUN: not dlc compile %s --entry=big --devices=cpu,cuda:0 --placement=gpu --emit=cuda --cuda-gemm-depth=64 --cuda-gemm-stages=8 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// TOO-BIG: error: loc("big"): the CUDA GEMM tiling (k-step 64, 8 stages) needs a k-step a multiple of 16, at least 2 stages and at most 227 KiB of shared memory
func.func @big(%x: tensor<2048x512xbf16>, %w: tensor<2048x512xbf16>) -> tensor<2048x2048xbf16> {
  %y = dlc.linear %x, %w : (tensor<2048x512xbf16>, tensor<2048x512xbf16>) -> tensor<2048x2048xbf16> loc("big")
  return %y : tensor<2048x2048xbf16>
}
