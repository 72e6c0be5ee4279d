//===- Interpreter.cpp - the reference interpreter over dlc IR ------------===//
//
// Walks the function in order, keeping every SSA value as a ref::Tensor, and
// evaluates each op with its reference kernel. An op by op TypeSwitch is the
// point here: the interpreter must not share the ops' own logic.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Interpreter.h"
#include "Interpreter/RefKernels.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
namespace ref = dlc::ref;
using dlc::ref::DType;
using dlc::ref::Expected;
using dlc::ref::Tensor;

FailureOr<DType> dlc::refDTypeOf(Type type) {
  for (DType dtype : ref::kAllDTypes)
    if (mlirTypeOf(type.getContext(), dtype) == type)
      return dtype;
  return failure();
}

Type dlc::mlirTypeOf(MLIRContext *context, DType dtype) {
  Builder b(context);
  switch (dtype) {
  case DType::F32: return b.getF32Type();
  case DType::F16: return b.getF16Type();
  case DType::BF16: return b.getBF16Type();
  case DType::F64: return b.getF64Type();
  case DType::I1: return b.getI1Type();
  case DType::I8: case DType::I16: case DType::I32: case DType::I64:
    return b.getIntegerType(ref::integerBits(dtype));
  case DType::U8: case DType::U16: case DType::U32: case DType::U64:
    return b.getIntegerType(ref::integerBits(dtype), /*isSigned=*/false);
  }
  return nullptr;
}

FailureOr<Tensor> dlc::tensorFromElements(ElementsAttr attr, Location loc) {
  auto type = cast<ShapedType>(attr.getType());
  FailureOr<DType> dtype = refDTypeOf(type.getElementType());
  if (failed(dtype))
    return emitError(loc) << "unsupported constant element type "
                          << type.getElementType();
  Tensor tensor;
  tensor.dtype = *dtype;
  tensor.shape.assign(type.getShape().begin(), type.getShape().end());
  int64_t count = type.getNumElements();
  tensor.data.reserve(count);

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (ref::isFloat(*dtype)) {
      for (const APFloat &v : dense.getValues<APFloat>())
        tensor.data.push_back(v.convertToDouble());
    } else {
      for (const APInt &v : dense.getValues<APInt>())
        tensor.data.push_back(*dtype == DType::I1     ? static_cast<double>(v.getBoolValue())
                              : ref::isUnsigned(*dtype) ? static_cast<double>(v.getZExtValue())
                                                        : static_cast<double>(v.getSExtValue()));
    }
    return tensor;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "constant resource '"
                            << resource.getRawHandle().getKey()
                            << "' has no data (was it elided?)";
    ArrayRef<char> bytes = blob->getData();
    int64_t elementBytes = ref::storageBytes(*dtype);
    if (static_cast<int64_t>(bytes.size()) != count * elementBytes)
      return emitError(loc) << "constant resource '"
                            << resource.getRawHandle().getKey() << "' holds "
                            << bytes.size() << " bytes, expected "
                            << count * elementBytes << " for " << type;
    for (int64_t i = 0; i < count; ++i)
      tensor.data.push_back(ref::decodeElement(*dtype, bytes.data() + i * elementBytes));
    return tensor;
  }
  return emitError(loc) << "unsupported constant attribute kind";
}

static std::string nameFromAttrs(DictionaryAttr attrs, const char *prefix,
                                 unsigned index) {
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>(::dlc::attrs::kName))
      return name.str();
  // State "w": the argument holding it, and "w.next", the result the next
  // run starts from.
  if (auto state = attrs ? attrs.getAs<StringAttr>(::dlc::attrs::kState) : StringAttr())
    return state.str() + (std::string(prefix) == "result" ? ".next" : "");
  return prefix + std::to_string(index);
}

FailureOr<std::optional<Tensor>> dlc::initialState(func::FuncOp func, unsigned index) {
  if (!func.getArgAttr(index, attrs::kState))
    return std::optional<Tensor>();
  if (auto initial = func.getArgAttrOfType<ElementsAttr>(index, attrs::kInitial)) {
    FailureOr<Tensor> tensor = tensorFromElements(initial, func.getLoc());
    if (failed(tensor))
      return failure();
    return std::optional<Tensor>(std::move(*tensor));
  }
  auto type = cast<RankedTensorType>(func.getArgumentTypes()[index]);
  FailureOr<DType> dtype = refDTypeOf(type.getElementType());
  if (failed(dtype))
    return emitError(func.getLoc()) << "unsupported state element type " << type.getElementType();
  return std::optional<Tensor>(Tensor::zeros(*dtype, type.getShape().vec()));
}

std::string dlc::argumentName(func::FuncOp func, unsigned index) {
  return nameFromAttrs(func.getArgAttrDict(index), "arg", index);
}

std::string dlc::resultName(func::FuncOp func, unsigned index) {
  return nameFromAttrs(func.getResultAttrDict(index), "result", index);
}

namespace {
using namespace dlc;

/// Evaluates one op; fills `results` (one per op result) or returns an error
/// message.
class OpEvaluator {
public:
  explicit OpEvaluator(llvm::DenseMap<Value, Tensor> &values) : values(values) {}

  ref::Status evaluate(Operation *op, std::vector<Tensor> &results) {
    auto one = [&](Expected<Tensor> result) -> ref::Status {
      if (!result)
        return result.status();
      results.push_back(std::move(*result));
      return ref::Status::success();
    };
    return llvm::TypeSwitch<Operation *, ref::Status>(op)
        .Case([&](ConstantOp c) -> ref::Status {
          FailureOr<Tensor> t = dlc::tensorFromElements(c.getValue(), c.getLoc());
          if (failed(t))
            return ref::Status::error("cannot read the constant's value");
          results.push_back(std::move(*t));
          return ref::Status::success();
        })
        .Case([&](AddOp o) { return one(ref::add(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](SubOp o) { return one(ref::sub(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](MulOp o) { return one(ref::mul(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](DivOp o) { return one(ref::div(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](RemOp o) { return one(ref::rem(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](ModOp o) { return one(ref::mod(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](ShiftLeftOp o) {
          return one(ref::shift_left(in(o.getLhs()), in(o.getRhs())));
        })
        .Case([&](ShiftRightOp o) {
          return one(ref::shift_right(in(o.getLhs()), in(o.getRhs())));
        })
        .Case([&](PowOp o) { return one(ref::pow(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](MaxOp o) { return one(ref::max(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](MinOp o) { return one(ref::min(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](CompareOp o) {
          return one(ref::compare(o.getPredicate().str(), in(o.getLhs()), in(o.getRhs())));
        })
        .Case([&](SelectOp o) {
          return one(ref::select(in(o.getCondition()), in(o.getTrueValue()),
                                 in(o.getFalseValue())));
        })
        .Case([&](NegOp o) { return one(ref::neg(in(o.getInput()))); })
        .Case([&](AbsOp o) { return one(ref::abs(in(o.getInput()))); })
        .Case([&](ExpOp o) { return one(ref::exp(in(o.getInput()))); })
        .Case([&](LogOp o) { return one(ref::log(in(o.getInput()))); })
        .Case([&](SqrtOp o) { return one(ref::sqrt(in(o.getInput()))); })
        .Case([&](RsqrtOp o) { return one(ref::rsqrt(in(o.getInput()))); })
        .Case([&](TanhOp o) { return one(ref::tanh(in(o.getInput()))); })
        .Case([&](SigmoidOp o) { return one(ref::sigmoid(in(o.getInput()))); })
        .Case([&](ErfOp o) { return one(ref::erf(in(o.getInput()))); })
        .Case<SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp, AcoshOp,
              AtanhOp, CeilOp, FloorOp, RoundOp, SignOp>([&](Operation *o) {
          return one(ref::unaryFunction(o->getName().stripDialect().str(), in(o->getOperand(0))));
        })
        .Case([&](ReluOp o) { return one(ref::relu(in(o.getInput()))); })
        .Case([&](GeluOp o) {
          return one(ref::gelu(in(o.getInput()), o.getTanhApproximation()));
        })
        .Case([&](ClipOp o) {
          return one(ref::clip(in(o.getInput()), o.getMin().convertToDouble(),
                               o.getMax().convertToDouble()));
        })
        .Case([&](MatmulOp o) { return one(ref::matmul(in(o.getLhs()), in(o.getRhs()))); })
        .Case([&](LinearOp o) {
          return one(ref::linear(in(o.getInput()), in(o.getWeight()), optional(o.getBias())));
        })
        .Case([&](Conv2dOp o) {
          return one(ref::conv2d(in(o.getInput()), in(o.getFilter()),
                                 optional(o.getBias()), vec(o.getStrides()),
                                 vec(o.getPads()), vec(o.getDilations()),
                                 o.getGroups()));
        })
        .Case([&](MaxPool2dOp o) {
          return one(ref::max_pool2d(in(o.getInput()), vec(o.getKernelShape()),
                                     vec(o.getStrides()), vec(o.getPads()),
                                     vec(o.getDilations())));
        })
        .Case([&](AvgPool2dOp o) {
          return one(ref::avg_pool2d(in(o.getInput()), vec(o.getKernelShape()),
                                     vec(o.getStrides()), vec(o.getPads()),
                                     o.getCountIncludePad()));
        })
        .Case([&](GlobalAvgPoolOp o) { return one(ref::global_avg_pool(in(o.getInput()))); })
        .Case([&](BatchNormOp o) {
          return one(ref::batch_norm(in(o.getInput()), in(o.getScale()),
                                     in(o.getBias()), in(o.getMean()),
                                     in(o.getVariance()),
                                     o.getEpsilon().convertToDouble()));
        })
        .Case([&](LayerNormOp o) {
          return one(ref::layer_norm(in(o.getInput()), in(o.getScale()),
                                     optional(o.getBias()), o.getAxis(),
                                     o.getEpsilon().convertToDouble()));
        })
        .Case([&](SoftmaxOp o) { return one(ref::softmax(in(o.getInput()), o.getAxis())); })
        .Case([&](ReduceSumOp o) {
          return one(ref::reduce_sum(in(o.getInput()), vec(o.getAxes()), o.getKeepdims()));
        })
        .Case([&](ReduceMeanOp o) {
          return one(ref::reduce_mean(in(o.getInput()), vec(o.getAxes()), o.getKeepdims()));
        })
        .Case([&](ReduceMaxOp o) {
          return one(ref::reduce_max(in(o.getInput()), vec(o.getAxes()), o.getKeepdims()));
        })
        .Case([&](ReduceProdOp o) {
          return one(ref::reduce_prod(in(o.getInput()), vec(o.getAxes()), o.getKeepdims()));
        })
        .Case([&](TransposeOp o) { return one(ref::transpose(in(o.getInput()), vec(o.getPerm()))); })
        .Case([&](ReshapeOp o) {
          return one(ref::reshape(in(o.getInput()), vec(o.getType().getShape())));
        })
        .Case([&](ConcatOp o) {
          std::vector<Tensor> inputs;
          for (Value v : o.getInputs())
            inputs.push_back(in(v));
          return one(ref::concat(inputs, o.getAxis()));
        })
        .Case([&](SliceOp o) {
          return one(ref::slice(in(o.getInput()), vec(o.getStarts()),
                                vec(o.getEnds()), vec(o.getSteps())));
        })
        .Case([&](SplitOp o) -> ref::Status {
          Expected<std::vector<Tensor>> pieces =
              ref::split(in(o.getInput()), o.getAxis(), vec(o.getSizes()));
          if (!pieces)
            return pieces.status();
          results = std::move(*pieces);
          return ref::Status::success();
        })
        .Case([&](GatherOp o) {
          return one(ref::gather(in(o.getData()), in(o.getIndices()), o.getAxis()));
        })
        .Case([&](GatherElementsOp o) {
          return one(ref::gatherElements(in(o.getData()), in(o.getIndices()), o.getAxis()));
        })
        .Case([&](ScatterElementsOp o) {
          return one(ref::scatterElements(in(o.getData()), in(o.getIndices()),
                                          in(o.getUpdates()), o.getAxis(),
                                          o.getReduction().str()));
        })
        .Case([&](TopKOp o) -> ref::Status {
          Expected<std::vector<Tensor>> pair =
              ref::topK(in(o.getInput()), o.getAxis(), o.getK(), o.getLargest());
          if (!pair)
            return pair.status();
          results = std::move(*pair);
          return ref::Status::success();
        })
        .Case([&](CastOp o) -> ref::Status {
          FailureOr<DType> to = dlc::refDTypeOf(o.getType().getElementType());
          if (failed(to))
            return ref::Status::error("unsupported cast target type");
          return one(ref::cast(in(o.getInput()), *to));
        })
        // A copy moves a value between devices: on the host it is the value.
        .Case([&](CopyOp o) { return one(in(o.getInput())); })
        .Case([&](LoopOp o) { return runLoop(o, results); })
        .Default([&](Operation *other) {
          return ref::makeError("the reference interpreter cannot evaluate '",
                                other->getName().getStringRef().str(), "'");
        });
  }

private:
  const Tensor &in(Value v) { return values.find(v)->second; }

  /// Row `i` of a [n, rest...] tensor, as [rest...] (rows are contiguous).
  static Tensor row(const Tensor &t, int64_t i) {
    Tensor r{t.dtype, std::vector<int64_t>(t.shape.begin() + 1, t.shape.end()), {}};
    int64_t size = r.numElements();
    r.data.assign(t.data.begin() + i * size, t.data.begin() + (i + 1) * size);
    return r;
  }

  /// Runs the body once per iteration on its own values (the body is
  /// isolated from above); scan outputs fill their rows at each position.
  ref::Status runLoop(LoopOp loop, std::vector<Tensor> &results) {
    int64_t trips = loop.getStaticTrips() ? *loop.getStaticTrips() : int64_t(in(loop.getCount()).data[0]);
    std::vector<Tensor> carried;
    for (Value v : loop.getCarried())
      carried.push_back(in(v));
    std::vector<Tensor> stacked;
    for (Value r : loop.getScanOutputs()) {
      auto type = cast<RankedTensorType>(r.getType());
      stacked.push_back(Tensor::zeros(*refDTypeOf(type.getElementType()), vec(type.getShape())));
    }
    Block &body = loop.getBody().front();
    for (int64_t i = 0; i < trips; ++i) {
      int64_t position = loop.getReverse() ? trips - 1 - i : i;
      llvm::DenseMap<Value, Tensor> local;
      local[loop.getPositionArg()] = Tensor::fromValues(DType::I64, {1}, {double(position)});
      for (auto [arg, value] : llvm::zip(loop.getCarriedArgs(), carried))
        local[arg] = value;
      for (auto [arg, scan] : llvm::zip(loop.getScanArgs(), loop.getScans()))
        local[arg] = row(in(scan), position);
      for (auto [arg, invariant] : llvm::zip(loop.getInvariantArgs(), loop.getInvariants()))
        local[arg] = in(invariant);
      OpEvaluator inner(local);
      for (Operation &op : body.without_terminator()) {
        std::vector<Tensor> opResults;
        ref::Status status = inner.evaluate(&op, opResults);
        if (!status.ok())
          return status;
        for (auto [result, tensor] : llvm::zip(op.getResults(), opResults))
          local[result] = std::move(tensor);
      }
      ValueRange yielded = loop.getYield().getValues();
      for (size_t k = 0; k < carried.size(); ++k)
        carried[k] = local.find(yielded[k])->second;
      for (size_t k = 0; k < stacked.size(); ++k) {
        const Tensor &slice = local.find(yielded[carried.size() + k])->second;
        std::copy(slice.data.begin(), slice.data.end(),
                  stacked[k].data.begin() + position * int64_t(slice.data.size()));
      }
    }
    for (Tensor &t : carried)
      results.push_back(std::move(t));
    for (Tensor &t : stacked)
      results.push_back(std::move(t));
    return ref::Status::success();
  }
  const Tensor *optional(Value v) { return v ? &in(v) : nullptr; }
  static std::vector<int64_t> vec(ArrayRef<int64_t> a) { return {a.begin(), a.end()}; }

  llvm::DenseMap<Value, Tensor> &values;
};
} // namespace

ref::Expected<std::vector<Tensor>>
dlc::evaluateOp(Operation *op, const std::vector<Tensor> &operands) {
  if (operands.size() != op->getNumOperands())
    return ref::makeError("evaluateOp: ", op->getNumOperands(), " operands, got ",
                          operands.size());
  llvm::DenseMap<Value, Tensor> values;
  for (auto [value, tensor] : llvm::zip(op->getOperands(), operands))
    values[value] = tensor;
  std::vector<Tensor> results;
  OpEvaluator evaluator(values);
  ref::Status status = evaluator.evaluate(op, results);
  if (!status.ok())
    return status;
  return results;
}

static std::string describe(const Tensor &t) {
  return std::string(ref::dtypeName(t.dtype)) + " " + ref::shapeToString(t.shape);
}

// Evaluates `op` on `values`, checks its results against its types and
// adds them to `values`.
static LogicalResult evaluateInto(Operation &op, llvm::DenseMap<Value, Tensor> &values,
                                  const OpResultsCallback &onOp) {
  std::vector<Tensor> results;
  OpEvaluator evaluator(values);
  ref::Status status = evaluator.evaluate(&op, results);
  if (!status.ok())
    return op.emitError() << "reference interpreter: " << status.message();
  if (results.size() != op.getNumResults())
    return op.emitError() << "reference interpreter: produced "
                          << results.size() << " results, expected "
                          << op.getNumResults();
  // The kernels must agree with the verifier on every result type.
  for (auto [result, tensor] : llvm::zip(op.getResults(), results)) {
    auto type = cast<RankedTensorType>(result.getType());
    FailureOr<DType> dtype = refDTypeOf(type.getElementType());
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    if (failed(dtype) || tensor.dtype != *dtype || tensor.shape != shape)
      return op.emitError() << "reference interpreter: computed "
                            << describe(tensor) << " for result type "
                            << result.getType();
  }
  if (onOp)
    onOp(&op, results);
  for (auto [result, tensor] : llvm::zip(op.getResults(), results))
    values[result] = std::move(tensor);
  return success();
}

FailureOr<std::vector<Tensor>>
dlc::interpretFunction(func::FuncOp func, const std::vector<Tensor> &inputs,
                       const OpResultsCallback &onOp) {
  if (func.isExternal())
    return func.emitError() << "cannot interpret the declaration @"
                            << func.getSymName() << ": it has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "the reference interpreter expects a function "
                               "with one block";
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments())
    return func.emitError() << "@" << func.getSymName() << " takes "
                            << body.getNumArguments() << " inputs, got "
                            << inputs.size();

  llvm::DenseMap<Value, Tensor> values;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    FailureOr<DType> dtype =
        type ? refDTypeOf(type.getElementType()) : FailureOr<DType>(failure());
    if (failed(dtype))
      return func.emitError() << "argument " << i << " has type " << arg.getType()
                              << ", which the interpreter does not support";
    const Tensor &input = inputs[i];
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    if (input.dtype != *dtype || input.shape != shape)
      return func.emitError()
             << "input '" << argumentName(func, i) << "' expects "
             << ref::dtypeName(*dtype) << " " << ref::shapeToString(shape)
             << ", got " << describe(input);
    values[arg] = input;
  }

  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<Tensor> outputs;
      for (Value v : ret.getOperands())
        outputs.push_back(values.find(v)->second);
      return outputs;
    }
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      // A kernel's ops in their order, then its results are what it yields.
      for (Operation &inner : kernel.getComputeOps())
        if (failed(evaluateInto(inner, values, onOp)))
          return failure();
      for (auto [result, yielded] : llvm::zip(kernel.getResults(), kernel.getYield().getValues()))
        values[result] = values.find(yielded)->second;
      continue;
    }
    if (failed(evaluateInto(op, values, onOp)))
      return failure();
  }
  return func.emitError() << "function @" << func.getSymName()
                          << " has no return";
}
