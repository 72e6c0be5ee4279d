//===- RunMain.cpp - dlc-run: load an artifact, run it, print outputs -----===//

#include "FlatUtil.h"
#include "Model.h"
#include "NpyFormat.h"
#include "RuntimeTools.h"
#include "StepDump.h"
#include "ToolSupport.h"
#include "dlc/random_inputs.h"
#include "dlc/runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <map>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace dlc;
using namespace dlc::tools;

namespace {

struct RunOptions {
  std::string model;
  std::vector<std::pair<std::string, std::string>> inputs; // NAME, FILE
  std::string outputDir;
  int64_t iterations = 1, warmup = 0, threads = 0, inFlight = 1;
  bool timed = false; // --iterations given: print the latency line.
  uint64_t seed = 1;
  int32_t gpuBinding = DLC_GPU_BINDING_REAL;
  std::vector<int32_t> gpuMap; // --gpu-map: logical cuda:N -> physical.
  bool checkOrdering = false;
  bool verifySchedule = false;
  bool checkNumerics = false;
  bool simLinks = false;
  std::string profile; // --profile=FILE: the Chrome trace.
  std::string dumpSteps; // --dump-steps=DIR: every step's output (StepDump.h).
  // Multi-target artifacts: --cpu-features=LIST chooses the variant as a CPU
  // with those features would; --variant=N loads variant N.
  std::optional<std::string> cpuFeatures;
  int64_t variant = -1;
  int64_t batch = 0; // --batch=N (0: from the input files, else the bound).
};

const char *kUsage =
    "usage: %s MODEL.dlcm [--input NAME=FILE.npy ...] [--output-dir DIR]\n"
    "          [--iterations=N] [--warmup=N] [--threads=N] [--seed=S]\n"
    "          [--gpu=real|sim] [--gpu-map=P0,P1,...] [--check-ordering]\n"
    "          [--verify-schedule] [--check-numerics] [--dump-steps=DIR]\n"
    "          [--profile=TRACE.json] [--in-flight=K] [--sim-links]\n"
    "          [--cpu-features=F1,F2,... | --variant=N] [--batch=N]\n"
    "       %s --inspect MODEL.dlcm\n"
    "       %s --list-gpus\n"
    "       %s --probe-devices=SPEC.json [--sim-gpus=N]\n"
    "       %s --version\n"
    "Inputs not given are random (seed S, default 1: the same numbers as\n"
    "`dlc interpret --random-inputs`). Outputs are printed, and written as\n"
    "DIR/NAME.npy with --output-dir. --iterations=N times N runs (set\n"
    "inputs + run + read outputs) and prints the throughput, then the latency\n"
    "last. --gpu=real (default) runs cuda:N on GPU N through the CUDA driver;\n"
    "--gpu-map=0,0 runs cuda:0 and cuda:1 both on GPU 0 (cuda:N on the Nth\n"
    "entry); --gpu=sim binds each cuda:N to a simulated GPU. A model needing\n"
    "GPUs the machine lacks fails. --check-ordering verifies that every\n"
    "read is ordered after its write while it runs; --verify-schedule\n"
    "proves the schedule right for every interleaving at load instead.\n"
    "--check-numerics stops at the first kernel that writes a NaN or inf\n"
    "from finite inputs, naming its ops and device. --dump-steps writes\n"
    "every buffer each kernel call and copy of the first run wrote to\n"
    "DIR/NNNNNN.npy, listed in DIR/steps.jsonl (CPU and simulated GPUs).\n"
    "--sim-links makes each copy to or\n"
    "from a simulated GPU take at least its link's latency + bytes /\n"
    "bandwidth (the artifact's links, from the compiler's device spec).\n"
    "--profile writes a Chrome trace and, like --iterations, prints a\n"
    "per-device summary and, per op kind, the placement's estimated time\n"
    "next to the measured one. A multi-target artifact (dlc compile\n"
    "--cpu=A,B) runs the variant this CPU runs that needs the most\n"
    "features; --cpu-features chooses as a CPU with exactly those would\n"
    "(the chosen code is still checked against this CPU), --variant=N\n"
    "loads variant N. A model with a symbolic batch (dlc compile\n"
    "--max-dim=batch=B) runs the batch of its input files (dim 0), or\n"
    "--batch=N (1 to B; default B) for random inputs.\n"
    "--in-flight=K keeps K\n"
    "runs in flight at once (pipelined), each on its own memory. --threads=N\n"
    "bounds the threads a kernel's parallel loops use (default: all cores).\n"
    "--probe-devices measures this machine (CPU f32 FLOP/s, memory bandwidth,\n"
    "copies between N simulated GPUs' arenas, default 2) in under a second\n"
    "and writes a device spec that `dlc compile --device-spec` reads.\n";

int usage(const char *prog, const std::string &problem) {
  std::fprintf(stderr, "%s: %s\n", prog, problem.c_str());
  std::fprintf(stderr, kUsage, prog, prog, prog, prog, prog);
  return 2;
}

/// Parses argv into `o`; returns "" or the problem.
std::string parseArgs(int argc, char **argv, RunOptions &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // "--name=value" or "--name value".
    auto value = [&](const char *name, std::string &out) {
      std::string flag = std::string("--") + name;
      if (arg.rfind(flag + "=", 0) == 0) {
        out = arg.substr(flag.size() + 1);
        return true;
      }
      if (arg == flag && i + 1 < argc) {
        out = argv[++i];
        return true;
      }
      return false;
    };
    auto number = [&](const std::string &text, const char *name, int64_t min,
                      int64_t &out) -> std::string {
      if (!parseInt(text, out) || out < min)
        return std::string("--") + name + " expects an integer >= " +
               std::to_string(min) + ", got '" + text + "'";
      return "";
    };
    std::string v, err;
    if (value("input", v)) {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0)
        return "--input expects NAME=FILE.npy, got '" + v + "'";
      o.inputs.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (value("output-dir", v)) {
      o.outputDir = v;
    } else if (value("iterations", v)) {
      err = number(v, "iterations", 1, o.iterations);
      o.timed = true;
    } else if (value("warmup", v)) {
      err = number(v, "warmup", 0, o.warmup);
    } else if (value("threads", v)) {
      err = number(v, "threads", 0, o.threads);
    } else if (value("gpu", v)) {
      if (v == "sim")
        o.gpuBinding = DLC_GPU_BINDING_SIM;
      else if (v == "real" || v == "cuda")
        o.gpuBinding = DLC_GPU_BINDING_REAL;
      else
        return "--gpu expects real or sim, got '" + v + "'";
    } else if (value("gpu-map", v)) {
      o.gpuMap.clear();
      std::stringstream list(v);
      std::string item;
      while (std::getline(list, item, ',')) {
        int64_t n;
        if (!parseInt(item, n) || n < 0 || n > 1023)
          return "--gpu-map expects GPU numbers separated by commas (e.g. "
                 "0,0), got '" + v + "'";
        o.gpuMap.push_back(int32_t(n));
      }
      if (o.gpuMap.empty() || v.back() == ',')
        return "--gpu-map expects GPU numbers separated by commas (e.g. 0,0), "
               "got '" + v + "'";
    } else if (arg == "--check-ordering") {
      o.checkOrdering = true;
    } else if (arg == "--verify-schedule") {
      o.verifySchedule = true;
    } else if (arg == "--check-numerics") {
      o.checkNumerics = true;
    } else if (value("dump-steps", v)) {
      if (v.empty())
        return "--dump-steps expects a directory";
      o.dumpSteps = v;
    } else if (arg == "--sim-links") {
      o.simLinks = true;
    } else if (value("cpu-features", v)) {
      o.cpuFeatures = v;
    } else if (value("variant", v)) {
      err = number(v, "variant", 0, o.variant);
    } else if (value("profile", v)) {
      if (v.empty())
        return "--profile expects a file name";
      o.profile = v;
    } else if (value("in-flight", v)) {
      err = number(v, "in-flight", 1, o.inFlight);
      if (err.empty() && o.inFlight > 64)
        err = "--in-flight expects at most 64, got '" + v + "'";
    } else if (value("batch", v)) {
      err = number(v, "batch", 1, o.batch);
    } else if (value("seed", v)) {
      int64_t seed;
      err = number(v, "seed", 0, seed);
      o.seed = uint64_t(seed);
    } else if (arg.rfind("-", 0) == 0) {
      return "unknown or incomplete option '" + arg + "'";
    } else if (o.model.empty()) {
      o.model = arg;
    } else {
      return "more than one model given ('" + o.model + "', '" + arg + "')";
    }
    if (!err.empty())
      return err;
  }
  if (o.model.empty())
    return "no model given";
  if (o.threads > INT32_MAX)
    return "--threads is too large";
  return "";
}

/// Every descr the tools know, so that a wrong dtype is reported as such.
const std::vector<npy::Descr> kAllDescrs = {
    {"<f4", 4}, {"<f2", 2}, {"<u2", 2}, {"<i4", 4}, {"<i8", 8},
    {"|b1", 1}, {"|u1", 1}, {"<f8", 8}, {"<i2", 2}, {"|i1", 1},
    {"<u4", 4}, {"<u8", 8},
};

/// Reads input `info` from `path` into `out`; "" or the problem.
/// Reads input `info` from `path` into `out`; `units` is the batch its dim
/// 0 holds when it carries the symbolic batch of `bound` (else 0).
std::string readInput(const dlc_tensor_info_t &info, int64_t bound,
                      const std::string &path, std::string &out, int64_t &units) {
  std::string bytes, error;
  npy::Array array;
  if (!npy::readFile(path, bytes, error) ||
      !npy::parse(bytes, path, kAllDescrs, array, error))
    return error;
  std::vector<int64_t> shape(info.shape, info.shape + info.rank);
  units = 0;
  int64_t rows = info.rows_per_unit;
  size_t dim = rt::symbolDimOf(info.shape, info.rank);
  if (rows && array.shape.size() == shape.size() && !shape.empty() &&
      array.shape[dim] % rows == 0 && array.shape[dim] >= rows &&
      array.shape[dim] <= rows * bound) {
    units = array.shape[dim] / rows;
    shape[dim] = array.shape[dim];
  }
  bool dtypeOk = array.descr == npyDescr(info.dtype) ||
                 (info.dtype == DLC_DTYPE_I1 && array.descr == "|u1");
  if (!dtypeOk || array.shape != shape)
    return "input '" + std::string(info.name) + "' is " + typeString(info) +
           (rows ? " (dim " + std::to_string(dim) + ": " + std::to_string(rows) + " x a batch of 1 to " +
                       std::to_string(bound) + ")"
                 : "") +
           " (" + npyDescr(info.dtype) + "), but '" + path + "' holds " +
           array.descr + " " + npy::shapeString(array.shape);
  out.assign(array.data);
  if (info.dtype == DLC_DTYPE_I1)
    for (char &c : out)
      c = c ? 1 : 0;
  return "";
}

/// Makes `dir` (one level) unless it exists.
std::string makeDir(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode) ? "" : "'" + dir + "' is not a directory";
  if (::mkdir(dir.c_str(), 0777) != 0)
    return "cannot create directory '" + dir + "': " + std::strerror(errno);
  return "";
}

/// One line per device: busy and idle time over the session's active time,
/// waits, steps and bytes copied.
void printDeviceSummary(const Model &model, const Session &session,
                        int64_t runs) {
  std::printf("devices (%lld runs, warmup excluded; idle = active - busy):\n",
              static_cast<long long>(runs));
  for (size_t d = 0; d < dlc_model_device_count(model.get()); ++d) {
    dlc_device_stats_t st;
    if (Status s(dlc_session_device_stats(session.get(), d, &st)); !s.ok())
      continue;
    double active = double(st.active_ns) / 1e6, busy = double(st.busy_ns) / 1e6;
    char copied[96];
    std::snprintf(copied, sizeof copied, "%llu bytes copied",
                  static_cast<unsigned long long>(st.bytes_copied));
    if (st.copy_ns)
      std::snprintf(copied, sizeof copied, "%llu bytes copied (%.3f GB/s)",
                    static_cast<unsigned long long>(st.bytes_copied),
                    double(st.bytes_copied) / double(st.copy_ns));
    std::printf("  %s (%s): busy %.3f ms (%.1f%%), idle %.3f ms, waits %.3f "
                "ms, %llu steps, %s\n",
                st.name, st.binding, busy,
                active > 0 ? 100.0 * busy / active : 0.0,
                std::max(0.0, active - busy), double(st.wait_ns) / 1e6,
                static_cast<unsigned long long>(st.steps), copied);
  }
}

/// Per op kind, per run: the placement's estimate (the sum of its ops'
/// estimated_us) next to the measured time. A kernel's measured time is
/// split over the ops it computes in proportion to their estimates (equally
/// when any is unknown or all are 0); copy steps' time goes to dlc.copy.
void printOpKinds(const Model &model, const Session &session, int64_t runs) {
  namespace fb = dlc::artifact;
  const fb::Model &m = model.get()->artifact->model();
  uint32_t n = rt::count(m.placement());
  if (!n || runs <= 0)
    return;
  struct Kind {
    int64_t ops = 0;
    double estimatedUs = 0, measuredUs = 0;
    bool estimated = false, timed = false;
  };
  std::map<std::string, Kind> kinds;
  std::map<std::string, uint32_t> byName;
  for (uint32_t i = 0; i < n; ++i) {
    const fb::PlacementEntry &e = *m.placement()->Get(i);
    byName.emplace(rt::str(e.op()), i);
    Kind &k = kinds[rt::str(e.kind())];
    ++k.ops;
    if (e.estimated_us() >= 0) {
      k.estimatedUs += e.estimated_us();
      k.estimated = true;
    }
  }
  for (uint32_t i = 0; i < rt::count(m.kernels()); ++i) {
    dlc_kernel_stats_t st;
    if (Status s(dlc_session_kernel_stats(session.get(), i, &st)); !s.ok())
      continue;
    const fb::Kernel &kernel = *m.kernels()->Get(i);
    std::vector<const fb::PlacementEntry *> ops;
    bool weighted = true;
    double total = 0;
    for (uint32_t o = 0; o < rt::count(kernel.ops()); ++o) {
      auto it = byName.find(rt::str(kernel.ops()->Get(o)));
      if (it == byName.end())
        continue;
      ops.push_back(m.placement()->Get(it->second));
      weighted &= ops.back()->estimated_us() >= 0;
      total += std::max(0.0, ops.back()->estimated_us());
    }
    weighted &= total > 0;
    double us = double(st.ns) / 1e3 / double(runs);
    for (const fb::PlacementEntry *e : ops) {
      Kind &k = kinds[rt::str(e->kind())];
      k.timed = true;
      k.measuredUs +=
          us * (weighted ? e->estimated_us() / total : 1.0 / double(ops.size()));
    }
  }
  double copyNs = 0;
  for (size_t d = 0; d < dlc_model_device_count(model.get()); ++d) {
    dlc_device_stats_t st;
    if (Status s(dlc_session_device_stats(session.get(), d, &st)); s.ok())
      copyNs += double(st.copy_ns);
  }
  if (kinds.count("dlc.copy")) {
    kinds["dlc.copy"].measuredUs += copyNs / 1e3 / double(runs);
    kinds["dlc.copy"].timed = true;
  }
  std::printf("op kinds (per run; estimated: the cost model, "
              "measured: kernels split over their ops by estimate):\n");
  for (auto &[name, k] : kinds) {
    // Ops that are views (reshapes, constants) take no time of their own.
    if (!k.timed && k.estimatedUs <= 0)
      continue;
    char estimate[48] = "-";
    if (k.estimated)
      std::snprintf(estimate, sizeof estimate, "%.3f us", k.estimatedUs);
    std::printf("  %s: %lld ops, estimated %s, measured %.3f us\n",
                name.c_str(), static_cast<long long>(k.ops), estimate,
                k.measuredUs);
  }
}

/// "f32[4] = [1, 2, 3, 4]": a tensor's type and its first eight elements.
std::string tensorLine(const dlc_tensor_info_t &info, const std::string &bytes) {
  size_t count = info.byte_size / dlc_dtype_size(info.dtype);
  std::string line = typeString(info) + " = [";
  for (size_t k = 0; k < std::min<size_t>(count, 8); ++k)
    line += (k ? ", " : "") + formatElement(info.dtype, bytes.data(), k);
  return line + (count > 8 ? ", ...]" : "]");
}

/// The persistent state as the last run left it.
std::string printState(const dlc_model_t *model, dlc_session_t *session) {
  for (size_t i = 0; i < dlc_model_state_count(model); ++i) {
    dlc_tensor_info_t info;
    dlc::Status s(dlc_model_state_info(model, i, &info));
    std::string bytes(info.byte_size, '\0');
    if (s.ok())
      s = dlc::Status(dlc_session_read_state(session, i, bytes.data(), bytes.size()));
    if (!s.ok())
      return s.message();
    std::printf("state %zu '%s': %s\n", i, info.name, tensorLine(info, bytes).c_str());
  }
  return "";
}

int fail(const char *prog, const std::string &message) {
  std::fprintf(stderr, "%s: %s\n", prog, message.c_str());
  return 1;
}

/// 0.8: the symbolic batch's bound; 0 without one.
int64_t batchBound(const Model &model) {
  dlc_symbol_info_t sym{};
  if (!dlc_model_symbol_count(model.get()) || dlc_model_symbol_info(model.get(), 0, &sym))
    return 0;
  return sym.bound;
}

/// The --input files into `inputs`, and the run's batch (with a symbolic
/// batch: --batch, which the files' dim 0 must agree with, else theirs,
/// else the bound; 0 without one).
std::string readInputFiles(const Model &model, const RunOptions &o,
                           const std::map<std::string, std::string> &files,
                           std::vector<std::string> &inputs, int64_t &batch) {
  int64_t bound = batchBound(model);
  if (o.batch && !bound)
    return "--batch=" + std::to_string(o.batch) + ": model '" + dlc_model_name(model.get()) +
           "' has no symbolic batch (its shapes are fixed)";
  if (o.batch > bound)
    return "--batch=" + std::to_string(o.batch) + ": model '" + dlc_model_name(model.get()) +
           "' runs batches of 1 to " + std::to_string(bound);
  batch = o.batch;
  std::string from = "--batch is";
  for (size_t i = 0; i < inputs.size(); ++i) {
    dlc_tensor_info_t info = model.input(i);
    auto file = files.find(info.name);
    if (file == files.end())
      continue;
    int64_t units = 0;
    if (std::string e = readInput(info, bound, file->second, inputs[i], units); !e.empty())
      return e;
    if (units && batch && units != batch)
      return "input '" + std::string(info.name) + "' ('" + file->second + "') holds a batch of " +
             std::to_string(units) + ", but " + from + " " + std::to_string(batch) +
             "; every input carrying the batch takes the same";
    if (units && !batch) {
      batch = units;
      from = "input '" + std::string(info.name) + "' holds";
    }
  }
  if (!batch)
    batch = bound;
  return "";
}

} // namespace

int dlcRunMain(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "dlc-run";
  RunOptions o;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--probe-devices", 0) == 0)
      return dlcProbeDevicesMain(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::printf(kUsage, prog, prog, prog, prog, prog);
      return 0;
    }
  if (std::string problem = parseArgs(argc, argv, o); !problem.empty())
    return usage(prog, problem);

  Model model;
  dlc_model_options_t modelOptions;
  dlc_model_options_initialize(&modelOptions);
  modelOptions.verify_schedule = o.verifySchedule;
  modelOptions.cpu_features = o.cpuFeatures ? o.cpuFeatures->c_str() : nullptr;
  modelOptions.variant = int32_t(o.variant);
  if (Status s = Model::loadFile(o.model, model, &modelOptions); !s.ok())
    return fail(prog, s.message());
  dlc_session_options_t sessionOptions;
  dlc_session_options_initialize(&sessionOptions);
  sessionOptions.thread_count = static_cast<int32_t>(o.threads);
  sessionOptions.gpu_binding = o.gpuBinding;
  sessionOptions.check_ordering = o.checkOrdering;
  sessionOptions.check_numerics = o.checkNumerics;
  sessionOptions.profile = o.timed || !o.profile.empty();
  sessionOptions.max_in_flight = static_cast<int32_t>(o.inFlight);
  sessionOptions.sim_links = o.simLinks;
  if (!o.gpuMap.empty()) {
    sessionOptions.gpu_map = o.gpuMap.data();
    sessionOptions.gpu_map_count = int32_t(o.gpuMap.size());
  }
  StepDump dump;
  if (!o.dumpSteps.empty()) {
    if (std::string e = dump.open(o.dumpSteps); !e.empty())
      return fail(prog, e);
    sessionOptions.step_observer = &StepDump::observe;
    sessionOptions.step_observer_user = &dump;
  }
  Session session;
  if (Status s = Session::create(model, session, &sessionOptions); !s.ok())
    return fail(prog, s.message());

  // Inputs: from files, else random in signature order from one state.
  // A file input still advances the state by its element count, so each
  // random input is the same whichever others are given.
  std::map<std::string, std::string> files;
  for (auto &[name, path] : o.inputs) {
    size_t index;
    if (Status s(dlc_model_find_input(model.get(), name.c_str(), &index));
        !s.ok()) {
      std::string names;
      for (size_t i = 0; i < model.inputCount(); ++i)
        names += std::string(i ? ", " : "") + model.input(i).name;
      return fail(prog, s.message() + " (inputs: " + names + ")");
    }
    if (!files.emplace(name, path).second)
      return fail(prog, "input '" + name + "' given twice");
  }
  std::vector<std::string> inputs(model.inputCount());
  int64_t batch = 0;
  if (std::string e = readInputFiles(model, o, files, inputs, batch); !e.empty())
    return fail(prog, e);
  int64_t bound = batchBound(model);
  // A tensor's bytes at the run's batch.
  auto bytesAt = [&](const dlc_tensor_info_t &info) {
    return info.rows_per_unit ? info.byte_size / size_t(bound) * size_t(batch) : info.byte_size;
  };
  uint64_t state = o.seed;
  for (size_t i = 0; i < inputs.size(); ++i) {
    dlc_tensor_info_t info = model.input(i);
    size_t count = bytesAt(info) / dlc_dtype_size(info.dtype);
    if (files.count(info.name)) {
      state += uint64_t(count) * 0x9E3779B97F4A7C15ull;
      continue;
    }
    inputs[i].resize(bytesAt(info));
    if (Status s(dlc_random_fill(info.dtype, info.index_bound, count, &state,
                                 inputs[i].data()));
        !s.ok())
      return fail(prog, "input '" + std::string(info.name) + "': " + s.message());
  }

  // Each iteration: set inputs, run, copy the outputs out. With
  // --in-flight=K, up to K submitted runs at once; each run's latency is
  // from its submission to the end of its wait.
  std::vector<std::string> outputs(model.outputCount());
  std::vector<void *> outputPtrs;
  std::vector<size_t> outputBytes;
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].resize(bytesAt(model.output(i)));
    outputPtrs.push_back(outputs[i].data());
    outputBytes.push_back(outputs[i].size());
  }
  std::vector<const void *> inputPtrs;
  std::vector<size_t> inputBytes;
  for (const std::string &in : inputs) {
    inputPtrs.push_back(in.data());
    inputBytes.push_back(in.size());
  }
  using Clock = std::chrono::steady_clock;
  auto iteration = [&]() -> Status {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (Status s = session.setInput(i, inputs[i].data(), inputs[i].size());
          !s.ok())
        return s;
    if (Status s = session.run(); !s.ok())
      return s;
    for (size_t i = 0; i < outputs.size(); ++i)
      if (Status s(dlc_session_copy_output(session.get(), i, outputs[i].data(),
                                           outputs[i].size()));
          !s.ok())
        return s;
    return Status();
  };
  // Runs `n` iterations; appends each one's milliseconds to `millis`.
  auto iterations = [&](int64_t n, std::vector<double> *millis) -> Status {
    if (o.inFlight == 1) {
      for (int64_t it = 0; it < n; ++it) {
        auto start = Clock::now();
        if (Status s = iteration(); !s.ok())
          return s;
        if (millis)
          millis->push_back(std::chrono::duration<double, std::milli>(
                                Clock::now() - start)
                                .count());
      }
      return Status();
    }
    std::vector<std::pair<uint64_t, Clock::time_point>> pending;
    size_t oldest = 0;
    auto waitOldest = [&]() -> Status {
      auto [ticket, start] = pending[oldest++];
      Status s(dlc_session_wait(session.get(), ticket, outputPtrs.data(),
                                outputBytes.data(), outputPtrs.size()));
      if (s.ok() && millis)
        millis->push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - start)
                .count());
      return s;
    };
    for (int64_t it = 0; it < n; ++it) {
      if (int64_t(pending.size() - oldest) == o.inFlight)
        if (Status s = waitOldest(); !s.ok())
          return s;
      uint64_t ticket;
      auto start = Clock::now();
      if (Status s(dlc_session_submit(session.get(), inputPtrs.data(),
                                      inputBytes.data(), inputPtrs.size(),
                                      &ticket));
          !s.ok())
        return s;
      pending.emplace_back(ticket, start);
    }
    while (oldest < pending.size())
      if (Status s = waitOldest(); !s.ok())
        return s;
    return Status();
  };
  auto failRun = [&](const Status &s) {
    return fail(prog, dump.error().empty() ? s.message() : dump.error());
  };
  if (Status s = iterations(o.warmup, nullptr); !s.ok())
    return failRun(s);
  // The summaries count the timed runs: a first run pays for lazy module
  // loads and cold caches.
  if (Status s(dlc_session_reset_stats(session.get())); !s.ok())
    return fail(prog, s.message());
  std::vector<double> millis;
  auto timedStart = Clock::now();
  if (Status s = iterations(o.iterations, &millis); !s.ok())
    return failRun(s);
  double totalMs =
      std::chrono::duration<double, std::milli>(Clock::now() - timedStart)
          .count();

  if (!o.outputDir.empty())
    if (std::string e = makeDir(o.outputDir); !e.empty())
      return fail(prog, e);
  for (size_t i = 0; i < outputs.size(); ++i) {
    dlc_tensor_info_t info{};
    if (Status s(dlc_session_output_info(session.get(), i, &info)); !s.ok())
      return fail(prog, s.message());
    std::printf("output %zu '%s': %s\n", i, info.name, tensorLine(info, outputs[i]).c_str());
    if (o.outputDir.empty())
      continue;
    std::string path = o.outputDir + "/" + fileNameFor(info.name, i) + ".npy";
    std::string error;
    if (!npy::writeFile(path,
                        npy::encode(npyDescr(info.dtype),
                                    model.shape(info), outputs[i]),
                        error))
      return fail(prog, error);
  }
  if (std::string e = printState(model.get(), session.get()); !e.empty())
    return fail(prog, e);
  if (!o.profile.empty())
    if (Status s(dlc_session_write_trace(session.get(), o.profile.c_str()));
        !s.ok())
      return fail(prog, s.message());
  if (o.timed || !o.profile.empty()) {
    printDeviceSummary(model, session, o.iterations);
    printOpKinds(model, session, o.iterations);
  }
  if (o.timed) {
    std::printf("throughput: %.1f runs/s (%zu runs in %.3f ms, %lld in "
                "flight)\n",
                totalMs > 0 ? double(millis.size()) * 1000.0 / totalMs : 0.0,
                millis.size(), totalMs, static_cast<long long>(o.inFlight));
    std::vector<double> sorted = millis;
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    double median =
        n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    std::printf("latency: median %.3f ms (min %.3f ms, max %.3f ms, %zu "
                "iterations)\n",
                median, sorted.front(), sorted.back(), n);
  }
  std::fflush(stdout);
  return 0;
}

int dlcRunToolMain(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "dlc-run";
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("dlc-run %s\n", dlc_runtime_version());
    return 0;
  }
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 ||
                    std::strcmp(argv[1], "-h") == 0)) {
    std::printf(kUsage, prog, prog, prog, prog, prog);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--list-gpus") == 0) {
    // What --gpu=real would bind to; exit 1 (with the reason) without a
    // usable driver, so scripts can test for a GPU.
    int32_t n = 0;
    Status s(dlc_cuda_device_count(&n));
    if (!s.ok())
      return fail(prog, s.message());
    std::printf("%d CUDA GPU%s\n", n, n == 1 ? "" : "s");
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--inspect") == 0) {
    std::vector<char *> args(argv, argv + argc);
    args.erase(args.begin() + 1);
    return dlcInspectMain(static_cast<int>(args.size()), args.data());
  }
  return dlcRunMain(argc, argv);
}
