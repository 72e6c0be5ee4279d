//===- InterpreterIO.cpp - the reference interpreter's inputs and outputs --===//
//
// What `dlc interpret` and `dlc run --compare-reference` feed the interpreter
// (.npy files by name, the rest drawn as `dlc run` draws them) and how they
// print and write its results.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/InterpreterIO.h"

#include "Interpreter/Interpreter.h"
#include "Interpreter/Npy.h"
#include "dialects/dlc/DlcOps.h"
#include "dlc/random_inputs.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
namespace ref = dlc::ref;

namespace {

/// The reference kernels' own limit on a tensor's size (RefKernels.h).
constexpr int64_t kMaxInterpretedElements = int64_t(1) << 31;

/// The inputs `dlc run` would draw for the same signature (dlc/random_inputs.h):
/// floats in [-1, 1), integers in [0, bound) (bound 4 unless they index a gather).
ref::Tensor randomTensor(ref::DType dtype, llvm::ArrayRef<int64_t> shape,
                                int64_t indexBound, uint64_t &state) {
  ref::Tensor tensor = ref::Tensor::zeros(dtype, shape.vec());
  double bound = indexBound > 0 ? indexBound : 4;
  for (double &v : tensor.data) {
    double unit = dlc_random_unit(&state);
    if (ref::isFloat(dtype))
      v = ref::roundTo(dtype, 2 * unit - 1);
    else
      v = ref::roundTo(dtype, std::floor(unit * bound));
  }
  return tensor;
}

/// Output names may hold '/' (ONNX names): make them file names.
std::string fileNameFor(llvm::StringRef name) {
  std::string file = name.str();
  std::replace_if(file.begin(), file.end(),
                  [](char c) { return c == '/' || c == '\\' || c == ':'; }, '_');
  return file + ".npy";
}

void printSummary(llvm::StringRef name, const ref::Tensor &t) {
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (double v : t.data) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  llvm::outs() << name << ": " << ref::dtypeName(t.dtype) << " "
               << ref::shapeToString(t.shape);
  if (!t.data.empty())
    llvm::outs() << llvm::format(" min %.6g max %.6g mean %.6g", lo, hi,
                                 sum / t.data.size());
  llvm::outs() << "\n  [";
  size_t shown = std::min<size_t>(t.data.size(), 8);
  for (size_t i = 0; i < shown; ++i)
    llvm::outs() << (i ? ", " : "") << llvm::format("%.6g", t.data[i]);
  llvm::outs() << (t.data.size() > shown ? ", ...]\n" : "]\n");
}

/// The interpreter's inputs for `func`: NAME=FILE.npy specs, the rest random
/// (when `randomInputs`) from `seed`, as dlc run draws them. Errors on stderr.
/// --input's NAME=FILE pairs, by name; false (with the error printed) for a
/// malformed one.
bool parseInputFiles(llvm::ArrayRef<std::string> inputFiles, llvm::StringMap<std::string> &given) {
  for (const std::string &spec : inputFiles) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "error: --input expects NAME=FILE.npy, got '" << spec << "'\n";
      return false;
    }
    given[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  return true;
}

/// A random value for argument `i` of `func` from the shared `state`; false
/// (with the error printed) where none can be made.
bool randomInput(func::FuncOp func, unsigned i, const std::string &name, bool randomInputs,
                 uint64_t &state, std::vector<ref::Tensor> &inputs) {
  auto type = cast<RankedTensorType>(func.getArgumentTypes()[i]);
  FailureOr<ref::DType> dtype = dlc::refDTypeOf(type.getElementType());
  if (!randomInputs || failed(dtype)) {
    llvm::errs() << "error: no value for input '" << name << "' (" << type
                 << "): pass --input=" << name << "=FILE.npy or --random-inputs\n";
    return false;
  }
  // The interpreter holds every element as a double: refuse what cannot fit.
  if (type.getNumElements() > kMaxInterpretedElements) {
    llvm::errs() << "error: input '" << name << "' (" << type << ") has "
                 << type.getNumElements()
                 << " elements, more than the reference interpreter handles ("
                 << kMaxInterpretedElements << ")\n";
    return false;
  }
  inputs.push_back(randomTensor(*dtype, type.getShape(),
                                dlc::gatherIndexBound(func.getArgument(i)), state));
  return true;
}

} // namespace

/// The entry's inputs: state from its initial value, NAME=FILE.npy where
/// given (by name, or argN), else random from `seed` (as dlc run makes them).
bool dlc::interpreterInputs(func::FuncOp func, llvm::StringRef entry,
                       llvm::ArrayRef<std::string> inputFiles, bool randomInputs,
                       uint64_t seed, std::vector<ref::Tensor> &inputs) {
  llvm::StringMap<std::string> given;
  if (!parseInputFiles(inputFiles, given))
    return false;
  inputs.clear();
  uint64_t state = seed;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    std::string name = dlc::argumentName(func, i);
    // State starts as a session's does (and takes no random numbers).
    FailureOr<std::optional<ref::Tensor>> initial = dlc::initialState(func, i);
    if (failed(initial))
      return false;
    if (*initial) {
      inputs.push_back(std::move(**initial));
      continue;
    }
    auto it = given.find(name);
    if (it == given.end())
      it = given.find("arg" + std::to_string(i));
    if (it == given.end()) {
      if (!randomInput(func, i, name, randomInputs, state, inputs))
        return false;
      continue;
    }
    ref::Expected<ref::Tensor> tensor = ref::readNpy(it->second);
    if (!tensor) {
      llvm::errs() << "error: input '" << name << "': " << tensor.message() << "\n";
      return false;
    }
    auto argType = cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (FailureOr<ref::DType> want = refDTypeOf(argType.getElementType()); succeeded(want))
      *tensor = ref::convertForInput(std::move(*tensor), *want);
    inputs.push_back(std::move(*tensor));
    given.erase(it);
    // As dlc run does: a given input still consumes its share of the random
    // stream, so the other inputs get the same values either way.
    int64_t elements = cast<RankedTensorType>(func.getArgumentTypes()[i]).getNumElements();
    for (int64_t e = 0; e < elements; ++e)
      dlc_random_next(&state);
  }
  if (!given.empty()) {
    llvm::errs() << "error: @" << entry << " has no input named '" << given.begin()->getKey()
                 << "'\n";
    return false;
  }
  return true;
}

/// Prints each output's summary and, with `outputDir`, writes it as NAME.npy.
bool dlc::writeInterpretedOutputs(func::FuncOp func, llvm::ArrayRef<ref::Tensor> outputs,
                             llvm::StringRef outputDir) {
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      llvm::errs() << "error: cannot create output directory '" << outputDir
                   << "': " << ec.message() << "\n";
      return false;
    }
  }
  for (auto [i, output] : llvm::enumerate(outputs)) {
    std::string name = dlc::resultName(func, i);
    printSummary(name, output);
    if (outputDir.empty())
      continue;
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, fileNameFor(name));
    ref::Status status = ref::writeNpy(std::string(path), output);
    if (!status.ok()) {
      llvm::errs() << "error: output '" << name << "': " << status.message() << "\n";
      return false;
    }
  }
  return true;
}

