//===- Artifact.h - a verified .dlcm artifact in memory -------------------===//
//
// Owns the artifact's bytes (64-byte aligned, so that constant segments are
// aligned for kernels), or borrows the caller's (loadMemory with `borrow`),
// and guarantees, once load() succeeded, that every
// field the runtime reads is in range: the FlatBuffer passed the FlatBuffers
// verifier, the version is one this runtime reads, every index points at
// something, every size adds up and every segment's CRC-32 matches. Code
// that holds a verified Artifact may index without further checks.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_ARTIFACT_H
#define DLC_RUNTIME_ARTIFACT_H

#include "dlc/runtime.h"
#include "dlcm_generated.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

namespace dlc::rt {

namespace fb = dlc::artifact;

/// Bytes per element of a schema dtype; 0 when the value is not a DType.
size_t dtypeSize(fb::DType dtype);
/// "cpu", "cuda:N".
std::string deviceName(const fb::Device &device);

/// Dynamic shared memory per block on the largest GPUs (227 KiB, sm_90).
constexpr uint32_t kMaxCudaSharedBytes = 227 * 1024;

class Artifact {
public:
  /// Reads and verifies the file at `path`.
  static dlc_status_t loadFile(const std::string &path,
                               std::unique_ptr<Artifact> &out);
  /// Copies `size` bytes from `data` (with `borrow`: uses them in place;
  /// they must outlive the Artifact) and verifies them; `name` labels errors.
  static dlc_status_t loadMemory(const void *data, size_t size,
                                 const std::string &name, bool borrow,
                                 std::unique_ptr<Artifact> &out);
  /// The first byte; 64-byte aligned unless borrowed.
  const uint8_t *data() const { return base; }

  const std::string &name() const { return label; }
  /// 0.7: a multi-target container (Model.variants, nothing else).
  bool isContainer() const;
  /// A variant loaded from a container's segment borrows its bytes: it keeps
  /// the container alive.
  void keepContainer(std::unique_ptr<Artifact> outer) { container = std::move(outer); }
  /// The multi-target artifact this variant came from; null for a file of one target.
  const Artifact *containerArtifact() const { return container.get(); }
  const fb::Model &model() const { return *root; }
  size_t fileSize() const { return size; }
  size_t flatBufferSize() const { return fbEnd; }
  const uint8_t *segmentData(uint32_t segment) const {
    return base + root->segments()->Get(segment)->offset();
  }
  uint64_t segmentSize(uint32_t segment) const {
    return root->segments()->Get(segment)->size();
  }

private:
  struct FreeDeleter {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  Artifact(std::string name) : label(std::move(name)) {}
  dlc_status_t allocate(size_t n);
  dlc_status_t verify();
  dlc_status_t verifyHeader();
  dlc_status_t verifySegments();
  dlc_status_t verifyVariants();
  dlc_status_t verifyBuffers();
  dlc_status_t verifyBufferSize(const fb::Buffer &b, const std::string &at);
  dlc_status_t verifyPersistent(uint32_t buffer, const std::string &at);
  dlc_status_t verifyCode();
  dlc_status_t verifyCudaModules();
  dlc_status_t verifyCudaLaunch(const fb::CudaLaunch &launch,
                                const std::string &at);
  struct StepRef {
    uint32_t device, step;
  };
  dlc_status_t verifySchedules();
  dlc_status_t verifyEvents(const std::map<uint32_t, StepRef> &recorders);
  dlc_status_t verifySignature();
  dlc_status_t verifyState();
  dlc_status_t verifySymbolicBatch();
  dlc_status_t verifyBatchedBuffer(const fb::Buffer &b, const std::string &at);
  dlc_status_t verifyPerUnitSteps();
  dlc_status_t verifySized();

  std::string label;
  std::unique_ptr<uint8_t, FreeDeleter> bytes; // empty when borrowed
  const uint8_t *base = nullptr;                // bytes, or the borrowed ones
  size_t size = 0;
  size_t fbEnd = 0; // End of the size-prefixed FlatBuffer.
  const fb::Model *root = nullptr;
  std::unique_ptr<Artifact> container; // 0.7: the file a variant is in
};

} // namespace dlc::rt

#endif // DLC_RUNTIME_ARTIFACT_H
