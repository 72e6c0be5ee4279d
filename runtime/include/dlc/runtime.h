/*===- dlc/runtime.h - the dlc runtime's C API ------------------------------===
 *
 * The API users embed: load a compiled model (.dlcm), create sessions on it,
 * set inputs, run, read outputs.
 *
 * Errors are values: every fallible call returns a dlc_status_t, NULL meaning
 * success; a non-NULL status carries a code and a message and is owned by the
 * caller, who frees it with dlc_status_free. Nothing in the runtime aborts or
 * exits on bad input; the artifact is verified before any of it is used.
 *
 * Objects and threads:
 *  - dlc_model_t is immutable once loaded: any number of threads may use one
 *    model at the same time (introspection, creating sessions). It is
 *    reference counted; retain/release are thread-safe.
 *  - dlc_session_t holds the mutable state of one execution (the devices'
 *    arenas). A session is used by ONE thread at a time (callers serialise);
 *    different sessions, even of one model, may run concurrently. A session
 *    retains its model.
 *  - Status objects are immutable; any thread may read one, one thread frees
 *    it.
 *
 * Pointers returned by the runtime (names, shapes, output data) are owned by
 * the object they come from; each function says how long they stay valid.
 *===------------------------------------------------------------------------===*/
#ifndef DLC_RUNTIME_H
#define DLC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_RUNTIME_VERSION_MAJOR 0
#define DLC_RUNTIME_VERSION_MINOR 9

/*===-- Status --------------------------------------------------------------===*/

typedef enum dlc_status_code_e {
  DLC_STATUS_OK = 0,
  DLC_STATUS_INVALID_ARGUMENT = 1, /* bad input from the caller */
  DLC_STATUS_NOT_FOUND = 2,        /* a file, input or device that is not there */
  DLC_STATUS_UNAVAILABLE = 3,      /* e.g. no CUDA driver on this machine */
  DLC_STATUS_OUT_OF_MEMORY = 4,
  DLC_STATUS_DATA_LOSS = 5,        /* a corrupt or truncated artifact */
  DLC_STATUS_UNIMPLEMENTED = 6,
  DLC_STATUS_INTERNAL = 7,
  DLC_STATUS_ABORTED = 8,          /* stopped by the caller's step observer */
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

/*===-- Element types and devices -------------------------------------------===*/

/* Same values as the artifact schema's DType. */
typedef enum dlc_dtype_e {
  DLC_DTYPE_F32 = 0,
  DLC_DTYPE_F16 = 1,
  DLC_DTYPE_BF16 = 2,
  DLC_DTYPE_I32 = 3,
  DLC_DTYPE_I64 = 4,
  DLC_DTYPE_I1 = 5, /* one byte per element, 0 or 1 */
  DLC_DTYPE_F64 = 6,
  DLC_DTYPE_I8 = 7,
  DLC_DTYPE_U8 = 8,
  DLC_DTYPE_I16 = 9,
  DLC_DTYPE_U16 = 10,
  DLC_DTYPE_U32 = 11,
  DLC_DTYPE_U64 = 12,
} dlc_dtype_t;

/* "f32", "f16", "bf16", "i32", "i64", "i1", "f64", "i8", "u8", "i16", "u16",
   "u32", "u64"; "?" for any other value. */
const char *dlc_dtype_name(dlc_dtype_t dtype);
/* Bytes per element; 0 for an unknown value. */
size_t dlc_dtype_size(dlc_dtype_t dtype);

typedef enum dlc_device_kind_e {
  DLC_DEVICE_CPU = 0,
  DLC_DEVICE_CUDA = 1,
} dlc_device_kind_t;

/*===-- Models --------------------------------------------------------------===*/

typedef struct dlc_model_s dlc_model_t;

typedef struct dlc_model_options_t {
  /* Labels messages about a model loaded from memory; NULL: "<memory>".
   * Copied by the load; unused by dlc_model_load_file (the path is used). */
  const char *name;
  /* 1 (default): check the CPU features of each code library, load the
   * libraries and resolve every kernel symbol at load time. 0: verify and
   * introspect only (what `dlc inspect` does); sessions on such a model fail
   * with DLC_STATUS_INVALID_ARGUMENT. */
  int32_t load_code;
  /* 1: also prove the schedule right before the load returns (every read
   * ordered after its write on every device, no arena range reused while a
   * reader may still read it, constants never written, outputs intact at the
   * end: runtime/README.md, "Schedule verification"); a violation is
   * DLC_STATUS_DATA_LOSS naming the steps and the buffer. 0 (default): the
   * structural checks only. The compiler runs this on every artifact it
   * writes. */
  int32_t verify_schedule;
  /* dlc_model_load_memory only. 0 (default): the bytes are copied. 1: the
   * model uses `data` in place (no copy of the weights: the compiler checks
   * the artifact it writes this way); it must stay valid and unchanged until
   * the model's last release. With load_code, `data` must be 64-byte aligned
   * (the kernels' constants are), else DLC_STATUS_INVALID_ARGUMENT. */
  int32_t borrow_memory;
  /* Multi-target artifacts (format 0.7, `dlc compile --cpu=A,B`): which
   * variant to load. NULL (default): the CPU features of this machine choose
   * (the variant needing the most features among those it runs); else a
   * comma-separated list of CPU features (LLVM's spelling, "avx2,fma,f16c")
   * chooses instead, as if this CPU had exactly those: to test the choice, or
   * to see what another machine would run. The code of the chosen variant is
   * still checked against this CPU's real features before it is loaded, so
   * an override never leads to an illegal instruction. */
  const char *cpu_features;
  /* -1 (default): choose as above. N >= 0: load variant N (an error when the
   * artifact has no variant N; a single-target artifact is variant 0). */
  int32_t variant;
} dlc_model_options_t;

/* Sets the defaults above. */
void dlc_model_options_initialize(dlc_model_options_t *options);

/* Loads and verifies the artifact at `path`. `options` may be NULL
 * (defaults). On success *out_model holds a model with one reference, which
 * the caller releases. Thread-safe. */
dlc_status_t dlc_model_load_file(const char *path,
                                 const dlc_model_options_t *options,
                                 dlc_model_t **out_model);
/* Same from memory. The bytes are COPIED (into 64-byte-aligned storage, so
 * that constants are aligned for kernels): `data` may be freed as soon as the
 * call returns; unless options->borrow_memory (above). Thread-safe. */
dlc_status_t dlc_model_load_memory(const void *data, size_t size,
                                   const dlc_model_options_t *options,
                                   dlc_model_t **out_model);
/* Reference counting; thread-safe. The last release frees the model (the
 * libraries are unloaded); NULL is allowed. */
void dlc_model_retain(dlc_model_t *model);
void dlc_model_release(dlc_model_t *model);

/* Introspection. Strings and arrays returned here stay valid while the model
 * lives. All are thread-safe (the model is immutable). */
const char *dlc_model_name(const dlc_model_t *model); /* path or options.name */
const char *dlc_model_producer(const dlc_model_t *model);
/* The artifact's format version. */
void dlc_model_version(const dlc_model_t *model, uint32_t *major,
                       uint32_t *minor);

typedef struct dlc_tensor_info_t {
  const char *name;     /* NUL-terminated; valid while the model lives */
  dlc_dtype_t dtype;
  size_t rank;
  const int64_t *shape; /* `rank` dims; valid while the model lives; -1: a
                           dimension known only at run time (format 0.6) */
  const int64_t *max_shape; /* `rank` dims: the largest shape (= shape where
                           static); valid while the model lives */
  size_t byte_size;     /* product(max_shape) * dlc_dtype_size(dtype) */
  int64_t index_bound;  /* random inputs are drawn in [0, bound); 0: default */
  uint32_t device;      /* index of the device holding the tensor */
  int64_t rows_per_unit;/* format 0.8: dim 0 is rows_per_unit x the batch (the
                           model's symbol, dlc_model_symbol_info): shape[0]
                           is -1, max_shape[0] is rows_per_unit x its bound;
                           0: no batch. Format 0.9: the symbol's dim is the
                           one whose shape is -1, every dim before it 1 (a
                           sequence: ids [1, -1]) */
} dlc_tensor_info_t;

/* Multi-target artifacts (format 0.7): the variants the file holds; 0 for a
 * single-target artifact. The model is the chosen variant; its name is the
 * path followed by " [TARGET_CPU]". */
typedef struct dlc_variant_info_t {
  const char *target_triple; /* "" when the variant has no CPU code */
  const char *target_cpu;    /* e.g. "x86-64-v3" */
  const char *cpu_features;  /* what its code needs, comma-separated */
  int32_t chosen;            /* 1 for the variant this model is */
  const char *unavailable;   /* why this CPU cannot run it; "" when it can */
} dlc_variant_info_t;
size_t dlc_model_variant_count(const dlc_model_t *model);
/* NOT_FOUND when index >= the count. */
dlc_status_t dlc_model_variant_info(const dlc_model_t *model, size_t index,
                                    dlc_variant_info_t *out_info);

size_t dlc_model_input_count(const dlc_model_t *model);
size_t dlc_model_output_count(const dlc_model_t *model);
/* NOT_FOUND when index >= the count. */
dlc_status_t dlc_model_input_info(const dlc_model_t *model, size_t index,
                                  dlc_tensor_info_t *out_info);
dlc_status_t dlc_model_output_info(const dlc_model_t *model, size_t index,
                                   dlc_tensor_info_t *out_info);
/* The index of the input (output) called `name`; NOT_FOUND otherwise. */
dlc_status_t dlc_model_find_input(const dlc_model_t *model, const char *name,
                                  size_t *out_index);
dlc_status_t dlc_model_find_output(const dlc_model_t *model, const char *name,
                                   size_t *out_index);

/* Persistent state (format 0.6): tensors that keep their values from one run
 * of a session to the next and that the runs update in place, such as a
 * training step's parameters and optimizer state. Each session starts from
 * the artifact's initial values (zeros where it has none). */
size_t dlc_model_state_count(const dlc_model_t *model);
dlc_status_t dlc_model_state_info(const dlc_model_t *model, size_t index,
                                  dlc_tensor_info_t *out_info);
dlc_status_t dlc_model_find_state(const dlc_model_t *model, const char *name,
                                  size_t *out_index);

/* A symbolic batch (format 0.8): one artifact runs any batch from 1 to
 * `bound`. Inputs and outputs that carry it have rows_per_unit > 0; each run
 * takes its batch from the inputs set (dlc_session_set_input), and
 * dlc_session_output_info gives the outputs' shapes of the last run. */
typedef struct dlc_symbol_info_t {
  const char *name;    /* e.g. "batch"; valid while the model lives */
  int64_t bound;       /* the largest batch, >= 1 */
} dlc_symbol_info_t;

/* 0 or 1 (the batch); NOT_FOUND when index >= the count. */
size_t dlc_model_symbol_count(const dlc_model_t *model);
dlc_status_t dlc_model_symbol_info(const dlc_model_t *model, size_t index,
                                   dlc_symbol_info_t *out_info);

typedef struct dlc_device_info_t {
  dlc_device_kind_t kind;
  int32_t index;       /* N of cuda:N; 0 for the CPU */
  uint64_t arena_size; /* bytes a session allocates for it */
  const char *name;    /* "cpu", "cuda:0"; valid while the model lives */
} dlc_device_info_t;

size_t dlc_model_device_count(const dlc_model_t *model);
dlc_status_t dlc_model_device_info(const dlc_model_t *model, size_t index,
                                   dlc_device_info_t *out_info);

/*===-- Sessions ------------------------------------------------------------===*/

typedef struct dlc_session_s dlc_session_t;

/* What each logical GPU (cuda:N) of an artifact binds to. Never a silent
 * fallback: a binding that cannot cover every GPU fails session creation
 * with UNAVAILABLE, naming how many GPUs the artifact needs and how many the
 * machine has (or why there is no CUDA driver). */
typedef enum dlc_gpu_binding_e {
  /* Real GPUs, through the CUDA driver (libcuda.so.1, or the library named
   * by the DLC_CUDA_DRIVER environment variable): cuda:N runs on physical
   * GPU N, or on gpu_map[N] when a map is given. Each logical GPU gets its
   * own stream, arena and constants, also when several share one physical
   * GPU; its kernels launch the artifact's CUDA code (format 0.4). */
  DLC_GPU_BINDING_REAL = 0,
  /* Simulated GPUs: each cuda:N gets its own arena (a separate allocation,
   * poisoned with 0xFF bytes), its own stream thread running the host code
   * of its kernels, and copies of the constants its kernels use. */
  DLC_GPU_BINDING_SIM = 1,
} dlc_gpu_binding_t;

/* The number of GPUs the CUDA driver sees, in *out_count; UNAVAILABLE (and
 * 0) when there is no usable driver, the message saying why. Loads the
 * driver on first use; thread-safe. */
dlc_status_t dlc_cuda_device_count(int32_t *out_count);

/* What a step observer (dlc_session_options_t.step_observer) is shown: one
 * buffer a step wrote, valid during the call only. */
typedef struct dlc_step_output_t {
  uint64_t sequence;      /* 0, 1, ...: the order of the calls in a session */
  uint64_t run;           /* the run's number in the session: 0, 1, ... */
  uint32_t device;        /* index of the device that ran the step */
  const char *device_name;/* "cpu", "cuda:1" */
  uint32_t step;          /* the step's index in that device's program */
  int32_t is_copy;        /* 1: a copy (from another device or within one) */
  const char *kernel;     /* the kernel's name; "" for a copy */
  size_t op_count;        /* the ops the kernel computes (their IR names); */
  const char *const *ops; /* for a copy, 0 and NULL */
  uint32_t buffer;        /* the buffer written (dlc inspect's numbering) */
  dlc_tensor_info_t tensor; /* its name (the value's op), dtype and shape */
  const void *data;       /* its tensor.byte_size bytes */
  const char *copied_from;/* a copy: the name of the buffer it read; "" for
                           * a call */
} dlc_step_output_t;

typedef int32_t (*dlc_step_observer_fn)(void *user, const dlc_step_output_t *output);

typedef struct dlc_session_options_t {
  /* Threads a CPU kernel's parallel loops may use, the calling stream's
   * own included (dlc/parallel.h: the process's pool, shared by all
   * sessions); 0 (default): every core the process may run on; 1: serial.
   * Kernel libraries without parallel loops ignore it. */
  int32_t thread_count;
  /* A dlc_gpu_binding_t; default DLC_GPU_BINDING_REAL. */
  int32_t gpu_binding;
  /* 1: verify at run time that every step's reads are ordered after the
   * writes they read and its writes after the accesses they overwrite
   * (stream order or events); a run that breaks the rule fails with
   * DATA_LOSS naming the step, the buffer and the devices. Slow: for tests
   * and debugging. Default 0. */
  int32_t check_ordering;
  /* 1: time every step (per-device statistics, dlc_session_device_stats)
   * and keep a trace (dlc_session_write_trace). Default 0. */
  int32_t profile;
  /* How many runs may be in flight at once through dlc_session_submit;
   * each has its own activation memory (arenas). Default 1, at most 64. */
  int32_t max_in_flight;
  /* 1 (format 0.3): a Copy step between two devices joined by one of the
   * artifact's links, at least one of them a simulated GPU, takes at least
   * latency + bytes / bandwidth of that link: the stream waits out the rest
   * of that time after moving the bytes (dlc-run --sim-links), so that
   * traces show the overlap the device spec predicts. Default 0. */
  int32_t sim_links;
  /* With DLC_GPU_BINDING_REAL: logical cuda:N runs on physical GPU
   * gpu_map[N], for N < gpu_map_count (several logical GPUs may share one:
   * {0, 0} runs cuda:0 and cuda:1 both on GPU 0). NULL (default): cuda:N on
   * GPU N. Refused with DLC_GPU_BINDING_SIM. Read during
   * dlc_session_create only. */
  const int32_t *gpu_map;
  int32_t gpu_map_count;
  /* 1: after each kernel on the CPU or a simulated GPU, scan its float
   * outputs; the first kernel that writes a NaN or an infinity from finite
   * inputs stops the run with DATA_LOSS naming the step, its kernel's ops,
   * the device, the buffer and the element (dlc-run --check-numerics). Real
   * GPUs' memory is not scanned: such a run fails with UNIMPLEMENTED.
   * Default 0. */
  int32_t check_numerics;
  /* Non-NULL: called after every kernel call and copy that runs on the CPU
   * or a simulated GPU, once per buffer the step wrote (dlc-run
   * --dump-steps; `dlc run --compare-reference` compares these with the
   * reference interpreter). Calls are serialised by the session (one at a
   * time, in an order consistent with the steps' dependencies, numbered by
   * `sequence`), from the device's stream thread. A non-zero return stops
   * the run, which fails with ABORTED naming the step. Real GPUs' memory is
   * not read: a session with an observer and a real GPU is refused
   * (UNIMPLEMENTED). Default NULL. */
  dlc_step_observer_fn step_observer;
  void *step_observer_user;
} dlc_session_options_t;

void dlc_session_options_initialize(dlc_session_options_t *options);

/* Creates a session: binds each logical device (the CPU; each cuda:N as
 * options->gpu_binding says), allocates each device's arena once per
 * in-flight slot (64-byte aligned; zeroed on the CPU, poisoned on simulated
 * GPUs except for the inputs, which start zeroed), resolves every buffer to
 * a pointer, and starts one stream thread per device that has steps (a
 * synchronous run executes one of them, the CPU's when it has steps, on the
 * caller's thread). Retains `model`. `options` may be NULL. Fails with
 * UNAVAILABLE when a GPU cannot be bound. Thread-safe with respect to the
 * model. */
dlc_status_t dlc_session_create(dlc_model_t *model,
                                const dlc_session_options_t *options,
                                dlc_session_t **out_session);
/* Reference counting; thread-safe. The last release frees the arenas and
 * the session's reference to its model. NULL is allowed. */
void dlc_session_retain(dlc_session_t *session);
void dlc_session_release(dlc_session_t *session);

/* The model a session runs (not retained for the caller). */
dlc_model_t *dlc_session_model(const dlc_session_t *session);

/* Copies `bytes` bytes of `data` into input `index`'s buffer; `bytes` must be
 * the input's byte_size (the element type is the caller's responsibility;
 * the C++ wrapper checks it). An input carrying the symbolic batch (format
 * 0.8, rows_per_unit > 0) takes n units instead, 1 <= n <= the bound:
 * n x byte_size / bound bytes; the next run's batch is n, and every such
 * input must be set to the same n (else dlc_session_run fails with
 * INVALID_ARGUMENT naming them; an input not set keeps its last n, the
 * bound in a new session). One thread at a time per session. */
dlc_status_t dlc_session_set_input(dlc_session_t *session, size_t index,
                                   const void *data, size_t bytes);
/* Runs every device's step list, each on its device's stream and in
 * order, the streams concurrently, ordered across devices by events; returns
 * when all are done. Inputs not set keep their previous contents (zeros in a
 * new session). A failing step fails the run with a status naming the step
 * and its device; the other streams stop at their next step or wait (no
 * deadlock) and the session can run again. Fails with INVALID_ARGUMENT while
 * runs submitted with dlc_session_submit are in flight. One thread at a time
 * per session. */
dlc_status_t dlc_session_run(dlc_session_t *session);
/* Output `index` as the last run made it: its shape (dim 0 of an output
 * carrying the symbolic batch is rows_per_unit x the run's batch) and
 * byte_size; the bound's before any run. `shape` points into the session and
 * stays valid until the next dlc_session_run or dlc_session_set_input. */
dlc_status_t dlc_session_output_info(dlc_session_t *session, size_t index,
                                     dlc_tensor_info_t *out_info);
/* Points *data at output `index`'s bytes (in host memory: outputs on a GPU
 * are copied back at the end of each run) and sets *bytes to its byte_size
 * (the last run's, dlc_session_output_info).
 * The pointer stays valid until the next dlc_session_run or
 * dlc_session_set_input on this session, or its release. */
dlc_status_t dlc_session_output(dlc_session_t *session, size_t index,
                                const void **data, size_t *bytes);
/* Copies output `index` into `dst`; `bytes` must be its byte_size (the last
 * run's, dlc_session_output_info). */
dlc_status_t dlc_session_copy_output(dlc_session_t *session, size_t index,
                                     void *dst, size_t bytes);

/* Copies state `index`'s current value into `dst` (`bytes` its byte_size),
 * or `src` into it: a checkpoint, or a value the next run starts from. Fails
 * with INVALID_ARGUMENT while runs are in flight. */
dlc_status_t dlc_session_read_state(dlc_session_t *session, size_t index,
                                    void *dst, size_t bytes);
dlc_status_t dlc_session_write_state(dlc_session_t *session, size_t index,
                                     const void *src, size_t bytes);

/*===-- Pipelined runs ------------------------------------------------------===*/

/* Starts a run on copies of `inputs` (one pointer and byte count per model
 * input, in order, each byte count the input's byte_size, or n units of
 * the symbolic batch as dlc_session_set_input takes them) in the next of the
 * session's max_in_flight slots, and returns without waiting: *out_ticket
 * numbers the run (0, 1, 2, ... per session). Each device's stream runs the
 * runs in submission order, so stage k of run i overlaps stage k+1 of run
 * i-1. Fails with INVALID_ARGUMENT when max_in_flight runs are already in
 * flight (wait for the oldest first). One thread at a time per session. */
dlc_status_t dlc_session_submit(dlc_session_t *session,
                                const void *const *inputs,
                                const size_t *input_bytes, size_t input_count,
                                uint64_t *out_ticket);
/* Waits for run `ticket`, which must be the oldest in flight (results come
 * back in order), copies its outputs into `outputs` (one pointer and byte
 * count per model output, each the output's byte_size; at the run's batch n
 * for outputs carrying the symbolic batch) and frees its slot.
 * Returns the run's status; the slot is freed whether it failed or not. */
dlc_status_t dlc_session_wait(dlc_session_t *session, uint64_t ticket,
                              void *const *outputs, const size_t *output_bytes,
                              size_t output_count);

/*===-- Statistics and traces ------------------------------------------------===*/

typedef struct dlc_device_stats_t {
  const char *name;      /* "cpu", "cuda:0"; valid while the session lives */
  const char *binding;   /* "cpu", "sim", "cuda" (a real GPU) */
  uint64_t runs;         /* runs this device took part in */
  uint64_t steps;        /* steps executed */
  uint64_t busy_ns;      /* in kernels and copies (profile = 1 only) */
  uint64_t copy_ns;      /* in copies, part of busy_ns (profile = 1 only) */
  uint64_t wait_ns;      /* blocked in WaitEvent steps (profile = 1 only) */
  uint64_t bytes_copied; /* by Copy steps on this device's stream */
  uint64_t active_ns;    /* wall time with at least one run in flight, the
                            same for every device: idle = active - busy */
} dlc_device_stats_t;

/* Statistics of device `index` since the session was created. Call it with
 * no run in flight. NOT_FOUND when index >= the device count. */
dlc_status_t dlc_session_device_stats(dlc_session_t *session, size_t index,
                                      dlc_device_stats_t *out_stats);
typedef struct dlc_kernel_stats_t {
  const char *name;  /* the kernel's name; valid while the session lives */
  uint64_t calls;    /* Call steps of this kernel executed (profile = 1 only) */
  uint64_t ns;       /* time in those calls (profile = 1 only) */
} dlc_kernel_stats_t;

/* Statistics of kernel `index` (Model.kernels) since the session was created,
 * over every device that calls it. Call it with no run in flight. NOT_FOUND
 * when index >= the artifact's kernel count. */
dlc_status_t dlc_session_kernel_stats(dlc_session_t *session, size_t index,
                                      dlc_kernel_stats_t *out_stats);
/* Starts the statistics above afresh (warmup runs left out, say); the trace
 * keeps every span. Call it with no run in flight, else INVALID_ARGUMENT. */
dlc_status_t dlc_session_reset_stats(dlc_session_t *session);
/* Writes the session's trace (options.profile = 1) as Chrome trace events
 * (JSON, for Perfetto or chrome://tracing) to `path`: one track per device,
 * kernels and copies (bytes, GB/s) and waits as spans, records as instants.
 * At most 2^20 spans per device are kept. Call it with no run in flight. */
dlc_status_t dlc_session_write_trace(dlc_session_t *session, const char *path);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DLC_RUNTIME_H */
