//===- FakeCuda.cpp - a CUDA driver in host memory, for the tests ---------===//
//
// libdlc_fake_cuda.so stands in for libcuda.so.1 (DLC_CUDA_DRIVER=path) so
// that the runtime's real-GPU code runs on machines without a GPU. It
// exports cuGetProcAddress_v2 and implements every entry point of
// CudaSymbols.def with the same semantics where the runtime relies on them:
//  - GPUs: DLC_FAKE_CUDA_DEVICES (default 2), compute capability
//    DLC_FAKE_CUDA_CC (default "9.0"), named "Fake GPU".
//  - Device memory is host memory behind non-canonical addresses (host
//    address + 2^62): the runtime dereferencing a device pointer crashes.
//  - Streams are threads running their queue in order, so work is truly
//    asynchronous; events complete when the stream reaches the record;
//    cuStreamWaitEvent blocks the stream until then.
//  - Modules are text: "dlc-fake-cuda-module", then "image NAME" (counted
//    as "loaded:NAME"), "library PATH" (a shared object) and lines
//    "kernel ENTRY SYMBOL NPARAMS": a launch calls SYMBOL(void **buffers)
//    with the NPARAMS device pointers, translated. Anything else fails as
//    invalid PTX (text) with a JIT log.
// dlc_fake_cuda_control/stat (extern "C") let tests inject a failure of an
// entry point and read counters (launches, copies, live objects).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDriver.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace dlc::rt::cuda;

// The driver's opaque types, as the runtime's header declares them.
namespace dlc::rt::cuda {
struct CUctx_st {
  int device;
  int refs = 0;
  std::vector<int> peers;
};
struct CUevent_st {
  uint64_t recorded = 0, completed = 0; // Under gMutex.
  std::chrono::steady_clock::time_point at; // When `completed` was reached.
};
struct CUfunc_st {
  void (*fn)(void **);
  int params;
};
struct CUmod_st {
  void *library = nullptr;
  std::map<std::string, CUfunc_st> kernels; // Functions live in their module.
};
} // namespace dlc::rt::cuda

namespace {

constexpr CUresult kInvalidValue = 1, kOutOfMemory = 2, kNotInitialized = 3,
                   kInvalidDevice = 101, kInvalidImage = 200,
                   kInvalidContext = 201, kInvalidPtx = 218, kNotFound = 500,
                   kNotReady = 600, kLaunchFailed = 719, kUnknown = 999;
constexpr uint64_t kDeviceBit = uint64_t(1) << 62;

std::mutex gMutex; // Counters, failures, events, contexts.
std::condition_variable gEventCv;
std::map<std::string, long> gStats;
std::map<std::string, CUresult> gFail; // Entry point -> error to return.
std::vector<CUctx_st> gContexts;
std::atomic<bool> gInit{false};
int gMajor = 9, gMinor = 0;
// Static TLS (initial-exec), not dynamic: GCC 12's LeakSanitizer misreads
// the main thread's dynamic TLS of a dlopen'ed library and crashes at exit
// in the ASan runs (tools/test.sh), depending on the process's layout.
__attribute__((tls_model("initial-exec"))) thread_local CUcontext tCurrent = nullptr;

void count(const std::string &what, long by = 1) {
  std::lock_guard<std::mutex> lock(gMutex);
  gStats[what] += by;
}

/// The injected failure of `name`, or success.
CUresult injected(const char *name) {
  std::lock_guard<std::mutex> lock(gMutex);
  auto it = gFail.find(name);
  return it == gFail.end() ? CUDA_SUCCESS : it->second;
}

#define FAKE_ENTRY(name)                                                       \
  if (CUresult r_ = injected(#name))                                           \
    return r_;                                                                 \
  if (!gInit && std::strcmp(#name, "cuInit") &&                                \
      std::strcmp(#name, "cuGetErrorName") &&                                  \
      std::strcmp(#name, "cuGetErrorString") &&                                \
      std::strcmp(#name, "cuDriverGetVersion"))                                \
    return kNotInitialized;

void *host(CUdeviceptr p) { return reinterpret_cast<void *>(p - kDeviceBit); }
CUdeviceptr device(void *p) {
  return reinterpret_cast<CUdeviceptr>(p) + kDeviceBit;
}

/// A stream: one thread running its queue in order.
struct Stream {
  CUcontext ctx = tCurrent; // Its context: launches and copies need it current.
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::function<void()>> queue;
  uint64_t issued = 0, done = 0;
  bool stop = false;
  std::thread thread;
  Stream() {
    thread = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex);
      for (;;) {
        cv.wait(lock, [&] { return stop || !queue.empty(); });
        if (queue.empty())
          return;
        auto work = std::move(queue.front());
        queue.pop_front();
        lock.unlock();
        work();
        lock.lock();
        ++done;
        cv.notify_all();
      }
    });
  }
  ~Stream() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    cv.notify_all();
    thread.join();
  }
  void push(std::function<void()> work) {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back(std::move(work));
    ++issued;
    cv.notify_all();
  }
  void sync() {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t target = issued;
    cv.wait(lock, [&] { return done >= target; });
  }
};

/// False when `stream` belongs to another context than the current one
/// (the real driver refuses such a launch or copy).
bool inContext(CUstream stream) {
  return !stream || reinterpret_cast<Stream *>(stream)->ctx == tCurrent;
}
#define FAKE_NEEDS_CONTEXT(stream)                                             \
  if (!inContext(stream))                                                      \
    return kInvalidContext;

/// Runs `work` on `stream`, or now for the null stream.
void enqueue(CUstream stream, std::function<void()> work) {
  if (stream)
    reinterpret_cast<Stream *>(stream)->push(std::move(work));
  else
    work();
}

CUresult fake_cuInit(unsigned) {
  FAKE_ENTRY(cuInit);
  const char *n = std::getenv("DLC_FAKE_CUDA_DEVICES");
  const char *cc = std::getenv("DLC_FAKE_CUDA_CC");
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gInit) {
    int devices = n ? std::atoi(n) : 2;
    for (int i = 0; i < devices; ++i)
      gContexts.push_back(CUctx_st{i});
    if (cc)
      std::sscanf(cc, "%d.%d", &gMajor, &gMinor);
    gInit = true;
  }
  return CUDA_SUCCESS;
}
CUresult fake_cuDriverGetVersion(int *v) {
  FAKE_ENTRY(cuDriverGetVersion);
  *v = 12080;
  return CUDA_SUCCESS;
}
const char *errorName(CUresult e) {
  switch (e) {
  case CUDA_SUCCESS: return "CUDA_SUCCESS";
  case kInvalidValue: return "CUDA_ERROR_INVALID_VALUE";
  case kOutOfMemory: return "CUDA_ERROR_OUT_OF_MEMORY";
  case kNotInitialized: return "CUDA_ERROR_NOT_INITIALIZED";
  case kInvalidDevice: return "CUDA_ERROR_INVALID_DEVICE";
  case kInvalidImage: return "CUDA_ERROR_INVALID_IMAGE";
  case kInvalidContext: return "CUDA_ERROR_INVALID_CONTEXT";
  case kInvalidPtx: return "CUDA_ERROR_INVALID_PTX";
  case kNotFound: return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
    return "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED";
  case kLaunchFailed: return "CUDA_ERROR_LAUNCH_FAILED";
  default: return nullptr;
  }
}
CUresult fake_cuGetErrorName(CUresult e, const char **name) {
  *name = errorName(e);
  return *name ? CUDA_SUCCESS : kInvalidValue;
}
CUresult fake_cuGetErrorString(CUresult e, const char **text) {
  *text = errorName(e) ? "fake driver error" : nullptr;
  return *text ? CUDA_SUCCESS : kInvalidValue;
}
CUresult fake_cuDeviceGetCount(int *n) {
  FAKE_ENTRY(cuDeviceGetCount);
  *n = int(gContexts.size());
  return CUDA_SUCCESS;
}
CUresult fake_cuDeviceGet(CUdevice *d, int ordinal) {
  FAKE_ENTRY(cuDeviceGet);
  if (ordinal < 0 || ordinal >= int(gContexts.size()))
    return kInvalidDevice;
  *d = ordinal;
  return CUDA_SUCCESS;
}
CUresult fake_cuDeviceGetName(char *name, int length, CUdevice) {
  FAKE_ENTRY(cuDeviceGetName);
  std::snprintf(name, size_t(length), "Fake GPU");
  return CUDA_SUCCESS;
}
CUresult fake_cuDeviceGetAttribute(int *value, int attribute, CUdevice) {
  FAKE_ENTRY(cuDeviceGetAttribute);
  if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    *value = gMajor;
  else if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    *value = gMinor;
  else
    return kInvalidValue;
  return CUDA_SUCCESS;
}
CUresult fake_cuDeviceCanAccessPeer(int *can, CUdevice, CUdevice) {
  FAKE_ENTRY(cuDeviceCanAccessPeer);
  *can = 1;
  return CUDA_SUCCESS;
}
CUresult fake_cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
  FAKE_ENTRY(cuDevicePrimaryCtxRetain);
  std::lock_guard<std::mutex> lock(gMutex);
  ++gContexts.at(size_t(d)).refs;
  ++gStats["primary_refs"];
  *ctx = &gContexts[size_t(d)];
  return CUDA_SUCCESS;
}
CUresult fake_cuDevicePrimaryCtxRelease(CUdevice d) {
  FAKE_ENTRY(cuDevicePrimaryCtxRelease);
  std::lock_guard<std::mutex> lock(gMutex);
  --gContexts.at(size_t(d)).refs;
  --gStats["primary_refs"];
  return CUDA_SUCCESS;
}
CUresult fake_cuCtxSetCurrent(CUcontext ctx) {
  FAKE_ENTRY(cuCtxSetCurrent);
  tCurrent = ctx;
  return CUDA_SUCCESS;
}
CUresult fake_cuCtxEnablePeerAccess(CUcontext peer, unsigned) {
  FAKE_ENTRY(cuCtxEnablePeerAccess);
  if (!tCurrent)
    return kInvalidContext;
  std::lock_guard<std::mutex> lock(gMutex);
  for (int p : tCurrent->peers)
    if (p == peer->device)
      return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  tCurrent->peers.push_back(peer->device);
  ++gStats["peer_enabled"];
  return CUDA_SUCCESS;
}
CUresult fake_cuStreamCreate(CUstream *s, unsigned) {
  FAKE_ENTRY(cuStreamCreate);
  if (!tCurrent)
    return kInvalidContext;
  *s = reinterpret_cast<CUstream>(new Stream);
  count("live_streams");
  return CUDA_SUCCESS;
}
CUresult fake_cuStreamDestroy(CUstream s) {
  FAKE_ENTRY(cuStreamDestroy);
  delete reinterpret_cast<Stream *>(s);
  count("live_streams", -1);
  return CUDA_SUCCESS;
}
CUresult fake_cuStreamSynchronize(CUstream s) {
  FAKE_ENTRY(cuStreamSynchronize);
  if (s)
    reinterpret_cast<Stream *>(s)->sync();
  return CUDA_SUCCESS;
}
CUresult fake_cuEventCreate(CUevent *e, unsigned) {
  FAKE_ENTRY(cuEventCreate);
  *e = new CUevent_st;
  count("live_events");
  return CUDA_SUCCESS;
}
CUresult fake_cuEventDestroy(CUevent e) {
  FAKE_ENTRY(cuEventDestroy);
  delete e;
  count("live_events", -1);
  return CUDA_SUCCESS;
}
CUresult fake_cuEventRecord(CUevent e, CUstream s) {
  FAKE_ENTRY(cuEventRecord);
  uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(gMutex);
    seq = ++e->recorded;
  }
  enqueue(s, [e, seq] {
    {
      std::lock_guard<std::mutex> lock(gMutex);
      if (e->completed < seq) {
        e->completed = seq;
        e->at = std::chrono::steady_clock::now();
      }
    }
    gEventCv.notify_all();
  });
  return CUDA_SUCCESS;
}
void waitFor(CUevent e, uint64_t seq) {
  std::unique_lock<std::mutex> lock(gMutex);
  gEventCv.wait(lock, [&] { return e->completed >= seq; });
}
CUresult fake_cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  FAKE_ENTRY(cuEventElapsedTime);
  std::lock_guard<std::mutex> lock(gMutex);
  if (start->completed != start->recorded || end->completed != end->recorded)
    return kNotReady;
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return CUDA_SUCCESS;
}
CUresult fake_cuEventSynchronize(CUevent e) {
  FAKE_ENTRY(cuEventSynchronize);
  uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(gMutex);
    seq = e->recorded;
  }
  waitFor(e, seq);
  return CUDA_SUCCESS;
}
CUresult fake_cuStreamWaitEvent(CUstream s, CUevent e, unsigned) {
  FAKE_ENTRY(cuStreamWaitEvent);
  uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(gMutex);
    seq = e->recorded;
  }
  enqueue(s, [e, seq] { waitFor(e, seq); });
  count("stream_waits");
  return CUDA_SUCCESS;
}
CUresult fake_cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  FAKE_ENTRY(cuMemAlloc);
  if (!tCurrent)
    return kInvalidContext;
  void *h = std::malloc(bytes ? bytes : 1);
  if (!h)
    return kOutOfMemory;
  *p = device(h);
  count("live_allocations");
  return CUDA_SUCCESS;
}
CUresult fake_cuMemFree(CUdeviceptr p) {
  FAKE_ENTRY(cuMemFree);
  std::free(host(p));
  count("live_allocations", -1);
  return CUDA_SUCCESS;
}
CUresult fake_cuMemHostAlloc(void **p, size_t bytes, unsigned) {
  FAKE_ENTRY(cuMemHostAlloc);
  *p = std::malloc(bytes ? bytes : 1);
  count("live_pinned");
  return *p ? CUDA_SUCCESS : kOutOfMemory;
}
CUresult fake_cuMemFreeHost(void *p) {
  FAKE_ENTRY(cuMemFreeHost);
  std::free(p);
  count("live_pinned", -1);
  return CUDA_SUCCESS;
}
CUresult fake_cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n) {
  FAKE_ENTRY(cuMemsetD8);
  std::memset(host(p), v, n);
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  FAKE_ENTRY(cuMemcpyHtoD);
  std::memcpy(host(d), s, n);
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
  FAKE_ENTRY(cuMemcpyDtoH);
  std::memcpy(d, host(s), n);
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n,
                                CUstream st) {
  FAKE_ENTRY(cuMemcpyHtoDAsync);
  FAKE_NEEDS_CONTEXT(st);
  count("htod");
  enqueue(st, [=] { std::memcpy(host(d), s, n); });
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n,
                                CUstream st) {
  FAKE_ENTRY(cuMemcpyDtoHAsync);
  FAKE_NEEDS_CONTEXT(st);
  count("dtoh");
  enqueue(st, [=] { std::memcpy(d, host(s), n); });
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n,
                                CUstream st) {
  FAKE_ENTRY(cuMemcpyDtoDAsync);
  FAKE_NEEDS_CONTEXT(st);
  count("dtod");
  enqueue(st, [=] { std::memcpy(host(d), host(s), n); });
  return CUDA_SUCCESS;
}
CUresult fake_cuMemcpyPeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr s,
                                CUcontext sc, size_t n, CUstream st) {
  FAKE_ENTRY(cuMemcpyPeerAsync);
  FAKE_NEEDS_CONTEXT(st);
  if (!dc || !sc || dc == sc)
    return kInvalidContext;
  count("peer");
  enqueue(st, [=] { std::memcpy(host(d), host(s), n); });
  return CUDA_SUCCESS;
}
CUresult fake_cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                 int *options, void **values) {
  FAKE_ENTRY(cuModuleLoadDataEx);
  std::istringstream in(static_cast<const char *>(image));
  std::string line, why;
  auto mod = std::make_unique<CUmod_st>();
  std::getline(in, line);
  if (line != "dlc-fake-cuda-module")
    why = "fake ptxas: line 1: expected 'dlc-fake-cuda-module', got '" +
          line.substr(0, 40) + "'";
  std::string name = "?";
  while (why.empty() && std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "image") {
      words >> name;
    } else if (kind == "library") {
      std::string path;
      words >> path;
      mod->library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!mod->library)
        why = "fake ptxas: cannot load " + path;
    } else if (kind == "kernel") {
      std::string entry, symbol;
      int params = 0;
      words >> entry >> symbol >> params;
      void *fn = mod->library ? ::dlsym(mod->library, symbol.c_str()) : nullptr;
      if (!fn)
        why = "fake ptxas: no symbol " + symbol;
      mod->kernels[entry] = CUfunc_st{reinterpret_cast<void (*)(void **)>(fn), params};
    }
  }
  if (!why.empty()) {
    for (unsigned i = 0; i + 1 < n; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        for (unsigned j = 0; j < n; ++j)
          if (options[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            std::snprintf(static_cast<char *>(values[i]),
                          reinterpret_cast<size_t>(values[j]), "%s",
                          why.c_str());
    if (mod->library)
      ::dlclose(mod->library);
    return kInvalidPtx;
  }
  count("loaded:" + name);
  count("live_modules");
  *m = mod.release();
  return CUDA_SUCCESS;
}
CUresult fake_cuModuleUnload(CUmodule m) {
  FAKE_ENTRY(cuModuleUnload);
  if (m->library)
    ::dlclose(m->library);
  delete m;
  count("live_modules", -1);
  return CUDA_SUCCESS;
}
CUresult fake_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  FAKE_ENTRY(cuModuleGetFunction);
  auto it = m->kernels.find(name);
  if (it == m->kernels.end())
    return kNotFound;
  *f = &it->second;
  return CUDA_SUCCESS;
}
CUresult fake_cuFuncSetAttribute(CUfunction, int attribute, int value) {
  FAKE_ENTRY(cuFuncSetAttribute);
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value > 227 * 1024)
    return kInvalidValue;
  return CUDA_SUCCESS;
}
CUresult fake_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned, CUstream st,
                             void **params, void **) {
  FAKE_ENTRY(cuLaunchKernel);
  FAKE_NEEDS_CONTEXT(st);
  if (!gx || !gy || !gz || !bx || !by || !bz || bx * by * bz > 1024)
    return kInvalidValue;
  std::vector<void *> args;
  for (int i = 0; i < f->params; ++i)
    args.push_back(host(*static_cast<CUdeviceptr *>(params[i])));
  count("launches");
  enqueue(st, [f, args]() mutable { f->fn(args.data()); });
  return CUDA_SUCCESS;
}
CUresult fake_cuLaunchHostFunc(CUstream st, void (*fn)(void *), void *data) {
  FAKE_ENTRY(cuLaunchHostFunc);
  FAKE_NEEDS_CONTEXT(st);
  count("host_functions");
  enqueue(st, [fn, data] { fn(data); });
  return CUDA_SUCCESS;
}

struct Entry {
  const char *name;
  void *fn;
};
const Entry kEntries[] = {
#define DLC_CUDA_SYMBOL(name, params)                                          \
  {#name, reinterpret_cast<void *>(&fake_##name)},
#include "cuda/CudaSymbols.def"
};

} // namespace

extern "C" {

CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version,
                             unsigned long long, int *status) {
  *fn = nullptr;
  if (version < 12000)
    return kInvalidValue;
  for (const Entry &e : kEntries)
    if (!std::strcmp(e.name, symbol)) {
      *fn = e.fn;
      if (status)
        *status = 0;
      return CUDA_SUCCESS;
    }
  if (status)
    *status = 1;
  return kNotFound;
}

/// "fail:NAME" with value v: NAME returns error v from now on (0: clears).
void dlc_fake_cuda_control(const char *what, int value) {
  std::lock_guard<std::mutex> lock(gMutex);
  std::string w = what;
  if (w.rfind("fail:", 0) == 0) {
    if (value)
      gFail[w.substr(5)] = value;
    else
      gFail.erase(w.substr(5));
  }
}

/// A counter: launches, htod, dtoh, dtod, peer, host_functions,
/// stream_waits, peer_enabled, loaded:IMAGE, and live_allocations,
/// live_pinned, live_streams, live_events, live_modules, primary_refs.
long dlc_fake_cuda_stat(const char *what) {
  std::lock_guard<std::mutex> lock(gMutex);
  auto it = gStats.find(what);
  return it == gStats.end() ? 0 : it->second;
}

} // extern "C"
