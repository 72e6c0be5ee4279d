/*===- dlc/runtime.h - the dlc runtime's C API ------------------------------===
 *
 * The API users embed. Errors are values: every fallible call returns a
 * dlc_status_t, NULL meaning success; a non-NULL status carries a code and a
 * message and is owned by the caller, who frees it with dlc_status_free.
 * Nothing in the runtime aborts or exits on bad input.
 *
 * Thread safety: status objects are immutable; any thread may read one, one
 * thread frees it.
 *===------------------------------------------------------------------------===*/
#ifndef DLC_RUNTIME_H
#define DLC_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_RUNTIME_VERSION_MAJOR 0
#define DLC_RUNTIME_VERSION_MINOR 1

typedef enum dlc_status_code_e {
  DLC_STATUS_OK = 0,
  DLC_STATUS_INVALID_ARGUMENT = 1, /* bad input from the caller */
  DLC_STATUS_NOT_FOUND = 2,        /* a file, input or device that is not there */
  DLC_STATUS_UNAVAILABLE = 3,      /* e.g. no CUDA driver on this machine */
  DLC_STATUS_OUT_OF_MEMORY = 4,
  DLC_STATUS_DATA_LOSS = 5,        /* a corrupt or truncated artifact */
  DLC_STATUS_UNIMPLEMENTED = 6,
  DLC_STATUS_INTERNAL = 7,
} dlc_status_code_t;

typedef struct dlc_status_s *dlc_status_t;

/* A new status with `code` and a copy of `message`; NULL for DLC_STATUS_OK.
 * Returns a static out-of-memory status when allocation fails. */
dlc_status_t dlc_status_create(dlc_status_code_t code, const char *message);
/* DLC_STATUS_OK for NULL. */
dlc_status_code_t dlc_status_code(dlc_status_t status);
/* "" for NULL; valid until the status is freed. */
const char *dlc_status_message(dlc_status_t status);
/* The code's name: "ok", "invalid_argument", ... */
const char *dlc_status_code_name(dlc_status_code_t code);
/* Frees a status; NULL is allowed. */
void dlc_status_free(dlc_status_t status);

/* "MAJOR.MINOR", the runtime's version. */
const char *dlc_runtime_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DLC_RUNTIME_H */
