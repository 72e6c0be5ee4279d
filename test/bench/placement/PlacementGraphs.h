//===- PlacementGraphs.h - the paper's placement JSON files ------*- C++ -*-===//
//
// Reads the profiled graphs of Tarnawski et al. (NeurIPS 2020; format in
// ../shared/data/placement-graphs/README.md) into the placement core's model.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_PASSES_PLACEMENTGRAPHS_H
#define DLC_PASSES_PLACEMENTGRAPHS_H

#include "passes/PlacementCore.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace dlc::placement {

/// `maxFPGAs` accelerators of `maxSizePerFPGA` bytes, `maxCPUs` cores, nodes
/// and edges as in the file. Errors name the file and the field
/// (`g.json: nodes[3].cpuLatency: missing field`); a node without
/// `colorClass` gets a class of its own, one without `size` size 0.
llvm::Expected<Graph> parsePlacementGraph(llvm::StringRef text, llvm::StringRef name);
llvm::Expected<Graph> readPlacementGraph(llvm::StringRef path);

} // namespace dlc::placement

#endif // DLC_PASSES_PLACEMENTGRAPHS_H
