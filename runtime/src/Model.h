//===- Model.h - the objects behind dlc_model_t and dlc_session_t ---------===//

#ifndef DLC_RUNTIME_MODEL_H
#define DLC_RUNTIME_MODEL_H

#include "Artifact.h"
#include "SharedObject.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace dlc::rt {

/// The ABI of every CPU kernel: one pointer per Step.buffers entry.
using KernelFn = void (*)(void **buffers);

struct TensorInfo {
  std::string name;
  std::vector<int64_t> shape, maxShape;
  dlc_tensor_info_t info; // Points into the fields above.
};

} // namespace dlc::rt

/// Immutable after load; only the reference count changes.
struct dlc_model_s {
  std::atomic<int> refs{1};
  std::unique_ptr<dlc::rt::Artifact> artifact;
  std::string producer;
  std::vector<dlc::rt::TensorInfo> inputs, outputs, state;
  std::vector<std::string> deviceNames;
  bool codeLoaded = false;
  std::vector<std::unique_ptr<dlc::rt::SharedObject>> libraries;
  std::vector<dlc::rt::KernelFn> kernels; // By kernel index.
  /// 0.8: each kernel's chunk body (Kernel.chunk_symbol), or null.
  std::vector<dlc::rt::KernelFn> chunkKernels;
  /// 0.7: the container's variants (empty for a single-target artifact).
  struct Variant {
    std::string triple, cpu, features, unavailable;
  };
  std::vector<Variant> variants;
  int chosenVariant = -1;
};

namespace dlc::rt {
/// Loads the libraries of a verified artifact and resolves every kernel.
dlc_status_t loadCode(dlc_model_s &model);
} // namespace dlc::rt

#endif // DLC_RUNTIME_MODEL_H
