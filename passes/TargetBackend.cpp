//===- TargetBackend.cpp - the registry of device kinds' backends ---------===//

#include "passes/TargetBackend.h"
#include "passes/CostModel.h"

#include "llvm/ADT/STLExtras.h"

#include <mutex>

using namespace dlc;

TargetBackend::~TargetBackend() = default;

bool TargetBackend::joinsOpenKernel(Operation *op, const OpenKernel &open) const {
  return !open.empty() && isElementwise(op) && getDevicePin(op) == open.device &&
         llvm::any_of(op->getOperands(),
                      [&](Value v) { return open.ops.contains(v.getDefiningOp()); });
}

namespace {
// Backends are never removed, so a pointer handed out stays valid.
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<TargetBackend>> backends;
};
Registry &registry() {
  static Registry r;
  return r;
}
} // namespace

void dlc::registerTargetBackend(std::unique_ptr<TargetBackend> backend) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &known : r.backends)
    if (known->kind() == backend->kind())
      return; // registration is idempotent per kind: the first one stays
  registerDeviceKind(backend->kind().str());
  r.backends.push_back(std::move(backend));
}

const TargetBackend *dlc::lookupTargetBackend(llvm::StringRef kind) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &backend : r.backends)
    if (backend->kind() == kind)
      return backend.get();
  return nullptr;
}

const TargetBackend *dlc::lookupTargetBackendOf(Operation *op) {
  DeviceAttr device = getDevicePin(op);
  return lookupTargetBackend(device ? device.getKind() : "cpu");
}

std::vector<std::string> dlc::registeredTargetKinds() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> kinds;
  for (const auto &backend : r.backends)
    kinds.push_back(backend->kind().str());
  return kinds;
}

bool dlc::deviceRuns(const DeviceProfile &device, Operation *op) {
  return device.supports(opKind(op)) && (!device.backend || device.backend->supports(op));
}
