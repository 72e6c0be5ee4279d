//===- ProbeDevices.cpp - dlc-run --probe-devices: measure, write a spec --===//
//
// Measures this machine in well under a second and writes a device spec in
// the JSON schema of passes/README.md ("Device specs"), which
// `dlc compile --device-spec=FILE.json` reads:
//
// - the CPU's f32 throughput: one thread, a hand-written loop of 12
//   independent FMA chains in registers (AVX-512, else AVX2+FMA, else plain
//   scalar code), median of 5 batches;
// - its memory bandwidth: memcpy of a 64 MiB buffer (read + write bytes
//   counted), median of 5;
// - simulated GPUs (`--sim-gpus=N`, default 2; real GPUs are not probed yet,
//   so each cuda:N is what `--gpu=sim` gives: a CPU thread with its own arena):
//   the copy bandwidth between two separate arenas (16 MiB memcpy, median of
//   5, per ordered pair) and the latency of a cross-device copy (a 64-byte
//   memcpy plus the one-way condition-variable hand-off between two threads
//   that an event wait costs, median of 200 round trips / 2).
//
// What is not measured: memory capacity (the physical memory, shared by the
// simulated GPUs, whose arenas are host pages), f16/bf16 (the CPU widens them
// to f32: the f32 figure times 2/3, as in the built-in profile), launch
// overhead (1 us, the built-in CPU profile's, for every device: a simulated
// GPU's kernel is a call on its stream thread, as on the CPU).
//===----------------------------------------------------------------------===//

#include "CpuPeak.h"
#include "RuntimeTools.h"
#include "Timing.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <memory>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>


namespace {

using namespace dlc::tools;

volatile float gSink; // keeps the timed copies from being optimised away

/// A separate anonymous mapping, touched (as an arena: its own mmap).
struct Arena {
  size_t bytes;
  char *data;
  explicit Arena(size_t n) : bytes(n) {
    void *p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<char *>(p);
    if (data)
      std::memset(data, 0x11, n);
  }
  ~Arena() {
    if (data)
      ::munmap(data, bytes);
  }
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;
};

/// Bytes per second of memcpy(dst, src, n): median of `reps`; `counted`
/// bytes moved per copy (2n for the memory's read + write bandwidth, n for a
/// copy's bandwidth, as a link's is counted).
double copyRate(char *dst, const char *src, size_t n, int reps, double counted) {
  std::memcpy(dst, src, n); // warm
  std::vector<double> rates;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    std::memcpy(dst, src, n);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    double s = seconds(t0, Clock::now());
    rates.push_back(counted / std::max(s, 1e-9));
  }
  gSink = float(dst[n / 2]);
  return median(rates);
}

/// One-way hand-off between two threads through a mutex + condition
/// variable (what a WaitEvent on another stream costs), plus a 64-byte copy
/// between arenas: median of `rounds` round trips / 2, in seconds.
double probeLatency(char *a, char *b, int rounds) {
  std::mutex m;
  std::condition_variable cv;
  int turn = 0; // 0: main's, 1: the peer's; -1: stop.
  std::thread peer([&] {
    std::unique_lock<std::mutex> lock(m);
    for (;;) {
      cv.wait(lock, [&] { return turn != 0; });
      if (turn < 0)
        return;
      std::memcpy(a, b, 64);
      turn = 0;
      cv.notify_all();
    }
  });
  std::vector<double> trips;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = Clock::now();
    {
      std::unique_lock<std::mutex> lock(m);
      std::memcpy(b, a, 64);
      turn = 1;
      cv.notify_all();
      cv.wait(lock, [&] { return turn == 0; });
    }
    trips.push_back(seconds(t0, Clock::now()));
  }
  {
    std::lock_guard<std::mutex> lock(m);
    turn = -1;
  }
  cv.notify_all();
  peer.join();
  return median(trips) / 2;
}

int usage(const char *prog) {
  std::fprintf(stderr,
               "usage: %s --probe-devices=FILE.json [--sim-gpus=N]\n"
               "Measures this machine's CPU (f32 FLOP/s on one thread, memory\n"
               "bandwidth) and, for N simulated GPUs (default 2; 0 for the CPU\n"
               "alone), the copy bandwidth and latency between their arenas;\n"
               "writes a device spec that `dlc compile --device-spec` reads.\n",
               prog);
  return 2;
}

} // namespace

int dlcProbeDevicesMain(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "dlc-run";
  std::string path;
  long gpus = 2;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--probe-devices=", 0) == 0) {
      path = arg.substr(16);
    } else if (arg == "--probe-devices" && i + 1 < argc) {
      path = argv[++i];
    } else if (arg.rfind("--sim-gpus=", 0) == 0) {
      char *end;
      gpus = std::strtol(arg.c_str() + 11, &end, 10);
      if (*end || end == arg.c_str() + 11 || gpus < 0 || gpus > 64) {
        std::fprintf(stderr, "%s: --sim-gpus expects an integer in [0, 64], got '%s'\n",
                     prog, arg.c_str() + 11);
        return 2;
      }
    } else {
      std::fprintf(stderr, "%s: unknown option '%s' with --probe-devices\n",
                   prog, arg.c_str());
      return usage(prog);
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "%s: --probe-devices expects a file name\n", prog);
    return usage(prog);
  }

  auto start = Clock::now();
  CpuPeak flops = measureCpuPeak(5, 0.02);

  constexpr size_t kMemBytes = 64u << 20, kLinkBytes = 16u << 20;
  size_t deviceCount = size_t(gpus) + 1;
  double memBw;
  {
    Arena src(kMemBytes), dst(kMemBytes);
    if (!src.data || !dst.data) {
      std::fprintf(stderr, "%s: cannot map 128 MiB for the bandwidth probe\n", prog);
      return 1;
    }
    memBw = copyRate(dst.data, src.data, kMemBytes, 5, 2.0 * kMemBytes);
  }
  // One arena per device (the CPU's and each simulated GPU's).
  std::vector<std::vector<double>> bw(deviceCount,
                                      std::vector<double>(deviceCount, 0)),
      lat(deviceCount, std::vector<double>(deviceCount, 0));
  if (gpus > 0) {
    std::vector<std::unique_ptr<Arena>> arenas;
    for (size_t d = 0; d < deviceCount; ++d) {
      arenas.push_back(std::make_unique<Arena>(kLinkBytes));
      if (!arenas.back()->data) {
        std::fprintf(stderr, "%s: cannot map an arena for the link probe\n", prog);
        return 1;
      }
    }
    for (size_t a = 0; a < deviceCount; ++a)
      for (size_t b = 0; b < deviceCount; ++b) {
        if (a == b)
          continue;
        bw[a][b] = copyRate(arenas[b]->data, arenas[a]->data, kLinkBytes, 5,
                            double(kLinkBytes));
        lat[a][b] = probeLatency(arenas[a]->data, arenas[b]->data, 100) * 1e6;
      }
  }
  double probeSeconds = seconds(start, Clock::now());

  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  double memory = pages > 0 && pageSize > 0 ? double(pages) * double(pageSize)
                                            : 68719476736.0;
  double f16 = flops.flopsPerSecond * 2.0 / 3.0;

  std::string json = "{\n  \"devices\": [\n";
  char line[1024];
  for (size_t d = 0; d < deviceCount; ++d) {
    std::string head = d == 0 ? "{\"kind\": \"cpu\""
                              : "{\"kind\": \"cuda\", \"index\": " +
                                    std::to_string(d - 1);
    std::snprintf(line, sizeof line,
                  "    %s, \"memory_bytes\": %.0f,\n"
                  "     \"flops\": {\"f32\": %.6g, \"f16\": %.6g, \"bf16\": %.6g},\n"
                  "     \"bandwidth_bytes_per_s\": %.6g, \"launch_overhead_us\": 1,\n"
                  "     \"source\": \"dlc-run --probe-devices: %s\"}%s\n",
                  head.c_str(), memory, flops.flopsPerSecond, f16, f16, memBw,
                  d == 0 ? "FMA loop and memcpy, not dlc's kernels (dlc probe-devices times those)"
                         : "a simulated GPU (a CPU thread), the CPU's figures",
                  d + 1 < deviceCount ? "," : "");
    json += line;
  }
  json += "  ]";
  if (deviceCount > 1) {
    auto matrix = [&](const std::vector<std::vector<double>> &m) {
      std::string s = "[";
      for (size_t a = 0; a < deviceCount; ++a) {
        s += a ? ", [" : "[";
        for (size_t b = 0; b < deviceCount; ++b) {
          char v[32];
          std::snprintf(v, sizeof v, "%s%.6g", b ? ", " : "", m[a][b]);
          s += v;
        }
        s += "]";
      }
      return s + "]";
    };
    json += ",\n  \"links\": {\n    \"bandwidth_bytes_per_s\": " + matrix(bw) +
            ",\n    \"latency_us\": " + matrix(lat) + "\n  }";
  }
  json += "\n}\n";

  FILE *f = std::fopen(path.c_str(), "w");
  if (!f || std::fwrite(json.data(), 1, json.size(), f) != json.size() ||
      std::fclose(f) != 0) {
    std::fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path.c_str(),
                 std::strerror(errno));
    return 1;
  }

  std::printf("probed in %.3f s (one thread):\n", probeSeconds);
  std::printf("  cpu: f32 %.1f GFLOP/s (%s FMA loop), memory %.1f GB/s "
              "(memcpy of 64 MiB, read + write)\n",
              flops.flopsPerSecond / 1e9, flops.isa, memBw / 1e9);
  if (gpus > 0) {
    std::printf("  no real GPU is probed (not yet): cuda:0..%ld are "
                "simulated GPUs (CPU threads with their own arenas, "
                "`--gpu=sim`), with the CPU's figures\n",
                gpus - 1);
    double lo = 1e300, hi = 0, llo = 1e300, lhi = 0;
    for (size_t a = 0; a < deviceCount; ++a)
      for (size_t b = 0; b < deviceCount; ++b)
        if (a != b) {
          lo = std::min(lo, bw[a][b]), hi = std::max(hi, bw[a][b]);
          llo = std::min(llo, lat[a][b]), lhi = std::max(lhi, lat[a][b]);
        }
    std::printf("  links between arenas: %.1f..%.1f GB/s (memcpy of 16 MiB), "
                "latency %.2f..%.2f us (thread hand-off + 64-byte copy)\n",
                lo / 1e9, hi / 1e9, llo, lhi);
  }
  std::printf("  not measured: memory_bytes (physical memory), f16/bf16 "
              "(f32 x 2/3), launch_overhead_us (1)\n");
  std::printf("wrote %s\n", path.c_str());
  return 0;
}
