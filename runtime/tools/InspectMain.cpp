//===- InspectMain.cpp - dlc inspect: what an artifact holds --------------===//
//
// Loads the artifact with load_code = 0 (verify only: inspecting a model
// compiled for another CPU must work) and prints it from the verified
// FlatBuffer, which the runtime's internals expose to its own tools.
//
//===----------------------------------------------------------------------===//

#include "CpuFeatures.h"
#include "FlatUtil.h"
#include "Model.h"
#include "RuntimeTools.h"
#include "ToolSupport.h"
#include "dlc/runtime.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

using namespace dlc;
using namespace dlc::rt;
using namespace dlc::tools;

namespace {

std::string bufferLabel(const fb::Model &m, uint32_t index) {
  std::string name = str(m.buffers()->Get(index)->name());
  return "%" + std::to_string(index) + (name.empty() ? "" : "('" + name + "')");
}

void printSignature(const Model &model) {
  dlc_symbol_info_t sym{};
  if (dlc_model_symbol_count(model.get()) && !dlc_model_symbol_info(model.get(), 0, &sym))
    std::printf("symbolic batch: '%s', 1 to %lld per run (kernels on batched tensors run "
                "once per unit of it; memory planned for %lld)\n",
                sym.name, (long long)sym.bound, (long long)sym.bound);
  std::printf("signature:\n");
  for (int out = 0; out < 2; ++out) {
    size_t n = out ? model.outputCount() : model.inputCount();
    for (size_t i = 0; i < n; ++i) {
      dlc_tensor_info_t info = out ? model.output(i) : model.input(i);
      std::printf("  %-6s %zu '%s': %s, %zu bytes", out ? "output" : "input",
                  i, info.name, typeString(info).c_str(), info.byte_size);
      if (info.index_bound)
        std::printf(", indices in [0, %lld)", (long long)info.index_bound);
      if (info.rows_per_unit)
        std::printf(", dim %zu = %lld x %s", rt::symbolDimOf(info.shape, info.rank),
                    (long long)info.rows_per_unit, sym.name);
      std::printf("\n");
    }
  }
  // Persistent state (0.6): kept from run to run.
  for (size_t i = 0; i < dlc_model_state_count(model.get()); ++i) {
    dlc_tensor_info_t info;
    if (dlc_model_state_info(model.get(), i, &info) == nullptr)
      std::printf("  state  %zu '%s': %s, %zu bytes, kept from run to run\n", i, info.name,
                  typeString(info).c_str(), info.byte_size);
  }
}

void printCode(const fb::Model &m) {
  std::printf("libraries:\n");
  for (uint32_t i = 0; i < count(m.libraries()); ++i) {
    const fb::Library &l = *m.libraries()->Get(i);
    std::vector<std::string> features;
    std::string list;
    for (uint32_t f = 0; f < count(l.cpu_features()); ++f) {
      features.push_back(str(l.cpu_features()->Get(f)));
      list += (f ? "," : "") + features.back();
    }
    std::string check = checkCpuFeatures(features, hostCpuFeatures());
    std::printf("  %u: %s, target_cpu '%s', features [%s], %llu bytes "
                "(segment %u); this CPU: %s\n",
                i, str(l.target_triple()).c_str(), str(l.target_cpu()).c_str(),
                list.c_str(),
                (unsigned long long)m.segments()->Get(l.segment())->size(),
                l.segment(), check.empty() ? "ok" : check.c_str());
  }
  std::printf("kernels:\n");
  for (uint32_t i = 0; i < count(m.kernels()); ++i) {
    const fb::Kernel &k = *m.kernels()->Get(i);
    std::string ops;
    for (uint32_t o = 0; o < count(k.ops()); ++o)
      ops += (o ? ", " : "") + str(k.ops()->Get(o));
    if (str(k.symbol()).empty())
      std::printf("  %u: '%s' = GPU code only; ops: %s\n", i,
                  str(k.name()).c_str(), ops.empty() ? "-" : ops.c_str());
    else
      std::printf("  %u: '%s' = %s in library %u; ops: %s\n", i,
                  str(k.name()).c_str(), str(k.symbol()).c_str(), k.library(),
                  ops.empty() ? "-" : ops.c_str());
    if (k.sized())
      std::printf("     sized at run time: called once per run with its size\n");
    if (k.chunk_units()) {
      std::printf("     and %s for %u units of the batch at once", str(k.chunk_symbol()).c_str(),
                  k.chunk_units());
      if (k.chunk_min_units())
        std::printf(" (also for a tail of %u or more)", k.chunk_min_units());
      std::printf("\n");
    }
    if (const fb::CudaLaunch *l = k.cuda()) {
      auto dims = [](const flatbuffers::Vector<uint32_t> *v) {
        std::string s;
        for (uint32_t d = 0; d < count(v); ++d)
          s += (d ? "x" : "") + std::to_string(v->Get(d));
        return s;
      };
      std::printf("     cuda: %s in module %u, grid %s, block %s, %u bytes "
                  "shared\n",
                  str(l->entry()).c_str(), l->module_(), dims(l->grid()).c_str(),
                  dims(l->block()).c_str(), l->shared_bytes());
    }
  }
  // Format 0.4: GPU code, loaded by real GPUs (CUBIN of their arch, else PTX).
  for (uint32_t i = 0; i < count(m.cuda_modules()); ++i) {
    const fb::CudaModule &mod = *m.cuda_modules()->Get(i);
    std::string cubins;
    for (uint32_t c = 0; c < count(mod.cubins()); ++c) {
      const fb::CudaImage &img = *mod.cubins()->Get(c);
      cubins += (c ? ", " : "") + str(img.arch()) + " (" +
                std::to_string(m.segments()->Get(img.segment())->size()) +
                " bytes)";
    }
    std::printf("cuda module %u: PTX %s (%llu bytes), CUBIN %s, source %s\n", i,
                str(mod.ptx_arch()).c_str(),
                (unsigned long long)m.segments()->Get(mod.ptx_segment())->size(),
                cubins.empty() ? "none" : cubins.c_str(),
                mod.source_segment() < 0
                    ? "not kept"
                    : (std::to_string(m.segments()->Get(uint32_t(mod.source_segment()))->size()) +
                       " bytes").c_str());
  }
}

void printSchedules(const fb::Model &m) {
  for (uint32_t s = 0; s < count(m.schedules()); ++s) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(s);
    std::printf("steps of %s (%u):\n",
                deviceName(*m.devices()->Get(sched.device())).c_str(),
                count(sched.steps()));
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      std::string bufs;
      for (uint32_t b = 0; b < count(step.buffers()); ++b)
        bufs += (b ? ", " : "") + bufferLabel(m, step.buffers()->Get(b));
      switch (step.kind()) {
      case fb::StepKind::Call:
        std::printf("  %u: call '%s' (%s)\n", i,
                    str(m.kernels()->Get(step.kernel())->name()).c_str(),
                    bufs.c_str());
        break;
      case fb::StepKind::Copy:
        std::printf("  %u: copy %s -> %s\n", i,
                    bufferLabel(m, step.buffers()->Get(0)).c_str(),
                    bufferLabel(m, step.buffers()->Get(1)).c_str());
        break;
      default:
        std::printf("  %u: %s event %u\n", i,
                    step.kind() == fb::StepKind::RecordEvent ? "record"
                                                             : "wait",
                    step.event());
      }
    }
  }
}

void printMemory(const fb::Model &m) {
  std::printf("memory:\n");
  uint64_t constBytes = 0;
  uint32_t constCount = 0;
  for (uint32_t d = 0; d < count(m.devices()); ++d) {
    uint64_t sum = 0;
    uint32_t n = 0;
    for (uint32_t b = 0; b < count(m.buffers()); ++b) {
      const fb::Buffer &buf = *m.buffers()->Get(b);
      if (buf.device() == d && buf.constant_segment() < 0) {
        sum += buf.size();
        ++n;
      }
    }
    const fb::Device &dev = *m.devices()->Get(d);
    // The plan reuses memory of dead buffers: the arena can be smaller
    // than the sum (or larger, from alignment padding).
    std::printf("  %s: arena %llu bytes; %u buffers, %llu bytes if none "
                "shared memory",
                deviceName(dev).c_str(), (unsigned long long)dev.arena_size(),
                n, (unsigned long long)sum);
    // The liveness lower bound: the most bytes live at one step.
    if (dev.peak_live_bytes() > 0)
      std::printf("; liveness bound %llu bytes (arena +%.1f%%)",
                  (unsigned long long)dev.peak_live_bytes(),
                  100.0 * (double(dev.arena_size()) / double(dev.peak_live_bytes()) - 1.0));
    std::printf("\n");
  }
  for (uint32_t b = 0; b < count(m.buffers()); ++b)
    if (m.buffers()->Get(b)->constant_segment() >= 0) {
      constBytes += m.buffers()->Get(b)->size();
      ++constCount;
    }
  std::printf("  constants: %u buffers, %llu bytes\n", constCount,
              (unsigned long long)constBytes);
}

/// Every activation buffer with its element type and size: f16 values take
/// two bytes (mixed precision), f32 four.
void printBuffers(const fb::Model &m) {
  std::printf("buffers:\n");
  for (uint32_t b = 0; b < count(m.buffers()); ++b) {
    const fb::Buffer &buf = *m.buffers()->Get(b);
    if (buf.constant_segment() >= 0)
      continue;
    std::string shape, bound;
    for (uint32_t i = 0; i < count(buf.shape()); ++i) {
      int64_t d = buf.shape()->Get(i);
      shape += (i ? "," : "") + (d < 0 ? std::string("?") : std::to_string(d));
      if (buf.max_shape() && i < count(buf.max_shape()))
        bound += (i ? "," : "") + std::to_string(buf.max_shape()->Get(i));
    }
    std::string notes = bound.empty() ? "" : ", sized for at most [" + bound + "]";
    if (buf.rows_per_unit())
      notes += ", " + std::to_string(buf.rows_per_unit()) + " rows per unit of the batch";
    if (buf.unit_stride())
      notes += " off dim 0 (each unit a strided slice, " + std::to_string(buf.unit_stride()) +
               " bytes after the last)";
    if (count(buf.symbol_dims())) {
      notes += ", the run's size on dims";
      for (uint32_t j = 0; j < count(buf.symbol_dims()); ++j)
        notes += (j ? ", " : " ") + std::to_string(buf.symbol_dims()->Get(j));
    }
    if (buf.persistent())
      notes += buf.initial_segment() >= 0
                   ? ", persistent (starts as segment " + std::to_string(buf.initial_segment()) + ")"
                   : ", persistent (starts as zeros)";
    std::printf("  %s on %s: %s [%s], %llu bytes%s\n", bufferLabel(m, b).c_str(),
                buf.device() < count(m.devices())
                    ? deviceName(*m.devices()->Get(buf.device())).c_str()
                    : "?",
                fb::EnumNameDType(buf.dtype()), shape.c_str(),
                (unsigned long long)buf.size(), notes.c_str());
  }
}

void printPlacement(const fb::Model &m) {
  if (count(m.symbols()))
    std::printf("placement (%u ops; estimated at batch %lld, the bound of '%s'):\n",
                count(m.placement()), (long long)m.symbols()->Get(0)->bound(),
                str(m.symbols()->Get(0)->name()).c_str());
  else
    std::printf("placement (%u ops):\n", count(m.placement()));
  // Per device: ops, and how many for each reason.
  std::map<uint32_t, std::map<std::string, unsigned>> perDevice;
  for (uint32_t i = 0; i < count(m.placement()); ++i) {
    const fb::PlacementEntry &e = *m.placement()->Get(i);
    ++perDevice[e.device()][str(e.reason())];
  }
  for (auto &[device, reasons] : perDevice) {
    unsigned total = 0;
    std::string list;
    for (auto &[reason, n] : reasons) {
      total += n;
      list += (list.empty() ? "" : ", ") + reason + " " + std::to_string(n);
    }
    std::printf("  %s: %u ops (%s)\n",
                deviceName(*m.devices()->Get(device)).c_str(), total,
                list.c_str());
  }
  for (uint32_t i = 0; i < count(m.placement()); ++i) {
    const fb::PlacementEntry &e = *m.placement()->Get(i);
    char estimate[48] = "";
    if (e.estimated_us() >= 0)
      std::snprintf(estimate, sizeof estimate, " (estimated %.3f us)",
                    e.estimated_us());
    std::printf("    %-8s %-10s %s %s%s\n",
                deviceName(*m.devices()->Get(e.device())).c_str(),
                str(e.reason()).c_str(), str(e.kind()).c_str(),
                str(e.op()).c_str(), estimate);
  }
}

/// Format 0.3: the links between the devices (dlc-run --sim-links).
void printLinks(const fb::Model &m) {
  if (!count(m.links()))
    return;
  std::printf("links (%u):\n", count(m.links()));
  for (uint32_t i = 0; i < count(m.links()); ++i) {
    const fb::Link &l = *m.links()->Get(i);
    std::printf("  %s -> %s: %.3f GB/s, latency %.3f us\n",
                deviceName(*m.devices()->Get(l.from())).c_str(),
                deviceName(*m.devices()->Get(l.to())).c_str(),
                l.bandwidth() / 1e9, l.latency_us());
  }
}

// 0.7: the variants of a multi-target artifact, and which one is shown.
void printVariants(const Model &model) {
  size_t n = dlc_model_variant_count(model.get());
  const Artifact *container = model.get()->artifact->containerArtifact();
  if (n == 0 || !container)
    return;
  std::printf("variants: %zu in a multi-target artifact (format %u.%u, %zu bytes; one whole "
              "model per target CPU; shown below: the one marked *)\n",
              n, container->model().version_major(), container->model().version_minor(),
              container->fileSize());
  for (size_t i = 0; i < n; ++i) {
    dlc_variant_info_t v;
    if (dlc_model_variant_info(model.get(), i, &v) != nullptr)
      continue;
    std::printf("  %c%zu: %s (%s), features [%s]; this CPU: %s\n", v.chosen ? '*' : ' ', i,
                v.target_cpu, *v.target_triple ? v.target_triple : "no CPU code",
                v.cpu_features, *v.unavailable ? v.unavailable : "ok");
  }
}

} // namespace

int dlcInspectMain(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "dlc-inspect";
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.load_code = 0;
  const char *path = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    int64_t variant = -1;
    if (arg.rfind("--variant=", 0) == 0 && parseInt(arg.substr(10), variant) && variant >= 0)
      options.variant = int32_t(variant);
    else if (arg.rfind("--cpu-features=", 0) == 0)
      options.cpu_features = argv[i] + 15;
    else if (arg[0] != '-' && !path)
      path = argv[i];
    else
      path = nullptr, i = argc;
  }
  if (!path) {
    std::fprintf(stderr, "usage: %s --inspect MODEL.dlcm [--variant=N | --cpu-features=F1,F2,...]\n", prog);
    return 2;
  }
  Model model;
  if (Status s = Model::loadFile(path, model, &options); !s.ok()) {
    std::fprintf(stderr, "%s: %s\n", prog, s.message().c_str());
    return 1;
  }
  const Artifact &a = *model.get()->artifact;
  const fb::Model &m = a.model();
  std::printf("artifact: %s (%zu bytes: FlatBuffer %zu, %u segments)\n",
              a.name().c_str(), a.fileSize(), a.flatBufferSize(),
              count(m.segments()));
  std::printf("format: %u.%u (this runtime reads %d.0 to %d.%d)\n",
              m.version_major(), m.version_minor(), DLC_RUNTIME_VERSION_MAJOR,
              DLC_RUNTIME_VERSION_MAJOR, DLC_RUNTIME_VERSION_MINOR);
  std::printf("producer: %s\n", str(m.producer()).c_str());
  printVariants(model);
  std::printf("devices:\n");
  for (uint32_t d = 0; d < count(m.devices()); ++d)
    std::printf("  %u: %s\n", d, deviceName(*m.devices()->Get(d)).c_str());
  printSignature(model);
  printCode(m);
  printSchedules(m);
  printMemory(m);
  printPlacement(m);
  printLinks(m);
  printBuffers(m);
  std::fflush(stdout);
  return 0;
}
