//===- Calibrate.cpp - fp16 guardrails from one fp32 run --------------------===//

#include "compiler/Driver/Calibrate.h"

#include "Interpreter/Interpreter.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/CostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace dlc;

namespace {

constexpr double kF16Max = 65504;
constexpr double kF16SmallestSubnormal = 5.9604644775390625e-8; // 2^-24
constexpr double kUnderflowFraction = 0.01;

/// Every tagged op's results, by tag: a clone of `func` that also returns
/// them, run through the interpreter.
FailureOr<std::map<int64_t, std::vector<ref::Tensor>>>
valuesOfTaggedOps(func::FuncOp func, const std::vector<ref::Tensor> &inputs) {
  func::FuncOp clone = func.clone();
  Block &block = clone.getBody().front();
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  SmallVector<Value> results(ret.getOperands());
  size_t original = results.size();
  std::vector<std::pair<int64_t, unsigned>> tags; // (tag, result count)
  for (Operation &op : block.without_terminator())
    if (auto tag = op.getAttrOfType<IntegerAttr>(::dlc::attrs::kCalibration)) {
      tags.push_back({tag.getInt(), op.getNumResults()});
      results.append(op.getResults().begin(), op.getResults().end());
    }
  ret->setOperands(results);
  clone.setFunctionType(FunctionType::get(func.getContext(), clone.getArgumentTypes(),
                                          ValueRange(results).getTypes()));
  FailureOr<std::vector<ref::Tensor>> outputs = interpretFunction(clone, inputs);
  clone.erase();
  if (failed(outputs))
    return failure();
  std::map<int64_t, std::vector<ref::Tensor>> values;
  size_t next = original;
  for (auto [tag, count] : tags) {
    std::vector<ref::Tensor> own((*outputs).begin() + next,
                                 (*outputs).begin() + next + count);
    next += count;
    values.try_emplace(tag, std::move(own)); // replicas: the first one
  }
  return values;
}

double maxAbs(const ref::Tensor &t) {
  double m = 0;
  for (double v : t.data)
    m = std::max(m, std::fabs(v));
  return m;
}

/// The fraction of nonzero values fp16 flushes to zero.
double underflowFraction(const ref::Tensor &t) {
  int64_t nonzero = 0, lost = 0;
  for (double v : t.data)
    if (v != 0) {
      ++nonzero;
      lost += std::fabs(v) < kF16SmallestSubnormal / 2;
    }
  return nonzero ? double(lost) / nonzero : 0;
}

} // namespace

namespace {
/// The fp32 value of `v` in the calibration run: a tagged op's result, a
/// constant, an input; none for anything else.
std::optional<ref::Tensor> calibratedValue(Value v, const Calibration &calibration) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return calibration.inputs[arg.getArgNumber()];
  Operation *def = v.getDefiningOp();
  if (auto constant = dyn_cast<ConstantOp>(def)) {
    FailureOr<ref::Tensor> t = tensorFromElements(constant.getValue(), def->getLoc());
    return succeeded(t) ? std::optional<ref::Tensor>(*t) : std::nullopt;
  }
  auto tag = def->getAttrOfType<IntegerAttr>(::dlc::attrs::kCalibration);
  if (!tag)
    return std::nullopt;
  return calibration.reference.at(tag.getInt())[cast<OpResult>(v).getResultNumber()];
}

/// Why `op` (tagged) should stay in fp32, from its results' and inputs'
/// fp32 values; empty when fp16 is safe for it.
std::string whyNotFp16(Operation &op, int64_t tag, const Calibration &calibration) {
  std::string why;
  for (const ref::Tensor &t : calibration.reference.at(tag))
    if (ref::isFloat(t.dtype) && maxAbs(t) > kF16Max)
      why = llvm::formatv("max |x| {0:e2} > 65504: fp16 overflows", maxAbs(t)).str();
  for (Value operand : op.getOperands()) {
    std::optional<ref::Tensor> t = calibratedValue(operand, calibration);
    if (!why.empty() || !t || !ref::isFloat(t->dtype))
      continue;
    if (maxAbs(*t) > kF16Max)
      why = llvm::formatv("input max |x| {0:e2} > 65504: fp16 overflows", maxAbs(*t)).str();
    else if (double lost = underflowFraction(*t); lost > kUnderflowFraction)
      why = llvm::formatv("{0:f1}% of an input's nonzero values underflow to 0 in fp16",
                          100 * lost)
                .str();
  }
  return why;
}
} // namespace

LogicalResult dlc::calibrateFp16(func::FuncOp func, Calibration &calibration,
                                 llvm::raw_ostream &log) {
  Block &block = func.getBody().front();
  Builder builder(func.getContext());
  for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
    if (isa<ConstantOp>(op))
      continue;
    op.setAttr(::dlc::attrs::kCalibration, builder.getI64IntegerAttr(index));
    calibration.names[index] = opName(&op, index);
  }
  auto values = valuesOfTaggedOps(func, calibration.inputs);
  if (failed(values))
    return failure();
  calibration.reference = std::move(*values);
  int denied = 0;
  for (Operation &op : block.without_terminator()) {
    auto tag = op.getAttrOfType<IntegerAttr>(::dlc::attrs::kCalibration);
    if (!tag)
      continue;
    const std::string &name = calibration.names[tag.getInt()];
    std::string why = whyNotFp16(op, tag.getInt(), calibration);
    if (why.empty())
      continue;
    auto pin = op.getAttrOfType<StringAttr>(::dlc::attrs::kPrecision);
    if (pin && pin.getValue() == "fp16") {
      log << "calibration: warning: " << name << " (" << op.getName()
          << ") is pinned to fp16: " << why << "\n";
      continue;
    }
    op.setAttr(::dlc::attrs::kPrecision, builder.getStringAttr("fp32"));
    log << "calibration: " << name << " (" << op.getName() << ") kept in fp32: " << why
        << "\n";
    ++denied;
  }
  log << "calibration: " << denied << " ops kept in fp32\n";
  return success();
}

LogicalResult dlc::reportCalibrationError(func::FuncOp func,
                                          const Calibration &calibration,
                                          llvm::raw_ostream &log) {
  auto values = valuesOfTaggedOps(func, calibration.inputs);
  if (failed(values))
    return failure();
  std::map<int64_t, std::string> precision;
  for (Operation &op : func.getBody().front().without_terminator())
    if (auto tag = op.getAttrOfType<IntegerAttr>(::dlc::attrs::kCalibration)) {
      if (op.getNumResults() && !precision.count(tag.getInt())) {
        auto type = cast<RankedTensorType>(op.getResult(0).getType());
        std::string text;
        llvm::raw_string_ostream os(text);
        os << type.getElementType();
        precision[tag.getInt()] = text;
      }
      op.removeAttr(::dlc::attrs::kCalibration);
    }
  struct Row {
    double error;
    int64_t tag;
  };
  std::vector<Row> rows;
  for (const auto &[tag, mixed] : *values) {
    auto it = calibration.reference.find(tag);
    if (it == calibration.reference.end() || it->second.size() != mixed.size())
      continue;
    double diff = 0, norm = 0;
    bool comparable = true;
    for (auto [a, b] : llvm::zip(mixed, it->second)) {
      if (a.shape != b.shape || !ref::isFloat(b.dtype)) {
        comparable = false;
        break;
      }
      for (auto [x, y] : llvm::zip(a.data, b.data)) {
        diff += (x - y) * (x - y);
        norm += y * y;
      }
    }
    if (comparable)
      rows.push_back({norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff), tag});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row &a, const Row &b) { return a.error > b.error; });
  log << "calibration: relative L2 error against fp32, worst first:\n";
  for (const Row &row : rows)
    log << llvm::format("  %10.3e  %-4s  ", row.error, precision[row.tag].c_str())
        << calibration.names.at(row.tag) << "\n";
  return success();
}
