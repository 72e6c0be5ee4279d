//===- dlc/runtime.hpp - header-only C++ wrapper of the C API -------------===//
//
// RAII handles over dlc/runtime.h: Status owns a dlc_status_t, Model and
// Session hold one reference each (copies retain, destructors release).
// Fallible calls return Status; nothing throws. Threading rules are the C
// API's: a Model may be shared across threads, a Session is used by one
// thread at a time.
//
//   dlc::Model model;
//   if (dlc::Status s = dlc::Model::loadFile("m.dlcm", model); !s.ok()) ...
//   dlc::Session session;
//   dlc::Session::create(model, session);
//   session.setInput(0, input.data(), input.size() * sizeof(float));
//   session.run();
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_HPP
#define DLC_RUNTIME_HPP

#include "dlc/runtime.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlc {

class Status {
public:
  Status() = default;
  /// Takes ownership of `status`.
  explicit Status(dlc_status_t status) : status(status) {}
  Status(Status &&other) noexcept : status(std::exchange(other.status, nullptr)) {}
  Status &operator=(Status &&other) noexcept {
    std::swap(status, other.status);
    return *this;
  }
  ~Status() { dlc_status_free(status); }

  bool ok() const { return status == nullptr; }
  explicit operator bool() const { return ok(); }
  dlc_status_code_t code() const { return dlc_status_code(status); }
  std::string message() const { return dlc_status_message(status); }
  /// "data_loss: artifact 'm.dlcm': ..."; "ok" for success.
  std::string toString() const {
    return ok() ? "ok"
                : std::string(dlc_status_code_name(code())) + ": " + message();
  }
  /// Gives the C status back (the caller frees it).
  dlc_status_t release() { return std::exchange(status, nullptr); }

private:
  dlc_status_t status = nullptr;
};

/// The dtype that C++ type T holds: float, double, int8_t ... int64_t,
/// uint8_t ... uint64_t. f16 and bf16 have no C++ type: use the untyped calls
/// with raw bits.
template <typename T> constexpr dlc_dtype_t dtypeOf() {
  if constexpr (std::is_same_v<T, float>) return DLC_DTYPE_F32;
  else if constexpr (std::is_same_v<T, double>) return DLC_DTYPE_F64;
  else if constexpr (std::is_same_v<T, int8_t>) return DLC_DTYPE_I8;
  else if constexpr (std::is_same_v<T, int16_t>) return DLC_DTYPE_I16;
  else if constexpr (std::is_same_v<T, int32_t>) return DLC_DTYPE_I32;
  else if constexpr (std::is_same_v<T, int64_t>) return DLC_DTYPE_I64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DLC_DTYPE_U8;
  else if constexpr (std::is_same_v<T, uint16_t>) return DLC_DTYPE_U16;
  else if constexpr (std::is_same_v<T, uint32_t>) return DLC_DTYPE_U32;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "no dlc dtype for this type");
    return DLC_DTYPE_U64;
  }
}
/// Whether T's elements are `dtype`'s: dtypeOf<T>, and uint8_t for i1 too
/// (one byte per element, 0 or 1).
template <typename T> constexpr bool holds(dlc_dtype_t dtype) {
  return dtype == dtypeOf<T>() || (std::is_same_v<T, uint8_t> && dtype == DLC_DTYPE_I1);
}

class Model {
public:
  Model() = default;
  Model(const Model &o) : model(o.model) { dlc_model_retain(model); }
  Model(Model &&o) noexcept : model(std::exchange(o.model, nullptr)) {}
  Model &operator=(Model o) noexcept {
    std::swap(model, o.model);
    return *this;
  }
  ~Model() { dlc_model_release(model); }

  static Status loadFile(const std::string &path, Model &out,
                         const dlc_model_options_t *options = nullptr) {
    Model m;
    Status s(dlc_model_load_file(path.c_str(), options, &m.model));
    if (s.ok())
      out = std::move(m);
    return s;
  }
  static Status loadMemory(const void *data, size_t size, Model &out,
                           const dlc_model_options_t *options = nullptr) {
    Model m;
    Status s(dlc_model_load_memory(data, size, options, &m.model));
    if (s.ok())
      out = std::move(m);
    return s;
  }

  dlc_model_t *get() const { return model; }
  explicit operator bool() const { return model != nullptr; }
  size_t inputCount() const { return dlc_model_input_count(model); }
  size_t outputCount() const { return dlc_model_output_count(model); }
  dlc_tensor_info_t input(size_t i) const {
    dlc_tensor_info_t info{};
    Status(dlc_model_input_info(model, i, &info));
    return info;
  }
  dlc_tensor_info_t output(size_t i) const {
    dlc_tensor_info_t info{};
    Status(dlc_model_output_info(model, i, &info));
    return info;
  }
  std::vector<int64_t> shape(const dlc_tensor_info_t &info) const {
    return std::vector<int64_t>(info.shape, info.shape + info.rank);
  }

private:
  dlc_model_t *model = nullptr;
};

class Session {
public:
  Session() = default;
  Session(const Session &o) : session(o.session) { dlc_session_retain(session); }
  Session(Session &&o) noexcept : session(std::exchange(o.session, nullptr)) {}
  Session &operator=(Session o) noexcept {
    std::swap(session, o.session);
    return *this;
  }
  ~Session() { dlc_session_release(session); }

  static Status create(const Model &model, Session &out,
                       const dlc_session_options_t *options = nullptr) {
    Session s;
    Status st(dlc_session_create(model.get(), options, &s.session));
    if (st.ok())
      out = std::move(s);
    return st;
  }

  dlc_session_t *get() const { return session; }
  Status setInput(size_t i, const void *data, size_t bytes) {
    return Status(dlc_session_set_input(session, i, data, bytes));
  }
  /// Checks the element type against the input's dtype, then copies.
  template <typename T> Status setInput(size_t i, const std::vector<T> &values) {
    dlc_tensor_info_t info{};
    if (Status s(dlc_model_input_info(dlc_session_model(session), i, &info));
        !s.ok())
      return s;
    if (!holds<T>(info.dtype))
      return Status(dlc_status_create(
          DLC_STATUS_INVALID_ARGUMENT,
          (std::string("input '") + info.name + "' is " +
           dlc_dtype_name(info.dtype) + ", not " +
           dlc_dtype_name(dtypeOf<T>()))
              .c_str()));
    return setInput(i, values.data(), values.size() * sizeof(T));
  }
  Status run() { return Status(dlc_session_run(session)); }
  /// Output bytes, valid until the next run/setInput or the release.
  Status output(size_t i, const void *&data, size_t &bytes) {
    return Status(dlc_session_output(session, i, &data, &bytes));
  }
  /// Output `i` as the last run made it (its shape at the run's batch).
  Status outputInfo(size_t i, dlc_tensor_info_t &info) {
    return Status(dlc_session_output_info(session, i, &info));
  }
  /// A copy of output `i` as T elements (dtype checked), at the last run's
  /// batch.
  template <typename T> Status output(size_t i, std::vector<T> &out) {
    dlc_tensor_info_t info{};
    if (Status s(dlc_session_output_info(session, i, &info)); !s.ok())
      return s;
    if (!holds<T>(info.dtype))
      return Status(dlc_status_create(
          DLC_STATUS_INVALID_ARGUMENT,
          (std::string("output '") + info.name + "' is " +
           dlc_dtype_name(info.dtype) + ", not " +
           dlc_dtype_name(dtypeOf<T>()))
              .c_str()));
    out.resize(info.byte_size / sizeof(T));
    return Status(
        dlc_session_copy_output(session, i, out.data(), info.byte_size));
  }

  /// Pipelined runs: one pointer and byte count per input / output.
  Status submit(const std::vector<const void *> &inputs,
                const std::vector<size_t> &bytes, uint64_t &ticket) {
    return Status(dlc_session_submit(session, inputs.data(), bytes.data(),
                                     inputs.size(), &ticket));
  }
  Status wait(uint64_t ticket, const std::vector<void *> &outputs,
              const std::vector<size_t> &bytes) {
    return Status(dlc_session_wait(session, ticket, outputs.data(),
                                   bytes.data(), outputs.size()));
  }
  Status deviceStats(size_t device, dlc_device_stats_t &out) const {
    return Status(dlc_session_device_stats(session, device, &out));
  }
  Status writeTrace(const std::string &path) const {
    return Status(dlc_session_write_trace(session, path.c_str()));
  }

private:
  dlc_session_t *session = nullptr;
};

} // namespace dlc

#endif // DLC_RUNTIME_HPP
