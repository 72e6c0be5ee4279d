//===- Model.cpp - dlc_model_t: load, verify, load code, introspect -------===//

#include "Model.h"
#include "ThreadPool.h"
#include "CpuFeatures.h"
#include "Error.h"
#include "FlatUtil.h"
#include "ScheduleVerifier.h"
#include "Variants.h"

#include <cstring>

using namespace dlc::rt;

namespace dlc::rt {

namespace {
void fillTensorInfos(const Artifact &a,
                     const flatbuffers::Vector<
                         flatbuffers::Offset<fb::TensorSpec>> *specs,
                     std::vector<TensorInfo> &out) {
  out.resize(count(specs));
  for (uint32_t i = 0; i < count(specs); ++i) {
    const fb::TensorSpec &t = *specs->Get(i);
    const fb::Buffer &b = *a.model().buffers()->Get(t.buffer());
    TensorInfo &info = out[i];
    info.name = str(t.name());
    for (uint32_t d = 0; d < count(t.shape()); ++d) {
      info.shape.push_back(t.shape()->Get(d));
      info.maxShape.push_back(t.max_shape() ? t.max_shape()->Get(d) : t.shape()->Get(d));
    }
    info.info.name = info.name.c_str();
    info.info.dtype = static_cast<dlc_dtype_t>(t.dtype());
    info.info.rank = info.shape.size();
    info.info.shape = info.shape.data();
    info.info.max_shape = info.maxShape.data();
    info.info.byte_size = b.size();
    info.info.index_bound = t.index_bound();
    info.info.device = b.device();
    info.info.rows_per_unit = b.rows_per_unit();
  }
}
} // namespace

dlc_status_t loadCode(dlc_model_s &model) {
  const Artifact &a = *model.artifact;
  const auto *libraries = a.model().libraries();
  for (uint32_t i = 0; i < count(libraries); ++i) {
    const fb::Library &lib = *libraries->Get(i);
    std::string label = "artifact '" + a.name() + "': library " +
                        std::to_string(i) + " (target_cpu '" +
                        str(lib.target_cpu()) + "')";
    VariantTarget target{str(lib.target_triple()), str(lib.target_cpu()), {}};
    for (uint32_t f = 0; f < count(lib.cpu_features()); ++f)
      target.features.push_back(str(lib.cpu_features()->Get(f)));
    // Always this CPU's own features: an override (cpu_features) chooses a
    // variant, it never lets code run that would fault.
    std::string why = whyVariantCannotRun(target, hostCpuArch(), hostCpuFeatures());
    if (!why.empty())
      return Error(DLC_STATUS_UNAVAILABLE) << label << " " << why;
    std::unique_ptr<SharedObject> so;
    DLC_RETURN_IF_ERROR(SharedObject::load(a.segmentData(lib.segment()),
                                           a.segmentSize(lib.segment()), label,
                                           so));
    // Libraries with parallel loops get the process's pool (dlc/parallel.h);
    // older ones have no setter and stay serial.
    if (void *setter = so->find(DLC_SET_PARALLEL_RUNTIME_SYMBOL))
      reinterpret_cast<dlc_set_parallel_runtime_t>(setter)(parallelApi());
    model.libraries.push_back(std::move(so));
  }
  const auto *kernels = a.model().kernels();
  for (uint32_t k = 0; k < count(kernels); ++k) {
    const fb::Kernel &kernel = *kernels->Get(k);
    void *address = nullptr, *chunk = nullptr;
    if (!str(kernel.chunk_symbol()).empty())
      DLC_RETURN_IF_ERROR(
          model.libraries[kernel.library()]->lookup(str(kernel.chunk_symbol()), chunk));
    model.chunkKernels.push_back(reinterpret_cast<KernelFn>(chunk));
    if (str(kernel.symbol()).empty()) { // 0.4: GPU code only.
      model.kernels.push_back(nullptr);
      continue;
    }
    DLC_RETURN_IF_ERROR(
        model.libraries[kernel.library()]->lookup(str(kernel.symbol()), address));
    model.kernels.push_back(reinterpret_cast<KernelFn>(address));
  }
  model.codeLoaded = true;
  return nullptr;
}

} // namespace dlc::rt

namespace {
/// The variant of container `outer` that `options` choose (Variants.h),
/// each variant's description recorded in `model`.
dlc_status_t chooseContainerVariant(const Artifact &outer, const dlc_model_options_t &options,
                                    dlc_model_s &model, uint32_t &chosen) {
  const auto *variants = outer.model().variants();
  std::vector<VariantTarget> targets;
  for (uint32_t i = 0; i < count(variants); ++i) {
    const fb::Variant &v = *variants->Get(i);
    VariantTarget t{str(v.target_triple()), str(v.target_cpu()), {}};
    std::string list;
    for (uint32_t f = 0; f < count(v.cpu_features()); ++f) {
      t.features.push_back(str(v.cpu_features()->Get(f)));
      list += (f ? "," : "") + t.features.back();
    }
    std::string why = whyVariantCannotRun(t, hostCpuArch(), hostCpuFeatures());
    model.variants.push_back({t.triple, t.cpu, list, why});
    targets.push_back(std::move(t));
  }
  if (options.variant >= 0) {
    if (uint32_t(options.variant) >= targets.size())
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "artifact '" << outer.name() << "' has no variant " << options.variant
             << " (it has " << targets.size() << ")";
    chosen = uint32_t(options.variant);
    return nullptr;
  }
  std::vector<std::string> have =
      options.cpu_features ? splitFeatureList(options.cpu_features) : hostCpuFeatures();
  std::string why;
  int best = chooseVariant(targets, hostCpuArch(), have, why);
  if (best < 0 && options.load_code)
    return Error(DLC_STATUS_UNAVAILABLE)
           << "artifact '" << outer.name() << "' has no variant "
           << (options.cpu_features ? "a CPU with features '" + std::string(options.cpu_features) + "'"
                                    : std::string("this CPU"))
           << " can run: " << why;
  chosen = best < 0 ? 0 : uint32_t(best); // Not to run: inspect the first.
  return nullptr;
}

/// A container (0.7) becomes the variant chosen from it, which borrows the
/// container's bytes and keeps it alive.
dlc_status_t openVariant(std::unique_ptr<Artifact> &artifact, const dlc_model_options_t &options,
                         dlc_model_s &model) {
  uint32_t chosen = 0;
  DLC_RETURN_IF_ERROR(chooseContainerVariant(*artifact, options, model, chosen));
  uint32_t segment = artifact->model().variants()->Get(chosen)->segment();
  std::unique_ptr<Artifact> inner;
  DLC_RETURN_IF_ERROR(Artifact::loadMemory(
      artifact->segmentData(segment), artifact->segmentSize(segment),
      artifact->name() + " [" + model.variants[chosen].cpu + "]", /*borrow=*/true, inner));
  if (inner->isContainer())
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << artifact->name() << "': variant " << chosen
           << " is itself a multi-target artifact";
  model.chosenVariant = int(chosen);
  inner->keepContainer(std::move(artifact));
  artifact = std::move(inner);
  return nullptr;
}

dlc_status_t finishLoad(std::unique_ptr<Artifact> artifact,
                        const dlc_model_options_t *options,
                        dlc_model_t **out) {
  dlc_model_options_t defaults;
  dlc_model_options_initialize(&defaults);
  if (!options)
    options = &defaults;
  auto model = std::make_unique<dlc_model_s>();
  if (artifact->isContainer())
    DLC_RETURN_IF_ERROR(openVariant(artifact, *options, *model));
  else if (options->variant > 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "artifact '" << artifact->name() << "' has no variant " << options->variant
           << " (it is compiled for one target)";
  model->artifact = std::move(artifact);
  const fb::Model &m = model->artifact->model();
  model->producer = str(m.producer());
  fillTensorInfos(*model->artifact, m.inputs(), model->inputs);
  fillTensorInfos(*model->artifact, m.outputs(), model->outputs);
  fillTensorInfos(*model->artifact, m.state(), model->state);
  for (uint32_t i = 0; i < count(m.devices()); ++i)
    model->deviceNames.push_back(deviceName(*m.devices()->Get(i)));
  if (options->verify_schedule)
    DLC_RETURN_IF_ERROR(verifySchedule(*model->artifact));
  if (options->load_code)
    DLC_RETURN_IF_ERROR(loadCode(*model));
  *out = model.release();
  return nullptr;
}

dlc_status_t checkOut(void *out, const char *fn) {
  if (!out)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << fn << ": null output pointer";
  return nullptr;
}
} // namespace

extern "C" void dlc_model_options_initialize(dlc_model_options_t *options) {
  options->name = nullptr;
  options->load_code = 1;
  options->verify_schedule = 0;
  options->borrow_memory = 0;
  options->cpu_features = nullptr;
  options->variant = -1;
}

extern "C" dlc_status_t dlc_model_load_file(const char *path,
                                            const dlc_model_options_t *options,
                                            dlc_model_t **out_model) {
  return guard([&]() -> dlc_status_t {
    DLC_RETURN_IF_ERROR(checkOut(out_model, "dlc_model_load_file"));
    *out_model = nullptr;
    if (!path)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "dlc_model_load_file: null path";
    std::unique_ptr<Artifact> artifact;
    DLC_RETURN_IF_ERROR(Artifact::loadFile(path, artifact));
    return finishLoad(std::move(artifact), options, out_model);
  });
}

extern "C" dlc_status_t dlc_model_load_memory(const void *data, size_t size,
                                              const dlc_model_options_t *options,
                                              dlc_model_t **out_model) {
  return guard([&]() -> dlc_status_t {
    DLC_RETURN_IF_ERROR(checkOut(out_model, "dlc_model_load_memory"));
    *out_model = nullptr;
    std::string name = options && options->name ? options->name : "<memory>";
    bool borrow = options && options->borrow_memory;
    bool loadCode = !options || options->load_code;
    if (borrow && loadCode && reinterpret_cast<uintptr_t>(data) % 64 != 0)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "artifact '" << name << "': borrowed memory at " << data
             << " is not 64-byte aligned, as its constants must be to run; copy it "
                "(borrow_memory = 0) or load it with load_code = 0";
    std::unique_ptr<Artifact> artifact;
    DLC_RETURN_IF_ERROR(Artifact::loadMemory(data, size, name, borrow, artifact));
    return finishLoad(std::move(artifact), options, out_model);
  });
}

extern "C" void dlc_model_retain(dlc_model_t *model) {
  if (model)
    model->refs.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void dlc_model_release(dlc_model_t *model) {
  if (model && model->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete model;
}

extern "C" const char *dlc_model_name(const dlc_model_t *model) {
  return model->artifact->name().c_str();
}

extern "C" const char *dlc_model_producer(const dlc_model_t *model) {
  return model->producer.c_str();
}

extern "C" void dlc_model_version(const dlc_model_t *model, uint32_t *major,
                                  uint32_t *minor) {
  if (major)
    *major = model->artifact->model().version_major();
  if (minor)
    *minor = model->artifact->model().version_minor();
}

extern "C" size_t dlc_model_variant_count(const dlc_model_t *model) {
  return model->variants.size();
}

extern "C" dlc_status_t dlc_model_variant_info(const dlc_model_t *model, size_t index,
                                               dlc_variant_info_t *out_info) {
  if (!out_info)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_model_variant_info: null output pointer";
  if (index >= model->variants.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << model->artifact->name() << "' has no variant " << index
           << " (it has " << model->variants.size() << ")";
  const dlc_model_s::Variant &v = model->variants[index];
  out_info->target_triple = v.triple.c_str();
  out_info->target_cpu = v.cpu.c_str();
  out_info->cpu_features = v.features.c_str();
  out_info->chosen = int(index) == model->chosenVariant;
  out_info->unavailable = v.unavailable.c_str();
  return nullptr;
}

extern "C" size_t dlc_model_symbol_count(const dlc_model_t *model) {
  return count(model->artifact->model().symbols());
}

extern "C" dlc_status_t dlc_model_symbol_info(const dlc_model_t *model, size_t index,
                                              dlc_symbol_info_t *out_info) {
  if (!out_info)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << "dlc_model_symbol_info: null output pointer";
  const auto *symbols = model->artifact->model().symbols();
  if (index >= count(symbols))
    return Error(DLC_STATUS_NOT_FOUND) << "model '" << model->artifact->name()
                                       << "' has no symbol " << index << " (it has "
                                       << count(symbols) << ")";
  const fb::Symbol &sym = *symbols->Get(uint32_t(index));
  out_info->name = sym.name() ? sym.name()->c_str() : "";
  out_info->bound = sym.bound();
  return nullptr;
}

extern "C" size_t dlc_model_input_count(const dlc_model_t *model) {
  return model->inputs.size();
}

extern "C" size_t dlc_model_output_count(const dlc_model_t *model) {
  return model->outputs.size();
}

namespace {
dlc_status_t tensorInfo(const dlc_model_t *model,
                        const std::vector<TensorInfo> &infos, const char *what,
                        size_t index, dlc_tensor_info_t *out) {
  if (!out)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_model_" << what << "_info: null output pointer";
  if (index >= infos.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << model->artifact->name() << "' has no " << what
           << " " << index << " (it has " << infos.size() << ")";
  *out = infos[index].info;
  return nullptr;
}

dlc_status_t findTensor(const dlc_model_t *model,
                        const std::vector<TensorInfo> &infos, const char *what,
                        const char *name, size_t *out) {
  if (!out || !name)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_model_find_" << what << ": null argument";
  for (size_t i = 0; i < infos.size(); ++i)
    if (infos[i].name == name) {
      *out = i;
      return nullptr;
    }
  return Error(DLC_STATUS_NOT_FOUND)
         << "model '" << model->artifact->name() << "' has no " << what
         << " named '" << name << "'";
}
} // namespace

extern "C" dlc_status_t dlc_model_input_info(const dlc_model_t *model,
                                             size_t index,
                                             dlc_tensor_info_t *out_info) {
  return tensorInfo(model, model->inputs, "input", index, out_info);
}

extern "C" dlc_status_t dlc_model_output_info(const dlc_model_t *model,
                                              size_t index,
                                              dlc_tensor_info_t *out_info) {
  return tensorInfo(model, model->outputs, "output", index, out_info);
}

extern "C" dlc_status_t dlc_model_find_input(const dlc_model_t *model,
                                             const char *name,
                                             size_t *out_index) {
  return guard([&] {
    return findTensor(model, model->inputs, "input", name, out_index);
  });
}

extern "C" dlc_status_t dlc_model_find_output(const dlc_model_t *model,
                                              const char *name,
                                              size_t *out_index) {
  return guard([&] {
    return findTensor(model, model->outputs, "output", name, out_index);
  });
}

extern "C" size_t dlc_model_state_count(const dlc_model_t *model) {
  return model->state.size();
}

extern "C" dlc_status_t dlc_model_state_info(const dlc_model_t *model,
                                             size_t index,
                                             dlc_tensor_info_t *out_info) {
  return tensorInfo(model, model->state, "state", index, out_info);
}

extern "C" dlc_status_t dlc_model_find_state(const dlc_model_t *model,
                                             const char *name,
                                             size_t *out_index) {
  return guard([&] {
    return findTensor(model, model->state, "state", name, out_index);
  });
}

extern "C" size_t dlc_model_device_count(const dlc_model_t *model) {
  return model->deviceNames.size();
}

extern "C" dlc_status_t dlc_model_device_info(const dlc_model_t *model,
                                              size_t index,
                                              dlc_device_info_t *out_info) {
  if (!out_info)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_model_device_info: null output pointer";
  if (index >= model->deviceNames.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << model->artifact->name() << "' has no device "
           << index << " (it has " << model->deviceNames.size() << ")";
  const fb::Device &d = *model->artifact->model().devices()->Get(index);
  out_info->kind = static_cast<dlc_device_kind_t>(d.kind());
  out_info->index = d.index();
  out_info->arena_size = d.arena_size();
  out_info->name = model->deviceNames[index].c_str();
  return nullptr;
}

// The C API's enums mirror the schema's (the one definition, which the
// compiler uses too): the casts above and below rely on it.
#define DLC_SAME_ENUM(c, fb) static_assert(int(c) == int(fb), #c " differs from the schema")
DLC_SAME_ENUM(DLC_DTYPE_F32, fb::DType::F32);
DLC_SAME_ENUM(DLC_DTYPE_F16, fb::DType::F16);
DLC_SAME_ENUM(DLC_DTYPE_BF16, fb::DType::BF16);
DLC_SAME_ENUM(DLC_DTYPE_I32, fb::DType::I32);
DLC_SAME_ENUM(DLC_DTYPE_I64, fb::DType::I64);
DLC_SAME_ENUM(DLC_DTYPE_I1, fb::DType::I1);
DLC_SAME_ENUM(DLC_DTYPE_F64, fb::DType::F64);
DLC_SAME_ENUM(DLC_DTYPE_I8, fb::DType::I8);
DLC_SAME_ENUM(DLC_DTYPE_U8, fb::DType::U8);
DLC_SAME_ENUM(DLC_DTYPE_I16, fb::DType::I16);
DLC_SAME_ENUM(DLC_DTYPE_U16, fb::DType::U16);
DLC_SAME_ENUM(DLC_DTYPE_U32, fb::DType::U32);
DLC_SAME_ENUM(DLC_DTYPE_U64, fb::DType::U64);
static_assert(fb::DType::MAX == fb::DType::U64, "a dtype was added to the schema: add it to runtime.h");
DLC_SAME_ENUM(DLC_DEVICE_CPU, fb::DeviceKind::Cpu);
DLC_SAME_ENUM(DLC_DEVICE_CUDA, fb::DeviceKind::Cuda);
#undef DLC_SAME_ENUM

extern "C" const char *dlc_dtype_name(dlc_dtype_t dtype) {
  switch (dtype) {
  case DLC_DTYPE_F32: return "f32";
  case DLC_DTYPE_F16: return "f16";
  case DLC_DTYPE_BF16: return "bf16";
  case DLC_DTYPE_I32: return "i32";
  case DLC_DTYPE_I64: return "i64";
  case DLC_DTYPE_I1: return "i1";
  case DLC_DTYPE_F64: return "f64";
  case DLC_DTYPE_I8: return "i8";
  case DLC_DTYPE_U8: return "u8";
  case DLC_DTYPE_I16: return "i16";
  case DLC_DTYPE_U16: return "u16";
  case DLC_DTYPE_U32: return "u32";
  case DLC_DTYPE_U64: return "u64";
  }
  return "?";
}

extern "C" size_t dlc_dtype_size(dlc_dtype_t dtype) {
  return dtypeSize(static_cast<fb::DType>(dtype));
}
