//===- CompareReference.cpp - dlc run --compare-reference ------------------===//

#include "compiler/CompareReference.h"

#include "Interpreter/Interpreter.h"
#include "Interpreter/Npy.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/CostModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace mlir;

namespace {

/// One line of steps.jsonl.
struct StepOutput {
  int64_t sequence = 0, step = 0, buffer = 0;
  std::string device, kind, kernel, name, copiedFrom, dtype, elementType, file;
  std::vector<std::string> ops;
};

llvm::Expected<std::vector<StepOutput>> readManifest(const std::string &dir) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "steps.jsonl");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read '%s': %s", path.c_str(),
                                   buffer.getError().message().c_str());
  std::vector<StepOutput> steps;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [n, line] : llvm::enumerate(lines)) {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    const llvm::json::Object *o = value ? value->getAsObject() : nullptr;
    StepOutput s;
    auto str = [&](const char *key, std::string &out) {
      auto v = o->getString(key);
      out = v ? v->str() : "";
      return v.has_value();
    };
    if (!o || !str("device", s.device) || !str("kind", s.kind) || !str("name", s.name) ||
        !str("file", s.file) || !o->getInteger("sequence") || !o->getInteger("step") ||
        !o->getInteger("buffer")) {
      if (!value)
        llvm::consumeError(value.takeError());
      return llvm::createStringError(std::errc::invalid_argument,
                                     "'%s' line %zu is not a step record", path.c_str(), n + 1);
    }
    str("kernel", s.kernel);
    str("dtype", s.dtype);
    str("element_type", s.elementType);
    str("copied_from", s.copiedFrom);
    s.sequence = *o->getInteger("sequence");
    s.step = *o->getInteger("step");
    s.buffer = *o->getInteger("buffer");
    if (const llvm::json::Array *ops = o->getArray("ops"))
      for (const llvm::json::Value &op : *ops)
        if (auto name = op.getAsString())
          s.ops.push_back(name->str());
    steps.push_back(std::move(s));
  }
  std::stable_sort(steps.begin(), steps.end(), [](const StepOutput &a, const StepOutput &b) {
    return a.sequence < b.sequence;
  });
  return steps;
}

/// The source op a buffer's name refers to: casts dlc inserted are named
/// "X/to_f16" or "X/to_f32@cuda:1" after the value X they convert, and
/// "X#N" for result N of a multi-result op (then `result` is N).
std::string sourceName(llvm::StringRef name, int &result) {
  result = -1;
  for (llvm::StringRef suffix : {"/to_f16", "/to_f32"}) {
    size_t at = name.rfind(suffix);
    if (at != llvm::StringRef::npos) {
      llvm::StringRef rest = name.substr(at + suffix.size());
      if (rest.empty() || rest.starts_with("@")) {
        name = name.substr(0, at);
        size_t hash = name.rfind('#');
        unsigned n;
        if (hash != llvm::StringRef::npos && !name.substr(hash + 1).getAsInteger(10, n)) {
          result = int(n);
          name = name.substr(0, hash);
        }
        break;
      }
    }
  }
  return name.str();
}

struct Mismatch {
  double error = 0, bound = 0, scale = 0;
  int64_t element = -1;
  double got = 0, want = 0;
  bool matches() const { return element < 0; }
};

Mismatch compareTensors(const dlc::ref::Tensor &got, const dlc::ref::Tensor &want,
                        double tolerance) {
  Mismatch m;
  for (double v : want.data)
    if (std::isfinite(v))
      m.scale = std::max(m.scale, std::fabs(v));
  m.bound = tolerance * m.scale + 1e-7;
  int64_t worst = -1;
  for (size_t i = 0; i < want.data.size(); ++i) {
    double a = got.data[i], b = want.data[i];
    if (!std::isfinite(b))
      continue; // The reference's own overflow: nothing to hold dlc to.
    double e = std::isfinite(a) ? std::fabs(a - b) : INFINITY;
    if (worst < 0 || e > m.error) {
      worst = int64_t(i);
      m.got = a;
      m.want = b;
      m.error = e;
    }
  }
  m.element = m.error > m.bound ? worst : -1;
  return m;
}

} // namespace

int dlc::compareWithReference(func::FuncOp source, const std::vector<ref::Tensor> &inputs,
                              const std::string &dumpDir,
                              const CompareReferenceOptions &options, llvm::raw_ostream &os,
                              llvm::raw_ostream &errs) {
  llvm::Expected<std::vector<StepOutput>> steps = readManifest(dumpDir);
  if (!steps) {
    errs << "error: --compare-reference: " << llvm::toString(steps.takeError()) << "\n";
    return 1;
  }
  // The reference value of every op, by the name the artifact gives it.
  nameUnnamedOps(source);
  llvm::StringMap<std::vector<ref::Tensor>> reference;
  // Inputs go by their buffer's name and by the names casts of them get.
  // (A state's buffer, named after it, holds two values in a run, the old
  // and the next: it has no reference.)
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const std::string &name : {"input:" + std::to_string(i), argumentName(source, i),
                                    "arg" + std::to_string(i)})
      if (!source.getArgAttr(i, ::dlc::attrs::kState) || name != argumentName(source, i))
        reference[name] = {inputs[i]};
  // Every op has a location name now: opName ignores the ordinal.
  FailureOr<std::vector<ref::Tensor>> outputs = interpretFunction(
      source, inputs, [&](Operation *op, const std::vector<ref::Tensor> &results) {
        std::vector<ref::Tensor> &slot = reference[opName(op, /*ordinal=*/0)];
        slot.insert(slot.end(), results.begin(), results.end());
      });
  if (failed(outputs))
    return 1;

  double tolerance = options.tolerance;
  if (tolerance <= 0) {
    bool half = llvm::any_of(*steps, [](const StepOutput &s) {
      return s.elementType == "f16" || s.elementType == "bf16";
    });
    tolerance = half ? 3e-2 : 1e-4;
  }
  size_t compared = 0, unmatched = 0, diverged = 0;
  for (const StepOutput &s : *steps) {
    // A copy is its source's value, whatever name the copy got.
    int result;
    auto it = reference.find(sourceName(s.name, result));
    if (it == reference.end() && !s.copiedFrom.empty())
      it = reference.find(sourceName(s.copiedFrom, result));
    llvm::SmallString<256> path(dumpDir);
    llvm::sys::path::append(path, s.file);
    if (s.elementType == "bf16") { // Raw bits as <u2: the reader takes bf16 as <f4 only.
      ++unmatched;
      continue;
    }
    ref::Expected<ref::Tensor> got = ref::readNpy(std::string(path));
    if (!got) {
      errs << "error: --compare-reference: " << got.message() << "\n";
      return 1;
    }
    // A value dlc made (none in the source), or of another element count.
    const ref::Tensor *best = nullptr;
    Mismatch bestMismatch;
    if (it != reference.end())
      for (auto [n, candidate] : llvm::enumerate(it->second)) {
        if (candidate.numElements() != got->numElements() || (result >= 0 && int(n) != result))
          continue;
        Mismatch m = compareTensors(*got, candidate, tolerance);
        if (!best || (bestMismatch.element >= 0 && m.error < bestMismatch.error)) {
          best = &candidate;
          bestMismatch = m;
        }
      }
    if (!best) {
      ++unmatched;
      continue;
    }
    ++compared;
    if (bestMismatch.matches())
      continue;
    if (diverged++)
      continue;
    os << "compare-reference: first divergence: step " << s.step << " (" << s.kind
       << ") of " << s.device;
    if (s.kind == "call") {
      os << ", kernel '" << s.kernel << "' (ops ";
      for (size_t i = 0; i < s.ops.size(); ++i)
        os << (i ? ", " : "") << s.ops[i];
      os << ")";
    }
    os << ", wrote buffer " << s.buffer << " ('" << s.name << "', "
       << ref::dtypeName(got->dtype) << " " << ref::shapeToString(got->shape) << ")";
    os << llvm::format(": element %lld is %.7g, the reference %.7g (|difference| %.3g > "
                       "%.3g = %g x max|ref| %.3g)\n",
                       (long long)bestMismatch.element, bestMismatch.got, bestMismatch.want,
                       bestMismatch.error, bestMismatch.bound, tolerance, bestMismatch.scale);
  }
  if (!compared && unmatched) {
    // Never a silent pass: no value of the run had a reference to hold it to.
    errs << "error: --compare-reference: none of the run's " << unmatched
         << " step outputs has a reference value of its size: the run's shapes are not the "
            "model's (a symbolic batch run below its bound: run it at the bound; or a "
            "data-parallel placement's replicas), so nothing was compared\n";
    return 1;
  }
  os << "compare-reference: " << compared << " step outputs compared with the reference";
  if (unmatched)
    os << " (" << unmatched << " have no reference value: values dlc made)";
  if (diverged)
    os << ", " << diverged << " diverge\n";
  else
    os << llvm::format(", all within %g x max|ref|\n", tolerance);
  return diverged ? 1 : 0;
}
