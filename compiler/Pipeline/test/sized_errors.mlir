// What a kernel sized at run time cannot take (passes/SymbolExtents.cpp),
// refused by name: an operand holding several rows of each unit on one dim,
// a product contracting the symbol with a fixed dim (a Linear's weights), a
// layer norm over it (its count would be the bound's), a constant marked
// with the symbol on a dim of another size, a reshape merging it.
// RUN: not dlc compile %S/Inputs/sized_errors.mlir --entry=rows -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not dlc compile %S/Inputs/sized_errors.mlir --entry=linear -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=LINEAR
// RUN: not dlc compile %S/Inputs/sized_errors.mlir --entry=norm -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=NORM
// RUN: not dlc compile %S/Inputs/sized_errors.mlir --entry=constant_off_bound -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not dlc compile %S/Inputs/sized_errors.mlir --entry=merged -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=MERGED
// ROWS: error: symbolic batch 'seq': op 'softmax_1' (dlc.softmax) mixes the rows of the batch: it normalises over axis 0, the batch; read whole, an operand holds several rows of each unit on one dim
// LINEAR: error: symbolic batch 'seq': op 'linear_2' (dlc.matmul) mixes the rows of the batch: it contracts the batch dimension; read whole, it contracts a dim of the symbol's extent with a dim of fixed size
// NORM: error: symbolic batch 'seq': op 'layer_norm_2' (dlc.layer_norm) mixes the rows of the batch: it normalises over axis 0, the batch; read whole, it normalises over a dim of the symbol's extent (its count would be the bound's)
// CONSTANT: error: symbolic batch 'seq': op 'add_1' (dlc.add) mixes the rows of the batch: an operand's dim 1 would have the symbol's extent but is not its bound
// MERGED: error: symbolic batch 'seq': op 'reshape_2' (dlc.reshape) mixes the rows of the batch: it merges a dim of the symbol's extent with another or splits it
