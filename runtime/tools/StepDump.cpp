//===- StepDump.cpp - dlc-run --dump-steps --------------------------------===//

#include "StepDump.h"

#include "JsonText.h"
#include "NpyFormat.h"
#include "ToolSupport.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

using namespace dlc::tools;

using dlc::rt::jsonQuote;

std::string StepDump::open(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return "--dump-steps: '" + dir + "' is not a directory";
  } else if (::mkdir(dir.c_str(), 0777) != 0) {
    return "--dump-steps: cannot create directory '" + dir +
           "': " + std::strerror(errno);
  }
  dir_ = dir;
  std::string path = dir + "/steps.jsonl";
  manifest_ = std::fopen(path.c_str(), "w");
  if (!manifest_)
    return "--dump-steps: cannot write '" + path + "': " + std::strerror(errno);
  return "";
}

StepDump::~StepDump() {
  if (manifest_)
    std::fclose(manifest_);
}

int32_t StepDump::observe(void *user, const dlc_step_output_t *out) {
  auto &self = *static_cast<StepDump *>(user);
  if (out->run != 0) // The first run only: later ones repeat it.
    return 0;
  char file[32];
  std::snprintf(file, sizeof file, "%06zu.npy", self.written_);
  const dlc_tensor_info_t &t = out->tensor;
  std::vector<int64_t> shape(t.shape, t.shape + t.rank);
  std::string error;
  if (!npy::writeFile(self.dir_ + "/" + file,
                      npy::encode(npyDescr(t.dtype), shape,
                                  std::string_view(static_cast<const char *>(out->data),
                                                   t.byte_size)),
                      error)) {
    self.error_ = "--dump-steps: " + error;
    return 1;
  }
  std::string line = "{\"sequence\": " + std::to_string(out->sequence) +
                     ", \"device\": " + jsonQuote(out->device_name) +
                     ", \"step\": " + std::to_string(out->step) +
                     ", \"kind\": \"" + (out->is_copy ? "copy" : "call") +
                     "\", \"kernel\": " + jsonQuote(out->kernel) + ", \"ops\": [";
  for (size_t i = 0; i < out->op_count; ++i)
    line += (i ? ", " : "") + jsonQuote(out->ops[i]);
  line += "], \"buffer\": " + std::to_string(out->buffer) +
          ", \"name\": " + jsonQuote(t.name) +
          ", \"copied_from\": " + jsonQuote(out->copied_from) +
          ", \"dtype\": \"" + npyDescr(t.dtype) +
          "\", \"element_type\": \"" + dlc_dtype_name(t.dtype) +
          "\", \"file\": \"" + file + "\"}\n";
  if (std::fputs(line.c_str(), self.manifest_) < 0 || std::fflush(self.manifest_) != 0) {
    self.error_ = "--dump-steps: cannot write '" + self.dir_ + "/steps.jsonl': " +
                  std::strerror(errno);
    return 1;
  }
  ++self.written_;
  return 0;
}
