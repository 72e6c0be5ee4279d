//===- TestUtil.h - shared helpers of the runtime's tests -----------------===//

#ifndef DLC_RUNTIME_TEST_TESTUTIL_H
#define DLC_RUNTIME_TEST_TESTUTIL_H

#include "ArtifactBuilder.h"
#include "dlc/runtime.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace dlc::test {

/// The test kernels' shared object: where the build put it, or
/// $DLC_TEST_KERNELS (tools/gpu-check.sh runs carried test binaries).
inline std::string kernelsPath() {
  const char *env = std::getenv("DLC_TEST_KERNELS");
  return env && *env ? env : DLC_TEST_KERNELS;
}
#ifdef DLC_TEST_KERNELS_NODELETE
/// The kernels built with -z nodelete: likewise, or $DLC_TEST_KERNELS_NODELETE.
inline std::string nodeleteKernelsPath() {
  const char *env = std::getenv("DLC_TEST_KERNELS_NODELETE");
  return env && *env ? env : DLC_TEST_KERNELS_NODELETE;
}
#endif
inline ArtifactSpec toy() { return toyModel(kernelsPath()); }

/// Loads `bytes` from memory as 'test.dlcm'; the status is returned, the
/// model (if any) released unless `out` takes it.
inline dlc_status_t loadBytes(const std::string &bytes,
                              dlc_model_t **out = nullptr,
                              int32_t loadCode = 1) {
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.name = "test.dlcm";
  options.load_code = loadCode;
  dlc_model_t *model = nullptr;
  dlc_status_t s =
      dlc_model_load_memory(bytes.data(), bytes.size(), &options, &model);
  if (out)
    *out = model;
  else
    dlc_model_release(model);
  return s;
}

/// The load error's "code: message", or "ok".
inline std::string loadError(const std::string &bytes, int32_t loadCode = 1) {
  dlc_status_t s = loadBytes(bytes, nullptr, loadCode);
  std::string text = s ? std::string(dlc_status_code_name(dlc_status_code(s))) +
                             ": " + dlc_status_message(s)
                       : "ok";
  dlc_status_free(s);
  return text;
}

/// What binding `what` (e.g. "model 'm' needs 2 GPUs (cuda:0, cuda:1)")
/// to real GPUs says on a machine without a CUDA driver; "" when this
/// machine has one (the expectation does not apply: callers skip it).
inline std::string noDriverError(const std::string &what) {
  int32_t n = 0;
  dlc_status_t s = dlc_cuda_device_count(&n);
  std::string why = dlc_status_message(s);
  dlc_status_free(s);
  if (why.empty())
    return "";
  return what + " and there is no usable CUDA driver (" + why +
         "); simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run "
         "--gpu=sim)";
}

#define DLC_EXPECT_OK(expr)                                                    \
  do {                                                                         \
    dlc_status_t s_ = (expr);                                                  \
    EXPECT_EQ(s_, nullptr) << dlc_status_message(s_);                          \
    dlc_status_free(s_);                                                       \
  } while (false)
#define DLC_ASSERT_OK(expr)                                                    \
  do {                                                                         \
    dlc_status_t s_ = (expr);                                                  \
    std::string m_ = dlc_status_message(s_);                                   \
    dlc_status_free(s_);                                                       \
    ASSERT_TRUE(m_.empty()) << m_;                                             \
  } while (false)

} // namespace dlc::test

#endif // DLC_RUNTIME_TEST_TESTUTIL_H
