// The tensor-core GEMM's tilings in the host emulation of CUDA (ldmatrix,
// cp.async stages, dynamic shared memory), against the reference interpreter:
// 128x128 tiles (256 batches of one tile each; a linear's n-major weight with
// K = 40) and a ragged f16 product whose K = 37 takes the scalar loads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s batched %t/batched --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=BATCHED
// RUN: %check-e2e %s linear %t/linear --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=LINEAR
// RUN: %check-e2e %s ragged %t/ragged --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=RAGGED
// RUN: dlc compile %s --entry=ragged --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=SCALAR
// BATCHED: batched c: ok
// LINEAR: linear y: ok
// RAGGED: ragged y: ok
// SCALAR: 128x128 tiles
// SCALAR: As[s][r][k] = (m0 + r < M && k0 + k < K) ? A[(m0 + r) * K + k0 + k] : (unsigned short)0;
// SCALAR: Bs[s][k][c] = (k0 + k < K && n0 + c < N) ? B[(k0 + k) * N + n0 + c] : (unsigned short)0;
func.func @batched(%a: tensor<256x128x32xf16> {dlc.name = "a"}, %b: tensor<256x32x128xf16> {dlc.name = "b"}) -> (tensor<256x128x128xf16> {dlc.name = "c"}) {
  %c = dlc.matmul %a, %b : (tensor<256x128x32xf16>, tensor<256x32x128xf16>) -> tensor<256x128x128xf16>
  return %c : tensor<256x128x128xf16>
}
func.func @linear(%x: tensor<1024x40xbf16> {dlc.name = "x"}, %w: tensor<4096x40xbf16> {dlc.name = "w"}) -> (tensor<1024x4096xbf16> {dlc.name = "y"}) {
  %y = dlc.linear %x, %w : (tensor<1024x40xbf16>, tensor<4096x40xbf16>) -> tensor<1024x4096xbf16>
  return %y : tensor<1024x4096xbf16>
}
func.func @ragged(%x: tensor<1000x37xf16> {dlc.name = "x"}, %w: tensor<37x4100xf16> {dlc.name = "w"}) -> (tensor<1000x4100xf16> {dlc.name = "y"}) {
  %y = dlc.matmul %x, %w : (tensor<1000x37xf16>, tensor<37x4100xf16>) -> tensor<1000x4100xf16>
  return %y : tensor<1000x4100xf16>
}
