// dlc run binds each cuda:N to a real GPU unless told otherwise, and never falls
// back silently: no driver, or fewer GPUs than the artifact needs, is an error
// naming both; --gpu-map=0,0 puts both logical GPUs on GPU 0; --gpu=sim simulates.
// The driver comes from DLC_CUDA_DRIVER: a missing library, then the runtime
// tests' fake driver (%fake_cuda, 1 GPU of compute capability 9.0), which loads
// only its own text modules, so this artifact's real CUBIN, or PTX, fails to load
// with the JIT log in the error.
// REQUIRES: nvrtc
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s --devices=cpu,cuda:0,cuda:1 --pin='first=cuda:0' --pin='second=cuda:1' -o %t/m.dlcm
// RUN: env DLC_CUDA_DRIVER=%t/no-libcuda.so not dlc run %t/m.dlcm 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: run: model '{{.*}}m.dlcm' needs 2 GPUs (cuda:0, cuda:1) and there is no usable CUDA driver (no CUDA driver: cannot load {{.*}}no-libcuda.so ({{.*}})); simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run --gpu=sim)
// RUN: env DLC_CUDA_DRIVER=%t/no-libcuda.so not dlc-run --list-gpus 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: dlc-run: no CUDA driver: cannot load {{.*}}no-libcuda.so
// RUN: env DLC_CUDA_DRIVER=%t/no-libcuda.so dlc run %t/m.dlcm --gpu=sim | FileCheck %s --check-prefix=SIM
// SIM: output 0 'y': f32 [8]
// RUN: env DLC_CUDA_DRIVER=%fake_cuda DLC_FAKE_CUDA_DEVICES=1 not dlc run %t/m.dlcm 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: run: model '{{.*}}m.dlcm' needs 2 GPUs (cuda:0, cuda:1) and this machine has 1 GPU; remap them onto fewer with gpu_map (dlc-run --gpu-map=0,0) or simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run --gpu=sim)
// RUN: env DLC_CUDA_DRIVER=%fake_cuda DLC_FAKE_CUDA_DEVICES=1 not dlc run %t/m.dlcm --gpu-map=0,3 2>&1 | FileCheck %s --check-prefix=MAP
// MAP: needs 2 GPUs (cuda:0, cuda:1), mapped by gpu_map onto GPUs up to 3, and this machine has 1 GPU
// RUN: env DLC_CUDA_DRIVER=%fake_cuda DLC_FAKE_CUDA_DEVICES=1 not dlc run %t/m.dlcm --gpu-map=0,0 2>&1 | FileCheck %s --check-prefix=CUBIN
// CUBIN: run: cuda:{{[01]}} (GPU 0, Fake GPU, sm_90): CUDA module 0: loading the CUBIN for sm_90: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX ({{.*}}); JIT log:
// CUBIN-NEXT: fake ptxas: line 1: expected 'dlc-fake-cuda-module'
// RUN: dlc compile %s --devices=cpu,cuda:0 --placement=gpu --cuda-arch=sm_80 -o %t/one.dlcm
// RUN: env DLC_CUDA_DRIVER=%fake_cuda DLC_FAKE_CUDA_DEVICES=1 not dlc run %t/one.dlcm 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: run: cuda:0 (GPU 0, Fake GPU, sm_90): CUDA module 0: loading the PTX (compute_80, no CUBIN for sm_90): cuModuleLoadDataEx failed
// PTX-NEXT: fake ptxas: line 1: expected 'dlc-fake-cuda-module', got '//
// RUN: not dlc-run --gpu-map=0,x %t/m.dlcm 2>&1 | FileCheck %s --check-prefix=BADMAP
// BADMAP: dlc-run: --gpu-map expects GPU numbers separated by commas (e.g. 0,0), got '0,x'
func.func @main(%x: tensor<8xf32> {dlc.name = "x"}) -> (tensor<8xf32> {dlc.name = "y"}) {
  %a = dlc.relu %x : tensor<8xf32> loc("first")
  %b = dlc.add %a, %x : tensor<8xf32> loc("second")
  return %b : tensor<8xf32>
}
