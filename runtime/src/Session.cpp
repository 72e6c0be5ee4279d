//===- Session.cpp - dlc_session_t: arenas, inputs, run, outputs ----------===//
//
// Creating a session turns the schedule into a flat program: every buffer
// index is resolved once to a pointer (arena base + offset, or the constant's
// bytes in the model), so run() only calls kernels and copies memory.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FlatUtil.h"
#include "Model.h"

#include <cstring>
#include <sys/mman.h>

using namespace dlc::rt;

namespace {

/// One device's memory: anonymous pages, zeroed and page (so 64-byte)
/// aligned; reserved lazily, so a large arena costs what is touched.
struct Arena {
  uint8_t *base = nullptr;
  size_t size = 0;
  Arena() = default;
  Arena(const Arena &) = delete;
  ~Arena() {
    if (base)
      ::munmap(base, size);
  }
};

struct Op {
  fb::StepKind kind;
  KernelFn fn = nullptr;
  std::vector<void *> args; // Call: the kernel's buffers; Copy: src, dst.
  size_t bytes = 0;         // Copy.
};

} // namespace

struct dlc_session_s {
  std::atomic<int> refs{1};
  dlc_model_t *model = nullptr;
  std::vector<std::unique_ptr<Arena>> arenas; // By device index.
  std::vector<uint8_t *> buffers;             // By buffer index.
  std::vector<Op> program;

  ~dlc_session_s() { dlc_model_release(model); }
};

namespace {

dlc_status_t build(dlc_session_s &s, const dlc_session_options_t &options) {
  const Artifact &a = *s.model->artifact;
  const fb::Model &m = a.model();
  const std::string &name = a.name();
  if (!s.model->codeLoaded)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "model '" << name
           << "' was loaded without its code (load_code = 0): it cannot run";
  if (options.thread_count < 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: thread_count " << options.thread_count
           << " is negative";
  if (options.gpu_binding != 0)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "session options: gpu_binding must be 0 in this version";
  for (uint32_t d = 0; d < count(m.devices()); ++d) {
    const fb::Device &dev = *m.devices()->Get(d);
    if (dev.kind() != fb::DeviceKind::Cpu)
      return Error(DLC_STATUS_UNAVAILABLE)
             << deviceName(dev)
             << ": GPU devices are not supported by this runtime yet";
  }
  for (uint32_t d = 0; d < count(m.devices()); ++d) {
    auto arena = std::make_unique<Arena>();
    uint64_t size = m.devices()->Get(d)->arena_size();
    if (size) {
      void *p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED)
        return Error(DLC_STATUS_OUT_OF_MEMORY)
               << "model '" << name << "': cannot allocate the arena of "
               << s.model->deviceNames[d] << " (" << size << " bytes)";
      arena->base = static_cast<uint8_t *>(p);
      arena->size = size;
    }
    s.arenas.push_back(std::move(arena));
  }
  for (uint32_t i = 0; i < count(m.buffers()); ++i) {
    const fb::Buffer &b = *m.buffers()->Get(i);
    if (b.constant_segment() >= 0)
      // Kernels only read constants; the const_cast is the ABI's void **.
      s.buffers.push_back(
          const_cast<uint8_t *>(a.segmentData(b.constant_segment())));
    else
      s.buffers.push_back(s.arenas[b.device()]->base
                              ? s.arenas[b.device()]->base + b.offset()
                              : nullptr);
  }
  for (uint32_t k = 0; k < count(m.schedules()); ++k) {
    const fb::DeviceSchedule &sched = *m.schedules()->Get(k);
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      Op op;
      op.kind = step.kind();
      for (uint32_t j = 0; j < count(step.buffers()); ++j)
        op.args.push_back(s.buffers[step.buffers()->Get(j)]);
      if (step.kind() == fb::StepKind::Call) {
        op.fn = s.model->kernels[step.kernel()];
      } else if (step.kind() == fb::StepKind::Copy) {
        op.bytes = m.buffers()->Get(step.buffers()->Get(0))->size();
      } else {
        return Error(DLC_STATUS_UNIMPLEMENTED)
               << "model '" << name << "': step " << i << " of "
               << s.model->deviceNames[sched.device()] << " is a "
               << fb::EnumNameStepKind(step.kind())
               << " step, which this runtime does not run yet";
      }
      s.program.push_back(std::move(op));
    }
  }
  return nullptr;
}

dlc_status_t checkSession(const dlc_session_t *session, const char *fn) {
  if (!session)
    return Error(DLC_STATUS_INVALID_ARGUMENT) << fn << ": null session";
  return nullptr;
}

/// The buffer of input/output `index`, with its size.
dlc_status_t tensorBuffer(dlc_session_t *s, bool output, size_t index,
                          uint8_t *&ptr, size_t &bytes) {
  const auto &infos = output ? s->model->outputs : s->model->inputs;
  if (index >= infos.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << s->model->artifact->name() << "' has no "
           << (output ? "output " : "input ") << index << " (it has "
           << infos.size() << ")";
  const fb::Model &m = s->model->artifact->model();
  uint32_t buffer =
      (output ? m.outputs() : m.inputs())->Get(static_cast<uint32_t>(index))
          ->buffer();
  ptr = s->buffers[buffer];
  bytes = infos[index].info.byte_size;
  return nullptr;
}

dlc_status_t checkBytes(dlc_session_t *s, bool output, size_t index,
                        size_t expected, size_t got, const char *fn) {
  if (expected == got)
    return nullptr;
  const auto &info = (output ? s->model->outputs : s->model->inputs)[index];
  return Error(DLC_STATUS_INVALID_ARGUMENT)
         << fn << ": " << (output ? "output " : "input ") << index << " ('"
         << info.name << "') has " << expected << " bytes, got " << got;
}

} // namespace

extern "C" void dlc_session_options_initialize(dlc_session_options_t *options) {
  options->thread_count = 0;
  options->gpu_binding = 0;
}

extern "C" dlc_status_t dlc_session_create(dlc_model_t *model,
                                           const dlc_session_options_t *options,
                                           dlc_session_t **out_session) {
  return guard([&]() -> dlc_status_t {
    if (!model || !out_session)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "dlc_session_create: null argument";
    *out_session = nullptr;
    dlc_session_options_t defaults;
    dlc_session_options_initialize(&defaults);
    auto session = std::make_unique<dlc_session_s>();
    dlc_model_retain(model);
    session->model = model;
    DLC_RETURN_IF_ERROR(build(*session, options ? *options : defaults));
    *out_session = session.release();
    return nullptr;
  });
}

extern "C" void dlc_session_retain(dlc_session_t *session) {
  if (session)
    session->refs.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void dlc_session_release(dlc_session_t *session) {
  if (session && session->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete session;
}

extern "C" dlc_model_t *dlc_session_model(const dlc_session_t *session) {
  return session ? session->model : nullptr;
}

extern "C" dlc_status_t dlc_session_set_input(dlc_session_t *session,
                                              size_t index, const void *data,
                                              size_t bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_set_input"));
  uint8_t *ptr;
  size_t size;
  DLC_RETURN_IF_ERROR(tensorBuffer(session, false, index, ptr, size));
  DLC_RETURN_IF_ERROR(
      checkBytes(session, false, index, size, bytes, "dlc_session_set_input"));
  if (size && !data)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_set_input: null data for input " << index;
  if (size)
    std::memcpy(ptr, data, size);
  return nullptr;
}

extern "C" dlc_status_t dlc_session_run(dlc_session_t *session) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_run"));
  for (Op &op : session->program) {
    if (op.kind == fb::StepKind::Call)
      op.fn(op.args.data());
    else if (op.bytes)
      std::memmove(op.args[1], op.args[0], op.bytes);
  }
  return nullptr;
}

extern "C" dlc_status_t dlc_session_output(dlc_session_t *session, size_t index,
                                           const void **data, size_t *bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_output"));
  if (!data || !bytes)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_output: null output pointer";
  uint8_t *ptr;
  size_t size;
  DLC_RETURN_IF_ERROR(tensorBuffer(session, true, index, ptr, size));
  *data = ptr;
  *bytes = size;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_copy_output(dlc_session_t *session,
                                                size_t index, void *dst,
                                                size_t bytes) {
  DLC_RETURN_IF_ERROR(checkSession(session, "dlc_session_copy_output"));
  uint8_t *ptr;
  size_t size;
  DLC_RETURN_IF_ERROR(tensorBuffer(session, true, index, ptr, size));
  DLC_RETURN_IF_ERROR(checkBytes(session, true, index, size, bytes,
                                 "dlc_session_copy_output"));
  if (size && !dst)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_copy_output: null destination";
  if (size)
    std::memcpy(dst, ptr, size);
  return nullptr;
}
