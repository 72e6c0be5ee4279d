// DLC_SPIN_US sets how long the runtime pool's idle workers spin; a value
// that is not 0..1000000 microseconds is ignored with a warning, and the
// run goes on with the default. 0 is taken silently.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s -o %t/m.dlcm
// RUN: env DLC_SPIN_US=fast dlc run %t/m.dlcm --threads=2 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: dlc runtime: ignoring DLC_SPIN_US='fast' (microseconds an idle worker spins: 0 to 1000000); spinning 50 us
// BAD: output 0 'y': f32 [64]
// RUN: env DLC_SPIN_US=0 dlc run %t/m.dlcm --threads=2 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO-NOT: ignoring
// ZERO: output 0 'y': f32 [64]
func.func @main(%x: tensor<64xf32> {dlc.name = "x"}) -> (tensor<64xf32> {dlc.name = "y"}) {
  %y = dlc.relu %x : tensor<64xf32>
  return %y : tensor<64xf32>
}
