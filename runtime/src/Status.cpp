//===- Status.cpp - status values of the C API ----------------------------===//

#include "dlc/runtime.h"

#include <cstdlib>
#include <cstring>
#include <new>

struct dlc_status_s {
  dlc_status_code_t code;
  char *message;
  bool isStatic;
};

// Returned when allocating a status itself fails: never freed.
static dlc_status_s outOfMemoryStatus = {
    DLC_STATUS_OUT_OF_MEMORY,
    const_cast<char *>("out of memory while reporting an error"), true};

extern "C" dlc_status_t dlc_status_create(dlc_status_code_t code,
                                          const char *message) {
  if (code == DLC_STATUS_OK)
    return nullptr;
  auto *status = new (std::nothrow) dlc_status_s;
  if (!status)
    return &outOfMemoryStatus;
  status->code = code;
  status->isStatic = false;
  status->message = strdup(message ? message : "");
  if (!status->message) {
    delete status;
    return &outOfMemoryStatus;
  }
  return status;
}

extern "C" dlc_status_code_t dlc_status_code(dlc_status_t status) {
  return status ? status->code : DLC_STATUS_OK;
}

extern "C" const char *dlc_status_message(dlc_status_t status) {
  return status ? status->message : "";
}

extern "C" const char *dlc_status_code_name(dlc_status_code_t code) {
  switch (code) {
  case DLC_STATUS_OK: return "ok";
  case DLC_STATUS_INVALID_ARGUMENT: return "invalid_argument";
  case DLC_STATUS_NOT_FOUND: return "not_found";
  case DLC_STATUS_UNAVAILABLE: return "unavailable";
  case DLC_STATUS_OUT_OF_MEMORY: return "out_of_memory";
  case DLC_STATUS_DATA_LOSS: return "data_loss";
  case DLC_STATUS_UNIMPLEMENTED: return "unimplemented";
  case DLC_STATUS_INTERNAL: return "internal";
  case DLC_STATUS_ABORTED: return "aborted";
  }
  return "unknown";
}

extern "C" void dlc_status_free(dlc_status_t status) {
  if (!status || status->isStatic)
    return;
  free(status->message);
  delete status;
}

#define DLC_STR2(x) #x
#define DLC_STR(x) DLC_STR2(x)
extern "C" const char *dlc_runtime_version(void) {
  return DLC_STR(DLC_RUNTIME_VERSION_MAJOR) "." DLC_STR(DLC_RUNTIME_VERSION_MINOR);
}
