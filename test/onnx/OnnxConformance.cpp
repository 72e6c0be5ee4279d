//===- OnnxConformance.cpp - ONNX's backend node tests through dlc --------===//
//
//   dlc-onnx-conformance DATA_DIR [--jobs=N] [--known=FILE] [--min-pass=N]
//                        [--filter=SUBSTRING] [--gpu-placement] [--verbose]
//
// For every DATA_DIR/<test>/ (model.onnx, test_data_set_*/input_*.pb and
// output_*.pb as TensorProto): import, compile for this CPU, run with the
// runtime, compare with the expected outputs (ONNX's backend tolerances:
// |actual - expected| <= atol + rtol * |expected|, rtol 1e-3, atol 1e-7;
// integers and booleans exactly). All in one process per job: no process
// start-up or MLIR context per test. Prints one line per failing test and a
// table of pass / fail / unsupported per op type; exits 1 when a test that
// does not pass (a failure, or a model the importer refuses) is not listed in
// --known with its reason, or when fewer than --min-pass tests pass.
//
// Unsupported: the importer refused the model (an op, an element type, a
// value that must be known at import time). Fail: anything after that.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/GraphImporter.h"
#include "compiler/Import/ONNX/OnnxImporter.h"
#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Registration.h"
#include "dlc/runtime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace dlc;
using dlc::ref::Tensor;

namespace {

enum class Outcome { Pass, Fail, Unsupported };

struct Result {
  std::string test;
  Outcome outcome;
  std::string detail;
  std::vector<std::string> ops;
};

std::optional<onnx::TensorProto> readProto(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  onnx::TensorProto proto;
  if (!in || !proto.ParseFromIstream(&in))
    return std::nullopt;
  return proto;
}

/// The test's tensor in `proto` as a value of the model's `dtype`: ONNX 1.12
/// writes bf16 test data as its uint16 bits (NumPy has no bf16).
std::optional<Tensor> tensorOf(onnx::TensorProto proto, dlc_dtype_t dtype, std::string &err) {
  if (dtype == DLC_DTYPE_BF16 && proto.data_type() == onnx::TensorProto::UINT16)
    proto.set_data_type(onnx::TensorProto::BFLOAT16);
  return onnx_import::tensorFromProto(proto, err);
}

/// The stored bytes of `t` (little-endian, as the runtime takes them).
std::string bytesOf(const Tensor &t) {
  std::string out;
  size_t n = dlc_dtype_size(static_cast<dlc_dtype_t>(t.dtype));
  for (double v : t.data) {
    uint64_t bits = ref::encodeElement(t.dtype, v);
    for (size_t byte = 0; byte < n; ++byte)
      out.push_back(char(bits >> (8 * byte)));
  }
  return out;
}

double valueAt(dlc_dtype_t dtype, const char *p, size_t i) {
  return ref::decodeElement(static_cast<ref::DType>(dtype), p + i * dlc_dtype_size(dtype));
}

std::string statusMessage(dlc_status_t status) {
  std::string m = dlc_status_message(status);
  dlc_status_free(status);
  return m;
}

/// --gpu-placement: every op the CUDA backend has a kernel for placed on
/// cuda:0 (--devices=cpu,cuda:0 --placement=gpu), its CUDA C++ run by the
/// host emulation on a simulated GPU (--gpu-host-code=emulated --gpu=sim).
bool gpuPlacement = false;

CompileOptions compileOptions() {
  CompileOptions options;
  if (gpuPlacement) {
    options.devices = "cpu,cuda:0";
    options.policy = "gpu";
    options.codegen.cuda = false;
    options.codegen.emulatedGpuHostCode = true;
  }
  return options;
}

/// Runs one data set; empty string on success, else what went wrong.
std::string runDataSet(dlc_model_t *model, const std::vector<std::string> &inputNames,
                       const std::string &dir, const std::vector<std::string> &outputNames) {
  dlc_session_t *session = nullptr;
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.gpu_binding = gpuPlacement ? DLC_GPU_BINDING_SIM : DLC_GPU_BINDING_REAL;
  if (dlc_status_t s = dlc_session_create(model, &options, &session))
    return "session: " + statusMessage(s);
  std::string problem;
  std::string err;
  for (size_t i = 0; i < inputNames.size() && problem.empty(); ++i) {
    if (inputNames[i].empty())
      continue; // bound at import time
    auto proto = readProto(dir + "/input_" + std::to_string(i) + ".pb");
    if (!proto) {
      problem = "cannot read input_" + std::to_string(i) + ".pb";
      break;
    }
    size_t index;
    if (dlc_status_t s = dlc_model_find_input(model, inputNames[i].c_str(), &index)) {
      problem = statusMessage(s);
      break;
    }
    dlc_tensor_info_t info;
    dlc_model_input_info(model, index, &info);
    std::optional<Tensor> t = tensorOf(*proto, info.dtype, err);
    if (!t) {
      problem = "input " + std::to_string(i) + ": " + err;
      break;
    }
    std::string bytes = bytesOf(*t);
    if (dlc_status_t s = dlc_session_set_input(session, index, bytes.data(), bytes.size()))
      problem = "input '" + inputNames[i] + "': " + statusMessage(s);
  }
  if (problem.empty())
    if (dlc_status_t s = dlc_session_run(session))
      problem = "run: " + statusMessage(s);
  for (size_t i = 0; i < outputNames.size() && problem.empty(); ++i) {
    auto proto = readProto(dir + "/output_" + std::to_string(i) + ".pb");
    size_t index;
    dlc_tensor_info_t info;
    const void *data = nullptr;
    if (dlc_status_t s = dlc_model_find_output(model, outputNames[i].c_str(), &index)) {
      problem = statusMessage(s);
      break;
    }
    dlc_model_output_info(model, index, &info);
    std::optional<Tensor> expected = proto ? tensorOf(*proto, info.dtype, err) : std::nullopt;
    if (!expected) {
      problem = "expected output " + std::to_string(i) + ": " + (proto ? err : "unreadable");
      break;
    }
    size_t bytes = 0;
    if (dlc_status_t s = dlc_session_output(session, index, &data, &bytes)) {
      problem = statusMessage(s);
      break;
    }
    std::vector<int64_t> shape(info.shape, info.shape + info.rank);
    if (shape != expected->shape) {
      problem = "output '" + outputNames[i] + "' has shape " + ref::shapeToString(shape) +
                ", expected " + ref::shapeToString(expected->shape);
      break;
    }
    bool exact = !ref::isFloat(expected->dtype);
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t e = 0; e < expected->data.size(); ++e) {
      double a = valueAt(info.dtype, static_cast<const char *>(data), e), x = expected->data[e];
      bool ok;
      if (exact)
        ok = a == x;
      else if (std::isnan(x))
        ok = std::isnan(a);
      else if (std::isinf(x))
        ok = a == x;
      else
        ok = std::abs(a - x) <= 1e-7 + 1e-3 * std::abs(x);
      if (!ok && bad++ == 0)
        first = e;
      if (!ok)
        worst = std::max(worst, std::abs(a - x));
    }
    if (bad) {
      std::ostringstream os;
      os << "output '" << outputNames[i] << "': " << bad << " of " << expected->data.size()
         << " elements differ (first at " << first << ": got "
         << valueAt(info.dtype, static_cast<const char *>(data), first) << ", expected "
         << expected->data[first] << "; max abs error " << worst << ")";
      problem = os.str();
    }
  }
  dlc_session_release(session);
  return problem;
}

Result runTest(mlir::MLIRContext &context, const std::string &dir, const std::string &name) {
  Result r{name, Outcome::Unsupported, "", {}};
  auto file = llvm::MemoryBuffer::getFile(dir + "/model.onnx", false, false);
  onnx::ModelProto model;
  if (!file || !model.ParseFromArray((*file)->getBufferStart(), (*file)->getBufferSize())) {
    r.detail = "cannot read model.onnx";
    return r;
  }
  std::set<std::string> ops;
  for (const onnx::NodeProto &n : model.graph().node())
    ops.insert(n.op_type());
  r.ops.assign(ops.begin(), ops.end());
  std::string error;
  OnnxImportOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importOnnxBytes(context, (*file)->getBuffer(), dir, options, error);
  // Inputs that feed shapes, axes or bounds are bound to data set 0's values
  // (what --bind does), one at a time as the importer asks for them; then
  // only the data sets that agree with those values run.
  std::map<std::string, Tensor> bound;
  for (int round = 0; !module && round < 8; ++round) {
    size_t at = error.find("--bind=");
    if (at == std::string::npos)
      break;
    std::string name = error.substr(at + 7, error.find("=FILE.npy", at) - at - 7);
    int index = 0;
    for (const onnx::ValueInfoProto &v : model.graph().input()) {
      if (v.name() == name)
        break;
      ++index;
    }
    auto proto = readProto(dir + "/test_data_set_0/input_" + std::to_string(index) + ".pb");
    std::string err;
    std::optional<Tensor> value = proto ? onnx_import::tensorFromProto(*proto, err) : std::nullopt;
    if (!value || options.bindings.count(name))
      break;
    options.bindings[name] = *value;
    bound[name] = *value;
    module = importOnnxBytes(context, (*file)->getBuffer(), dir, options, error);
  }
  if (!module) {
    r.detail = error;
    // The importer's own bugs count as failures, not as unsupported.
    if (error.find("importer bug") != std::string::npos)
      r.outcome = Outcome::Fail;
    return r;
  }
  r.outcome = Outcome::Fail;
  std::string diag;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (diag.empty())
      diag = d.str();
    return mlir::success();
  });
  mlir::FailureOr<std::string> artifact = compileModule(*module, compileOptions());
  if (mlir::failed(artifact)) {
    r.detail = "compile: " + diag;
    return r;
  }
  dlc_model_t *loaded = nullptr;
  dlc_model_options_t modelOptions;
  dlc_model_options_initialize(&modelOptions);
  modelOptions.name = name.c_str();
  if (dlc_status_t s = dlc_model_load_memory(artifact->data(), artifact->size(), &modelOptions,
                                             &loaded)) {
    r.detail = "load: " + statusMessage(s);
    return r;
  }
  std::set<std::string> initializers;
  for (const onnx::TensorProto &t : model.graph().initializer())
    initializers.insert(t.name());
  std::vector<std::string> inputs, outputs;
  for (const onnx::ValueInfoProto &v : model.graph().input())
    if (!initializers.count(v.name()))
      inputs.push_back(bound.count(v.name()) ? "" : v.name());
  for (const onnx::ValueInfoProto &v : model.graph().output())
    outputs.push_back(v.name());
  std::error_code ec;
  std::vector<std::string> sets;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_"))
      sets.push_back(it->path());
  std::sort(sets.begin(), sets.end());
  if (!bound.empty() && sets.size() > 1)
    sets.resize(1); // compiled for data set 0's bound values
  for (const std::string &set : sets) {
    std::string problem = runDataSet(loaded, inputs, set, outputs);
    if (!problem.empty()) {
      r.detail = llvm::sys::path::filename(set).str() + ": " + problem;
      dlc_model_release(loaded);
      return r;
    }
  }
  dlc_model_release(loaded);
  r.outcome = sets.empty() ? Outcome::Fail : Outcome::Pass;
  if (sets.empty())
    r.detail = "no test data sets";
  return r;
}

/// One line per result: outcome \t test \t ops(,) \t detail (tabs/newlines removed).
std::string encode(const Result &r) {
  auto clean = [](std::string s) {
    std::replace(s.begin(), s.end(), '\t', ' ');
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
  };
  std::string ops;
  for (const std::string &o : r.ops)
    ops += (ops.empty() ? "" : ",") + o;
  return std::to_string(int(r.outcome)) + "\t" + r.test + "\t" + ops + "\t" + clean(r.detail);
}

Result decode(const std::string &line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string part;
  while (std::getline(ss, part, '\t'))
    f.push_back(part);
  f.resize(4);
  Result r{f[1], Outcome(std::atoi(f[0].c_str())), f[3], {}};
  std::stringstream ops(f[2]);
  while (std::getline(ops, part, ','))
    r.ops.push_back(part);
  return r;
}

} // namespace

int main(int argc, char **argv) {
  std::string dataDir, knownFile, filter;
  int jobs = 2, minPass = 0;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a.consume_front("--jobs="))
      jobs = std::max(1, std::atoi(a.data()));
    else if (a.consume_front("--known="))
      knownFile = a.str();
    else if (a.consume_front("--min-pass="))
      minPass = std::atoi(a.data());
    else if (a.consume_front("--filter="))
      filter = a.str();
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--gpu-placement")
      gpuPlacement = true;
    else if (!a.starts_with("-") && dataDir.empty())
      dataDir = a.str();
    else {
      llvm::errs() << "usage: dlc-onnx-conformance DATA_DIR [--jobs=N] [--known=FILE] "
                      "[--min-pass=N] [--filter=SUBSTRING] [--gpu-placement] [--verbose]\n";
      return 2;
    }
  }
  if (dataDir.empty()) {
    llvm::errs() << "error: no data directory (e.g. /usr/share/libonnx-testdata/data/node)\n";
    return 2;
  }
  // Known exceptions: "test_name  reason" per line, '#' comments.
  std::map<std::string, std::string> known;
  if (!knownFile.empty()) {
    std::ifstream in(knownFile);
    if (!in) {
      llvm::errs() << "error: cannot read " << knownFile << "\n";
      return 2;
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#')
        continue;
      size_t sp = line.find_first_of(" \t");
      known[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
    }
  }
  std::vector<std::string> tests;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dataDir, ec), end; it != end && !ec; it.increment(ec)) {
    std::string name = llvm::sys::path::filename(it->path()).str();
    if (llvm::sys::fs::exists(it->path() + "/model.onnx") &&
        name.find(filter) != std::string::npos)
      tests.push_back(name);
  }
  if (ec || tests.empty()) {
    llvm::errs() << "error: no tests under " << dataDir << "\n";
    return 2;
  }
  std::sort(tests.begin(), tests.end());

  // Jobs are forked processes (LLD, linked in, runs one link at a time per
  // process); each takes every jobs-th test and writes its results to a pipe.
  std::vector<Result> results;
  std::vector<std::pair<pid_t, int>> children;
  for (int j = 0; j < jobs; ++j) {
    int fds[2];
    if (pipe(fds) != 0) {
      llvm::errs() << "error: pipe failed\n";
      return 2;
    }
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      mlir::DialectRegistry registry;
      registerAllDlcDialects(registry);
      mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
      context.loadAllAvailableDialects();
      std::string out;
      for (size_t t = j; t < tests.size(); t += jobs) {
        Result r = runTest(context, dataDir + "/" + tests[t], tests[t]);
        out = encode(r) + "\n";
        if (write(fds[1], out.data(), out.size()) < 0)
          _exit(3);
      }
      close(fds[1]);
      _exit(0);
    }
    close(fds[1]);
    children.push_back({pid, fds[0]});
  }
  for (auto [pid, fd] : children) {
    std::string all;
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
      all.append(buf, n);
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    std::stringstream ss(all);
    std::string line;
    while (std::getline(ss, line))
      results.push_back(decode(line));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      llvm::errs() << "warning: a job ended abnormally (status " << status
                   << "); its remaining tests are missing\n";
  }
  std::sort(results.begin(), results.end(),
            [](const Result &a, const Result &b) { return a.test < b.test; });

  struct Counts { int pass = 0, fail = 0, unsupported = 0; };
  std::map<std::string, Counts> perOp;
  Counts total;
  int unexpected = 0, knownSeen = 0, unlisted = 0;
  for (const Result &r : results) {
    for (const std::string &op : r.ops) {
      Counts &c = perOp[op];
      (r.outcome == Outcome::Pass ? c.pass : r.outcome == Outcome::Fail ? c.fail : c.unsupported)++;
    }
    (r.outcome == Outcome::Pass ? total.pass
     : r.outcome == Outcome::Fail ? total.fail : total.unsupported)++;
    bool isKnown = known.count(r.test) != 0;
    if (r.outcome == Outcome::Fail) {
      if (isKnown)
        ++knownSeen;
      else
        ++unexpected;
      llvm::outs() << (isKnown ? "KNOWN FAIL " : "FAIL ") << r.test << ": " << r.detail << "\n";
    } else if (r.outcome == Outcome::Unsupported && !isKnown && !knownFile.empty()) {
      ++unlisted;
      llvm::outs() << "UNLISTED " << r.test << ": " << r.detail << "\n";
    } else if (verbose) {
      llvm::outs() << (r.outcome == Outcome::Pass ? "PASS " : "UNSUPPORTED ") << r.test
                   << (r.detail.empty() ? "" : ": " + r.detail) << "\n";
    }
  }
  llvm::outs() << "\n" << llvm::format("%-28s %6s %6s %12s\n", (const char *)"op", (const char *)"pass",
                                     (const char *)"fail", (const char *)"unsupported");
  for (auto &[op, c] : perOp)
    if (c.pass || c.fail || verbose)
      llvm::outs() << llvm::format("%-28s %6d %6d %12d\n", op.c_str(), c.pass, c.fail, c.unsupported);
  int unsupportedOnly = 0;
  for (auto &[op, c] : perOp)
    if (!c.pass && !c.fail)
      ++unsupportedOnly;
  llvm::outs() << "(" << unsupportedOnly << " op types with only unsupported tests; --verbose lists them)\n";
  llvm::outs() << "\nnode tests: " << total.pass << " pass / " << (total.pass + total.fail)
               << " of supported ops / " << results.size() << " total (" << total.fail
               << " fail, " << knownSeen << " of them known exceptions; " << total.unsupported
               << " unsupported)\n";
  bool ok = true;
  if (results.size() != tests.size()) {
    llvm::outs() << "error: " << tests.size() - results.size() << " tests did not report\n";
    ok = false;
  }
  if (unexpected) {
    llvm::outs() << "error: " << unexpected << " tests of supported ops fail (not in "
                 << (knownFile.empty() ? "a known-exceptions list" : knownFile) << ")\n";
    ok = false;
  }
  if (unlisted) {
    llvm::outs() << "error: " << unlisted << " unsupported tests are not listed in " << knownFile
                 << " with a reason\n";
    ok = false;
  }
  if (total.pass < minPass) {
    llvm::outs() << "error: " << total.pass << " tests pass, fewer than --min-pass=" << minPass << "\n";
    ok = false;
  }
  for (auto &[test, reason] : known)
    if (std::any_of(results.begin(), results.end(), [&](const Result &r) {
          return r.test == test && r.outcome == Outcome::Pass;
        }))
      llvm::outs() << "note: known exception " << test << " passes now: remove it from the list\n";
  return ok ? 0 : 1;
}
