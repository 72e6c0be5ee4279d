//===- Profile.cpp - per-device statistics and Chrome traces --------------===//
//
// The trace format is Chrome's "Trace Event Format" (JSON object with a
// traceEvents array), which Perfetto and chrome://tracing open: one process
// (the session), one thread track per device (tid = device index + 1),
// complete events ("ph": "X") for kernels, copies and waits, instant events
// for records. Timestamps are microseconds since the session's creation.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FlatUtil.h"
#include "JsonText.h"
#include "Session.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace dlc::rt;

namespace {

std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", double(ns) / 1000.0);
  return buf;
}

const char *bindingName(Binding b) {
  return b == Binding::Cpu ? "cpu" : b == Binding::SimGpu ? "sim" : "cuda";
}

/// The name of a traced step: the kernel's, "copy SRC -> DST", "wait event N".
std::string spanName(const fb::Model &m, const fb::Step &step) {
  auto buffer = [&](uint32_t j) {
    return "'" + str(m.buffers()->Get(step.buffers()->Get(j))->name()) + "'";
  };
  switch (step.kind()) {
  case fb::StepKind::Call:
    return str(m.kernels()->Get(step.kernel())->name());
  case fb::StepKind::Copy:
    return "copy " + buffer(0) + " -> " + buffer(1);
  case fb::StepKind::RecordEvent:
    return "record event " + std::to_string(step.event());
  default:
    return "wait event " + std::to_string(step.event());
  }
}

} // namespace

extern "C" dlc_status_t dlc_session_device_stats(dlc_session_t *session,
                                                 size_t index,
                                                 dlc_device_stats_t *out) {
  if (!session || !out)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_device_stats: null argument";
  if (index >= session->stats.size())
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << session->model->artifact->name()
           << "' has no device " << index << " (it has "
           << session->stats.size() << ")";
  const DeviceStats &st = session->stats[index];
  out->name = session->model->deviceNames[index].c_str();
  out->binding = bindingName(session->bindings[index]);
  out->runs = st.runs;
  out->steps = st.steps;
  out->busy_ns = st.busyNs;
  out->copy_ns = st.copyNs;
  out->wait_ns = st.waitNs;
  out->bytes_copied = st.bytesCopied;
  out->active_ns = session->activeNs;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_kernel_stats(dlc_session_t *session,
                                                 size_t index,
                                                 dlc_kernel_stats_t *out) {
  if (!session || !out)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_kernel_stats: null argument";
  const fb::Model &m = session->model->artifact->model();
  if (index >= count(m.kernels()))
    return Error(DLC_STATUS_NOT_FOUND)
           << "model '" << session->model->artifact->name()
           << "' has no kernel " << index << " (it has " << count(m.kernels())
           << ")";
  const flatbuffers::String *name = m.kernels()->Get(index)->name();
  out->name = name ? name->c_str() : "";
  out->calls = out->ns = 0;
  for (const DeviceStats &st : session->stats) {
    out->calls += st.kernelCalls[index];
    out->ns += st.kernelNs[index];
  }
  return nullptr;
}

extern "C" dlc_status_t dlc_session_reset_stats(dlc_session_t *session) {
  if (!session)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_reset_stats: null argument";
  for (const auto &slot : session->slots)
    if (slot->inFlight)
      return Error(DLC_STATUS_INVALID_ARGUMENT)
             << "dlc_session_reset_stats: a run is in flight (wait for it first)";
  for (DeviceStats &st : session->stats) {
    st.runs = st.steps = st.busyNs = st.copyNs = st.waitNs = st.bytesCopied = 0;
    std::fill(st.kernelCalls.begin(), st.kernelCalls.end(), 0);
    std::fill(st.kernelNs.begin(), st.kernelNs.end(), 0);
  }
  session->activeNs = 0;
  return nullptr;
}

extern "C" dlc_status_t dlc_session_write_trace(dlc_session_t *session,
                                                const char *path) {
  if (!session || !path)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_write_trace: null argument";
  if (!session->options.profile)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "dlc_session_write_trace: the session was created without "
              "profile = 1: there is no trace";
  return guard([&]() -> dlc_status_t {
    const fb::Model &m = session->model->artifact->model();
    std::vector<const fb::DeviceSchedule *> schedules(session->stats.size());
    for (uint32_t k = 0; k < count(m.schedules()); ++k)
      schedules[m.schedules()->Get(k)->device()] = m.schedules()->Get(k);
    std::string out = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
    out += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
           "\"tid\": 0, \"args\": {\"name\": " +
           jsonQuote("dlc session: " + session->model->artifact->name()) + "}}";
    for (size_t d = 0; d < session->stats.size(); ++d) {
      std::string tid = std::to_string(d + 1);
      std::string track = session->model->deviceNames[d] + " (" +
                          bindingName(session->bindings[d]) + ")";
      out += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
             "\"tid\": " + tid + ", \"args\": {\"name\": " + jsonQuote(track) +
             "}}";
      for (const Span &span : session->stats[d].spans) {
        const fb::Step &step = *schedules[d]->steps()->Get(span.step);
        auto kind = fb::StepKind(span.kind);
        const char *cat = kind == fb::StepKind::Call   ? "kernel"
                          : kind == fb::StepKind::Copy ? "copy"
                          : kind == fb::StepKind::WaitEvent ? "wait"
                                                            : "event";
        std::string args = "\"step\": " + std::to_string(span.step) +
                           ", \"run\": " + std::to_string(span.run);
        if (kind == fb::StepKind::Copy) {
          int64_t ns = span.endNs - span.startNs;
          char rate[32];
          std::snprintf(rate, sizeof rate, "%.3f",
                        ns > 0 ? double(span.bytes) / double(ns) : 0.0);
          args += ", \"bytes\": " + std::to_string(span.bytes) +
                  ", \"GB/s\": " + rate;
        }
        out += ",\n{\"name\": " + jsonQuote(spanName(m, step)) +
               ", \"cat\": \"" + cat + "\", \"pid\": 1, \"tid\": " + tid +
               ", \"ts\": " + micros(span.startNs);
        if (kind == fb::StepKind::RecordEvent)
          out += ", \"ph\": \"i\", \"s\": \"t\"";
        else
          out += ", \"ph\": \"X\", \"dur\": " +
                 micros(span.endNs - span.startNs);
        out += ", \"args\": {" + args + "}}";
      }
    }
    out += "\n]}\n";
    std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path, "wb"),
                                             std::fclose);
    if (!f || std::fwrite(out.data(), 1, out.size(), f.get()) != out.size())
      return Error(DLC_STATUS_NOT_FOUND)
             << "cannot write the trace to '" << path
             << "': " << std::strerror(errno);
    return nullptr;
  });
}
