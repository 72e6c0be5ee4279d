//===- PlacementGraphsBench.cpp - dlc's placer on the paper's graphs ------===//
//
// Issue 4, benchmark item 2. The profiled graphs of real networks published
// with Tarnawski et al. (NeurIPS 2020), ../shared/data/placement-graphs/, read
// into the placement core (passes/PlacementCore.h, the same algorithms dlc
// uses) and scored with the paper's objectives:
//
//   latency/*.json:    the paper's greedy baseline, reimplemented (its
//                      latency next to the published figure proves that the
//                      scorer is theirs), then dlc's `cost` placement
//                      (list schedule + moves and swaps) next to it;
//   throughput/*.json: dlc's `pipeline:k` (DP over contiguous splits of
//                      topological orders + moves) next to the paper's
//                      optimal contiguous split (their DP).
//
// Every placement is checked (colocation, support, memory; pipeline splits
// contiguous). Times are in the files' units. `RESULT placement-graphs ...`
// lines go to test/bench/run.sh's table.
//
//   dlc-bench-placement-graphs [--quick] [--data=DIR]
//
//===----------------------------------------------------------------------===//

#include "passes/PlacementCore.h"
#include "placement/PaperLatency.h"
#include "placement/PlacementGraphs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace dlc::placement;

namespace {

/// The published figures (../shared/data/placement-graphs/README.md): their
/// DP's optimal contiguous split (NaN: not known; inceptionv3 has the
/// PipeDream-style split instead) and their greedy latency baseline.
struct Reference {
  const char *name;
  double throughput;
  bool throughputOptimal;
  double greedy;
};
const Reference kReferences[] = {
    {"layer-bert24_inference", 17.79, true, 100.22},
    {"layer-gnmt_inference", 32.91, true, 268.50},
    {"layer-inceptionv3_inference", 60.42, false, 2485.24},
    {"layer-resnet50_inference", 33.77, true, 4197.06},
    {"op-bert_l-3_inference", 27.92, true, 416.20},
    {"op-bert_l-6_inference", NAN, false, 494.14},
    {"op-bert_l-12_inference", NAN, false, 867.84},
    {"op-resnet50_inference", 124.35, true, 839.54},
};

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

bool check(const Graph &g, const Assignment &a, const std::string &what) {
  std::string why = checkAssignment(g, a);
  if (!why.empty()) {
    std::fprintf(stderr, "%s: invalid placement: %s\n", what.c_str(), why.c_str());
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  std::string data = DLC_PLACEMENT_GRAPHS;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strncmp(argv[i], "--data=", 7))
      data = argv[i] + 7;
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--data=DIR]\n", argv[0]);
      return 2;
    }
  }
  if (!llvm::sys::fs::is_directory(data)) {
    std::fprintf(stderr, "placement graphs: no folder %s (pass --data=DIR)\n", data.c_str());
    return 1;
  }
  bool ok = true;
  // Runs `body` on each file of `folder` (--quick: layer-bert24 only); a file
  // that does not read is reported and fails the run.
  auto forEachGraph = [&](const char *folder, auto body) {
    for (const Reference &ref : kReferences) {
      if (quick && std::strcmp(ref.name, "layer-bert24_inference"))
        continue;
      std::string path = data + "/" + folder + "/" + ref.name + ".json";
      auto graph = readPlacementGraph(path);
      if (!graph) {
        std::fprintf(stderr, "%s\n", llvm::toString(graph.takeError()).c_str());
        ok = false;
        continue;
      }
      body(ref, path, *graph);
    }
  };

  std::printf("latency (one sample; the paper's model: CPU nodes in parallel)\n");
  std::printf("%-28s %10s %10s %7s | %10s %8s %8s %10s %10s  %s\n", "file", "greedy",
              "published", "diff", "dlc cost", "/greedy", "ms", "maxCPUs", "best seed",
              "from");
  forEachGraph("latency", [&](const Reference &ref, const std::string &path, Graph &g) {
    Blocks blocks = makeBlocks(g);
    Assignment greedy = greedyLatencyBaseline(g, blocks);
    double greedyLatency = latency(g, greedy);
    auto start = std::chrono::steady_clock::now();
    Stats stats;
    Assignment placed = placeLatency(g, blocks, &stats);
    double ms = msSince(start);
    ok = check(g, greedy, path + " (greedy)") && check(g, placed, path + " (cost)") && ok;
    double dlc = latency(g, placed);
    double cores = latency(g, placed, g.cpuCores);
    double diff = greedyLatency / ref.greedy - 1;
    std::printf("%-28s %10.2f %10.2f %+6.2f%% | %10.2f %7.3fx %8.1f %10.2f %10.2f  %s\n",
                ref.name, greedyLatency, ref.greedy, 100 * diff, dlc, dlc / ref.greedy, ms,
                cores, stats.seedObjective, stats.seed.c_str());
    std::printf("RESULT placement-graphs kind=latency file=%s greedy=%.4f greedy_ref=%.2f "
                "greedy_diff=%.5f dlc=%.4f ratio=%.4f place_ms=%.2f dlc_cores=%.4f seed=%.4f\n",
                ref.name, greedyLatency, ref.greedy, diff, dlc, dlc / ref.greedy, ms, cores,
                stats.seedObjective);
  });

  std::printf("\nthroughput (max load; pipeline:k over k accelerators + the CPU)\n");
  std::printf("%-28s %10s %10s %8s %8s %10s %8s %10s\n", "file", "dlc", "published", "ratio",
              "ms", "DP seed", "moves", "accs only");
  forEachGraph("throughput", [&](const Reference &ref, const std::string &path, Graph &g) {
    Blocks blocks = makeBlocks(g);
    auto start = std::chrono::steady_clock::now();
    Stats stats;
    Assignment placed = placePipeline(g, blocks, &stats);
    double ms = msSince(start);
    if (placed.empty()) {
      std::fprintf(stderr, "%s: pipeline: no split fits\n", path.c_str());
      ok = false;
      return;
    }
    ok = check(g, placed, path + " (pipeline)") && ok;
    if (!isContiguousSplit(g, placed)) {
      std::fprintf(stderr, "%s: pipeline: the split is not contiguous\n", path.c_str());
      ok = false;
    }
    double load = maxLoad(g, placed);
    // The same without the CPU stage, as dlc-place's pipeline:N (GPUs only).
    Assignment accs = placePipeline(g, blocks, nullptr, false);
    double accLoad = accs.empty() ? NAN : maxLoad(g, accs);
    ok = (accs.empty() || check(g, accs, path + " (pipeline, accelerators only)")) && ok;
    std::printf("%-28s %10.2f %10.2f %7.3fx %8.1f %10.2f %8d %10.2f%s\n", ref.name, load,
                ref.throughput, load / ref.throughput, ms, stats.seedObjective,
                stats.improvingSteps, accLoad,
                std::isnan(ref.throughput) ? "  (not known)"
                : ref.throughputOptimal    ? ""
                                           : "  (reference: PipeDream-style split)");
    std::printf("RESULT placement-graphs kind=throughput file=%s dlc=%.4f ref=%.2f ratio=%.4f "
                "optimal=%d place_ms=%.2f seed=%.4f accs_only=%.4f\n",
                ref.name, load, ref.throughput, load / ref.throughput,
                ref.throughputOptimal ? 1 : 0, ms, stats.seedObjective, accLoad);
  });
  return ok ? 0 : 1;
}
