//===- DlcOps.cpp - verifiers, folders and printers of the dlc ops --------===//
//
// Verifiers check what ODS cannot: shapes and attribute values. Messages are
// lowercase and say expected versus actual. Shape rules come from DlcShapes.
//
//===----------------------------------------------------------------------===//

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace dlc;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

static LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                       Value result) {
  ArrayRef<int64_t> actual = shapeOf(result);
  if (actual != expected)
    return op->emitOpError() << "result shape " << formatShape(actual)
                             << " does not match the expected "
                             << formatShape(expected);
  return success();
}

static LogicalResult verifyArraySize(Operation *op, StringRef name,
                                     ArrayRef<int64_t> values, size_t size) {
  if (values.size() != size)
    return op->emitOpError() << "expects " << size << " '" << name
                             << "' values, got " << values.size();
  return success();
}

static LogicalResult verifyAllAtLeast(Operation *op, StringRef name,
                                      ArrayRef<int64_t> values, int64_t min) {
  for (auto [i, v] : llvm::enumerate(values))
    if (v < min)
      return op->emitOpError() << "expects every '" << name << "' value >= "
                               << min << ", got " << v << " at position " << i;
  return success();
}

static LogicalResult verifyRank(Operation *op, StringRef what, Value value,
                                int64_t rank) {
  int64_t actual = shapeOf(value).size();
  if (actual != rank)
    return op->emitOpError() << "expects " << what << " of rank " << rank
                             << ", got rank " << actual;
  return success();
}

/// The optional bias of linear, conv2d and layer_norm is outside their
/// AllElementTypesMatch (ODS cannot name an absent operand): check it here.
static LogicalResult verifyBiasElementType(Operation *op, Value input,
                                           Value bias) {
  Type expected = cast<RankedTensorType>(input.getType()).getElementType();
  Type actual = cast<RankedTensorType>(bias.getType()).getElementType();
  if (actual != expected)
    return op->emitOpError() << "expects a bias of element type " << expected
                             << " (the input's), got " << actual;
  return success();
}

/// Folds only merge ops pinned alike: a fold must not drop a user's pin.
static bool sameDevice(Operation *a, Operation *b) {
  return getDevicePin(a) == getDevicePin(b);
}

//===----------------------------------------------------------------------===//
// custom<BroadcastTypes>: `T` when all three types agree, else `(A, B) -> C`.
//===----------------------------------------------------------------------===//

static ParseResult parseBroadcastTypes(OpAsmParser &parser, Type &lhs,
                                       Type &rhs, Type &result) {
  if (succeeded(parser.parseOptionalLParen())) {
    return failure(parser.parseType(lhs) || parser.parseComma() ||
                   parser.parseType(rhs) || parser.parseRParen() ||
                   parser.parseArrow() || parser.parseType(result));
  }
  if (parser.parseType(lhs))
    return failure();
  rhs = result = lhs;
  return success();
}

static void printBroadcastTypes(OpAsmPrinter &printer, Operation *, Type lhs,
                                Type rhs, Type result) {
  if (lhs == rhs && rhs == result) {
    printer << lhs;
    return;
  }
  printer << '(' << lhs << ", " << rhs << ") -> " << result;
}

//===----------------------------------------------------------------------===//
// custom<DeviceKeyword>: `cpu` or `cuda:N`, as in `dlc.copy %x to cuda:1`.
//===----------------------------------------------------------------------===//

static ParseResult parseDeviceKeyword(OpAsmParser &parser, DeviceAttr &device) {
  device = parseDeviceBody(parser);
  return success(static_cast<bool>(device));
}

static void printDeviceKeyword(OpAsmPrinter &printer, Operation *,
                               DeviceAttr device) {
  printer << device.str();
}

#define GET_OP_CLASSES
#include "dialects/dlc/DlcOps.cpp.inc"

//===----------------------------------------------------------------------===//
// kernel
//===----------------------------------------------------------------------===//

YieldOp KernelOp::getYield() { return cast<YieldOp>(getBody().front().getTerminator()); }

// One device for every op of the body; the yield makes the results; no
// copies (a copy step runs between kernels) and no kernel in a kernel.
LogicalResult KernelOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 0)
    return emitOpError() << "body takes no arguments (it reads values from above)";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "body must end with dlc.yield";
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().getTypes().size()
                         << " values whose types differ from its results";
  auto cpuIfNull = [&](DeviceAttr d) { return d ? d : DeviceAttr::getCpu(getContext()); };
  DeviceAttr device = cpuIfNull(getDeviceAttr());
  for (Operation &op : getComputeOps()) {
    if (isa<KernelOp, CopyOp>(op) || !isa<DlcDialect>(op.getDialect()))
      return op.emitOpError() << "cannot be inside a dlc.kernel (a kernel holds dlc compute ops)";
    if (cpuIfNull(getDevicePin(&op)) != device)
      return op.emitOpError() << "runs on " << cpuIfNull(getDevicePin(&op)).str()
                              << " inside a kernel on " << device.str();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// loop
//===----------------------------------------------------------------------===//

YieldOp LoopOp::getYield() { return cast<YieldOp>(getBody().front().getTerminator()); }

RankedTensorType LoopOp::rowType(RankedTensorType t) {
  return RankedTensorType::get(t.getShape().drop_front(), t.getElementType());
}

RankedTensorType LoopOp::stackedType(RankedTensorType row, int64_t n) {
  SmallVector<int64_t> shape{n};
  llvm::append_range(shape, row.getShape());
  return RankedTensorType::get(shape, row.getElementType());
}

LogicalResult LoopOp::verify() {
  if (bool(getCount()) == getStaticTrips().has_value())
    return emitOpError() << "takes a trip count as either the `count` operand or the `trips` "
                            "attribute, not both or neither";
  if (getStaticTrips() && *getStaticTrips() < 0)
    return emitOpError() << "trips must be 0 or more, not " << *getStaticTrips();
  if (Value count = getCount()) {
    auto type = cast<RankedTensorType>(count.getType());
    if (!type.getElementType().isSignlessInteger() || !type.hasStaticShape() ||
        type.getNumElements() != 1 || type.getElementType().isInteger(1))
      return emitOpError() << "count must be one integer, not " << type;
  }
  for (Type t : getOperation()->getOperandTypes())
    if (!cast<RankedTensorType>(t).hasStaticShape())
      return emitOpError() << "needs static shapes, not " << t;
  int64_t scanOutputs = int64_t(getResults().size()) - int64_t(getCarried().size());
  if (scanOutputs < 0)
    return emitOpError() << "has fewer results than carried values";
  if ((!getScans().empty() || scanOutputs > 0) && !getStaticTrips())
    return emitOpError() << "scans need a `trips` attribute (a count known only at run time "
                            "would size the scanned dims at run time)";
  Block &body = getBody().front();
  auto position = RankedTensorType::get({1}, IntegerType::get(getContext(), 64));
  SmallVector<Type> expected{position};
  llvm::append_range(expected, getCarried().getTypes());
  for (Value scan : getScans()) {
    auto type = cast<RankedTensorType>(scan.getType());
    if (type.getRank() == 0 || type.getDimSize(0) != *getStaticTrips())
      return emitOpError() << "scan input " << type << " must have " << *getStaticTrips()
                           << " rows, one per iteration";
    expected.push_back(rowType(type));
  }
  llvm::append_range(expected, getInvariants().getTypes());
  if (body.getArgumentTypes() != ArrayRef<Type>(expected))
    return emitOpError() << "body must take the position (tensor<1xi64>), the carried values, "
                            "one row per scan input (its type less dim 0) and the invariants, in that order";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "body must end with dlc.yield";
  if (yield.getValues().size() != getResults().size())
    return emitOpError() << "body yields " << yield.getValues().size() << " values for "
                         << getResults().size() << " results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yield.getValues(), getResults()))) {
    auto [yielded, result] = pair;
    auto yt = cast<RankedTensorType>(yielded.getType());
    auto rt = cast<RankedTensorType>(result.getType());
    bool carried = i < getCarried().size();
    if (carried && (yt != getCarried()[i].getType() || rt != yt))
      return emitOpError() << "carried value " << i << " is " << getCarried()[i].getType()
                           << " but the body yields " << yt << " and the result is " << rt;
    if (!carried && rt != stackedType(yt, *getStaticTrips()))
      return emitOpError() << "scan output " << (i - getCarried().size()) << " yields rows "
                           << yt << ", stacked as " << stackedType(yt, *getStaticTrips())
                           << ", not " << rt;
  }
  for (Operation &op : body.without_terminator())
    if (!isa<DlcDialect>(op.getDialect()) || isa<KernelOp, CopyOp>(op))
      return op.emitOpError() << "cannot be inside a dlc.loop (a loop's body holds dlc compute ops)";
  return success();
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static LogicalResult verifyBroadcastOp(Operation *op) {
  auto emit = [&] { return op->emitOpError(); };
  FailureOr<Shape> shape = broadcastShapes(shapeOf(op->getOperand(0)),
                                           shapeOf(op->getOperand(1)), emit);
  if (failed(shape))
    return failure();
  return verifyResultShape(op, *shape, op->getResult(0));
}

LogicalResult AddOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult SubOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult MulOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult DivOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult RemOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult ModOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult ShiftLeftOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult ShiftRightOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult PowOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult MaxOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult MinOp::verify() { return verifyBroadcastOp(*this); }

LogicalResult CompareOp::verify() {
  StringRef p = getPredicate();
  if (!llvm::is_contained({"eq", "ne", "lt", "le", "gt", "ge"}, p))
    return emitOpError() << "expects predicate eq, ne, lt, le, gt or ge, got '" << p << "'";
  return verifyBroadcastOp(*this);
}

LogicalResult SelectOp::verify() {
  auto emit = [&] { return emitOpError(); };
  FailureOr<Shape> shape = broadcastShapes(shapeOf(getCondition()),
                                           shapeOf(getTrueValue()), emit);
  if (failed(shape))
    return failure();
  shape = broadcastShapes(*shape, shapeOf(getFalseValue()), emit);
  if (failed(shape))
    return failure();
  return verifyResultShape(*this, *shape, getResult());
}

LogicalResult ClipOp::verify() {
  if (getMin().convertToDouble() > getMax().convertToDouble())
    return emitOpError() << "expects min <= max, got min "
                         << getMin().convertToDouble() << " and max "
                         << getMax().convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// Products are summed in f32 (the one accumulator the interpreter and the
/// lowerings implement), for float operands only.
static LogicalResult verifyAccumulator(Operation *op, Value operand,
                                       std::optional<Type> accumulator) {
  if (!accumulator)
    return success();
  Type element = cast<RankedTensorType>(operand.getType()).getElementType();
  if (!isa<FloatType>(element))
    return op->emitOpError() << "expects an accumulator only for float operands, got "
                             << element << " operands";
  if (!accumulator->isF32())
    return op->emitOpError() << "expects an f32 accumulator, got " << *accumulator;
  return success();
}

LogicalResult MatmulOp::verify() {
  if (failed(verifyAccumulator(*this, getLhs(), getAccumulator())))
    return failure();
  auto emit = [&] { return emitOpError(); };
  FailureOr<Shape> shape = matmulShape(shapeOf(getLhs()), shapeOf(getRhs()), emit);
  if (failed(shape))
    return failure();
  return verifyResultShape(*this, *shape, getResult());
}

LogicalResult LinearOp::verify() {
  if (failed(verifyAccumulator(*this, getInput(), getAccumulator())))
    return failure();
  ArrayRef<int64_t> input = shapeOf(getInput()), weight = shapeOf(getWeight());
  if (failed(verifyRank(*this, "weight", getWeight(), 2)))
    return failure();
  if (input.empty())
    return emitOpError() << "expects an input of rank 1 or more, got a scalar";
  if (input.back() != weight[1])
    return emitOpError() << "expects the input's last dimension (" << input.back()
                         << ") to equal the weight's dimension 1 (" << weight[1]
                         << "): weight is [out_features, in_features]";
  if (Value bias = getBias()) {
    if (failed(verifyBiasElementType(*this, getInput(), bias)))
      return failure();
    if (shapeOf(bias) != ArrayRef<int64_t>{weight[0]})
      return emitOpError() << "expects a bias of shape " << weight[0]
                           << ", got " << formatShape(shapeOf(bias));
  }
  Shape expected(input.drop_back());
  expected.push_back(weight[0]);
  return verifyResultShape(*this, expected, getResult());
}

LogicalResult Conv2dOp::verify() {
  if (failed(verifyAccumulator(*this, getInput(), getAccumulator())))
    return failure();
  if (failed(verifyRank(*this, "an NCHW input", getInput(), 4)) ||
      failed(verifyRank(*this, "an OIHW filter", getFilter(), 4)) ||
      failed(verifyArraySize(*this, "strides", getStrides(), 2)) ||
      failed(verifyArraySize(*this, "pads", getPads(), 4)) ||
      failed(verifyArraySize(*this, "dilations", getDilations(), 2)) ||
      failed(verifyAllAtLeast(*this, "strides", getStrides(), 1)) ||
      failed(verifyAllAtLeast(*this, "pads", getPads(), 0)) ||
      failed(verifyAllAtLeast(*this, "dilations", getDilations(), 1)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getInput()), w = shapeOf(getFilter());
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError() << "expects groups >= 1, got " << groups;
  if (x[1] % groups != 0 || w[0] % groups != 0)
    return emitOpError() << "expects input channels (" << x[1]
                         << ") and output channels (" << w[0]
                         << ") divisible by groups (" << groups << ")";
  if (w[1] != x[1] / groups)
    return emitOpError() << "expects filter dimension 1 to be input channels / "
                            "groups = "
                         << x[1] / groups << ", got " << w[1];
  if (Value bias = getBias()) {
    if (failed(verifyBiasElementType(*this, getInput(), bias)))
      return failure();
    if (shapeOf(bias) != ArrayRef<int64_t>{w[0]})
      return emitOpError() << "expects a bias of shape " << w[0] << ", got "
                           << formatShape(shapeOf(bias));
  }
  auto emit = [&] { return emitOpError(); };
  ArrayRef<int64_t> s = getStrides(), p = getPads(), d = getDilations();
  FailureOr<int64_t> oh = windowOutputSize(x[2], w[2], s[0], p[0], p[2], d[0],
                                           "height", emit);
  if (failed(oh))
    return failure();
  FailureOr<int64_t> ow = windowOutputSize(x[3], w[3], s[1], p[1], p[3], d[1],
                                           "width", emit);
  if (failed(ow))
    return failure();
  return verifyResultShape(*this, {x[0], w[0], *oh, *ow}, getResult());
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

static LogicalResult verifyPool(Operation *op, Value input, Value result,
                                ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> pads,
                                ArrayRef<int64_t> dilations) {
  if (failed(verifyRank(op, "an NCHW input", input, 4)) ||
      failed(verifyArraySize(op, "kernel_shape", kernel, 2)) ||
      failed(verifyArraySize(op, "strides", strides, 2)) ||
      failed(verifyArraySize(op, "pads", pads, 4)) ||
      failed(verifyArraySize(op, "dilations", dilations, 2)) ||
      failed(verifyAllAtLeast(op, "kernel_shape", kernel, 1)) ||
      failed(verifyAllAtLeast(op, "strides", strides, 1)) ||
      failed(verifyAllAtLeast(op, "pads", pads, 0)) ||
      failed(verifyAllAtLeast(op, "dilations", dilations, 1)))
    return failure();
  // A window made only of padding has no value to pool.
  for (int i = 0; i < 4; ++i) {
    int64_t span = dilations[i % 2] * (kernel[i % 2] - 1) + 1;
    if (pads[i] >= span)
      return op->emitOpError() << "expects each pad to be smaller than the "
                                  "window, got pad "
                               << pads[i] << " for a window of " << span;
  }
  ArrayRef<int64_t> x = shapeOf(input);
  auto emit = [&] { return op->emitOpError(); };
  FailureOr<int64_t> oh = windowOutputSize(x[2], kernel[0], strides[0], pads[0],
                                           pads[2], dilations[0], "height", emit);
  if (failed(oh))
    return failure();
  FailureOr<int64_t> ow = windowOutputSize(x[3], kernel[1], strides[1], pads[1],
                                           pads[3], dilations[1], "width", emit);
  if (failed(ow))
    return failure();
  return verifyResultShape(op, {x[0], x[1], *oh, *ow}, result);
}

LogicalResult MaxPool2dOp::verify() {
  return verifyPool(*this, getInput(), getResult(), getKernelShape(),
                    getStrides(), getPads(), getDilations());
}

LogicalResult AvgPool2dOp::verify() {
  static const int64_t noDilation[] = {1, 1};
  return verifyPool(*this, getInput(), getResult(), getKernelShape(),
                    getStrides(), getPads(), noDilation);
}

LogicalResult GlobalAvgPoolOp::verify() {
  if (failed(verifyRank(*this, "an NCHW input", getInput(), 4)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getInput());
  return verifyResultShape(*this, {x[0], x[1], 1, 1}, getResult());
}

//===----------------------------------------------------------------------===//
// Normalisation and softmax
//===----------------------------------------------------------------------===//

static LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  double value = epsilon.convertToDouble();
  if (!(value >= 0))
    return op->emitOpError() << "expects epsilon >= 0, got " << value;
  return success();
}

LogicalResult BatchNormOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getInput());
  if (x.size() < 2)
    return emitOpError() << "expects an input of rank 2 or more (channels on "
                            "axis 1), got rank "
                         << x.size();
  std::pair<StringRef, Value> params[] = {{"scale", getScale()},
                                          {"bias", getBias()},
                                          {"mean", getMean()},
                                          {"variance", getVariance()}};
  for (auto [name, value] : params)
    if (shapeOf(value) != ArrayRef<int64_t>{x[1]})
      return emitOpError() << "expects " << name << " of shape " << x[1]
                           << " (the channel count), got "
                           << formatShape(shapeOf(value));
  return verifyEpsilon(*this, getEpsilonAttr().getValue());
}

LogicalResult LayerNormOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getInput());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), x.size(), emit);
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> normalized = x.drop_front(*axis);
  if (shapeOf(getScale()) != normalized)
    return emitOpError() << "expects scale of shape " << formatShape(normalized)
                         << " (the normalized dimensions), got "
                         << formatShape(shapeOf(getScale()));
  if (Value bias = getBias()) {
    if (failed(verifyBiasElementType(*this, getInput(), bias)))
      return failure();
    if (shapeOf(bias) != normalized)
      return emitOpError() << "expects bias of shape " << formatShape(normalized)
                           << " (the normalized dimensions), got "
                           << formatShape(shapeOf(bias));
  }
  return verifyEpsilon(*this, getEpsilonAttr().getValue());
}

LogicalResult SoftmaxOp::verify() {
  auto emit = [&] { return emitOpError(); };
  return normalizeAxis(getAxis(), shapeOf(getInput()).size(), emit);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult verifyReduce(Operation *op, Value input, Value result,
                                  ArrayRef<int64_t> axes, bool keepdims) {
  auto emit = [&] { return op->emitOpError(); };
  FailureOr<Shape> shape = reduceShape(shapeOf(input), axes, keepdims, emit);
  if (failed(shape))
    return failure();
  return verifyResultShape(op, *shape, result);
}

LogicalResult ReduceSumOp::verify() {
  return verifyReduce(*this, getInput(), getResult(), getAxes(), getKeepdims());
}
LogicalResult ReduceMeanOp::verify() {
  return verifyReduce(*this, getInput(), getResult(), getAxes(), getKeepdims());
}
LogicalResult ReduceMaxOp::verify() {
  return verifyReduce(*this, getInput(), getResult(), getAxes(), getKeepdims());
}
LogicalResult ReduceProdOp::verify() {
  return verifyReduce(*this, getInput(), getResult(), getAxes(), getKeepdims());
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getInput());
  ArrayRef<int64_t> perm = getPerm();
  if (failed(verifyArraySize(*this, "perm", perm, x.size())))
    return failure();
  llvm::SmallVector<bool> seen(x.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(x.size()) || seen[p])
      return emitOpError() << "expects 'perm' to be a permutation of 0.."
                           << static_cast<int64_t>(x.size()) - 1 << ", got ["
                           << perm << "]";
    seen[p] = true;
  }
  Shape expected;
  for (int64_t p : perm)
    expected.push_back(x[p]);
  return verifyResultShape(*this, expected, getResult());
}

static bool isIdentityPermutation(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (isIdentityPermutation(getPerm()))
    return getInput();
  return {};
}

namespace {
/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2): one data movement.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<TransposeOp>();
    if (!inner || !sameDevice(inner, outer))
      return failure();
    ArrayRef<int64_t> innerPerm = inner.getPerm(), outerPerm = outer.getPerm();
    llvm::SmallVector<int64_t> composed;
    for (int64_t p : outerPerm)
      composed.push_back(innerPerm[p]);
    rewriter.modifyOpInPlace(outer, [&] {
      outer.getInputMutable().assign(inner.getInput());
      outer.setPerm(composed);
    });
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<ComposeTransposes>(context);
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << formatShape(in.getShape())
                         << " (" << in.getNumElements() << " elements) to "
                         << formatShape(out.getShape()) << " ("
                         << out.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // A reshape of a dense constant is a constant of the new shape. The folded
  // constant is materialized unpinned, so only unpinned ops fold: a pin on
  // either the constant or the reshape must not be dropped.
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput())) {
    Operation *def = getInput().getDefiningOp();
    if (!getDevicePin(*this) && def && !getDevicePin(def))
      return dense.reshape(getType());
  }
  // reshape(reshape(x)) -> reshape(x)
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    if (sameDevice(inner, *this)) {
      getInputMutable().assign(inner.getInput());
      return getResult();
    }
  }
  return {};
}

LogicalResult ConcatOp::verify() {
  // SameOperandsAndResultElementType already requires one input or more.
  OperandRange inputs = getInputs();
  ArrayRef<int64_t> first = shapeOf(inputs[0]);
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), first.size(), emit);
  if (failed(axis))
    return failure();
  Shape expected(first);
  expected[*axis] = 0;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    ArrayRef<int64_t> shape = shapeOf(input);
    if (shape.size() != first.size())
      return emitOpError() << "expects inputs of one rank, input 0 has rank "
                           << first.size() << " and input " << i << " has rank "
                           << shape.size();
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != *axis && shape[d] != first[d])
        return emitOpError() << "expects inputs to agree on dimension " << d
                             << " (not the concat axis): input 0 has "
                             << first[d] << ", input " << i << " has "
                             << shape[d];
    expected[*axis] += shape[*axis];
  }
  return verifyResultShape(*this, expected, getResult());
}

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getInput());
  ArrayRef<int64_t> starts = getStarts(), ends = getEnds(), steps = getSteps();
  if (failed(verifyArraySize(*this, "starts", starts, x.size())) ||
      failed(verifyArraySize(*this, "ends", ends, x.size())) ||
      failed(verifyArraySize(*this, "steps", steps, x.size())) ||
      failed(verifyAllAtLeast(*this, "steps", steps, 1)))
    return failure();
  Shape expected;
  for (size_t d = 0; d < x.size(); ++d) {
    if (starts[d] < 0 || starts[d] > ends[d] || ends[d] > x[d])
      return emitOpError() << "expects 0 <= start <= end <= " << x[d]
                           << " in dimension " << d << ", got start "
                           << starts[d] << " and end " << ends[d];
    expected.push_back((ends[d] - starts[d] + steps[d] - 1) / steps[d]);
  }
  return verifyResultShape(*this, expected, getResult());
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getInput());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), x.size(), emit);
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> sizes = getSizes();
  if (sizes.size() != getNumResults())
    return emitOpError() << "expects one size per result: " << getNumResults()
                         << " results, " << sizes.size() << " sizes";
  if (failed(verifyAllAtLeast(*this, "sizes", sizes, 1)))
    return failure();
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  if (total != x[*axis])
    return emitOpError() << "expects sizes to sum to dimension " << *axis
                         << " of the input (" << x[*axis] << "), got " << total;
  Type elementType = cast<RankedTensorType>(getInput().getType()).getElementType();
  for (auto [i, result] : llvm::enumerate(getResults())) {
    if (cast<RankedTensorType>(result.getType()).getElementType() != elementType)
      return emitOpError() << "expects result " << i
                           << " to have the input's element type";
    Shape expected(x);
    expected[*axis] = sizes[i];
    if (failed(verifyResultShape(*this, expected, result)))
      return failure();
  }
  return success();
}

LogicalResult GatherOp::verify() {
  ArrayRef<int64_t> data = shapeOf(getData()), indices = shapeOf(getIndices());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), data.size(), emit);
  if (failed(axis))
    return failure();
  Shape expected(data.take_front(*axis));
  expected.append(indices.begin(), indices.end());
  expected.append(data.begin() + *axis + 1, data.end());
  return verifyResultShape(*this, expected, getResult());
}

LogicalResult GatherElementsOp::verify() {
  ArrayRef<int64_t> data = shapeOf(getData()), indices = shapeOf(getIndices());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), data.size(), emit);
  if (failed(axis))
    return failure();
  if (indices.size() != data.size())
    return emitOpError() << "indices of rank " << indices.size() << " for data of rank "
                         << data.size() << " (they must be equal)";
  for (size_t d = 0; d < data.size(); ++d)
    if (int64_t(d) != *axis && indices[d] > data[d])
      return emitOpError() << "indices dimension " << d << " (" << indices[d]
                           << ") is larger than the data's (" << data[d] << ")";
  return verifyResultShape(*this, Shape(indices.begin(), indices.end()), getResult());
}

LogicalResult ScatterElementsOp::verify() {
  ArrayRef<int64_t> data = shapeOf(getData()), indices = shapeOf(getIndices()),
                    updates = shapeOf(getUpdates());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), data.size(), emit);
  if (failed(axis))
    return failure();
  StringRef reduction = getReduction();
  if (!isScatterReduction(reduction))
    return emitOpError() << "expects reduction none, add, mul, max or min, got '" << reduction
                         << "'";
  if (reduction != "none" && getElementTypeOrSelf(getData().getType()).isInteger(1))
    return emitOpError() << "reduction '" << reduction << "' on i1 (only none)";
  if (updates.size() != data.size())
    return emitOpError() << "updates of rank " << updates.size() << " for data of rank "
                         << data.size() << " (they must be equal)";
  if (indices.size() != updates.size())
    return emitOpError() << "indices of rank " << indices.size() << " for updates of rank "
                         << updates.size() << " (they must be equal)";
  for (size_t d = 0; d < data.size(); ++d) {
    if (indices[d] != updates[d] && indices[d] != 1)
      return emitOpError() << "indices dimension " << d << " (" << indices[d]
                           << ") is neither the updates' (" << updates[d] << ") nor 1";
    if (int64_t(d) != *axis && updates[d] > data[d])
      return emitOpError() << "updates dimension " << d << " (" << updates[d]
                           << ") is larger than the data's (" << data[d] << ")";
  }
  return success();
}

LogicalResult TopKOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  auto emit = [&] { return emitOpError(); };
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), input.size(), emit);
  if (failed(axis))
    return failure();
  int64_t k = static_cast<int64_t>(getK());
  if (k < 1 || k > input[*axis])
    return emitOpError() << "k = " << k << " outside [1, " << input[*axis] << "] (axis " << *axis
                         << ")";
  Shape expected(input.begin(), input.end());
  expected[*axis] = k;
  if (failed(verifyResultShape(*this, expected, getValues())))
    return failure();
  return verifyResultShape(*this, expected, getIndices());
}

// Placement may route an index input through copies (to a GPU) or slices
// (data-parallel batch shards) before its gather: ops that only move values
// are looked through, so the bound does not depend on where the gather runs.
int64_t dlc::gatherIndexBound(Value value) {
  int64_t bound = 0;
  for (Operation *user : value.getUsers()) {
    int64_t userBound = 0;
    if (auto gather = dyn_cast<GatherOp>(user)) {
      if (gather.getIndices() != value)
        continue;
      ArrayRef<int64_t> data = shapeOf(gather.getData());
      int64_t axis = gather.getAxis() < 0 ? gather.getAxis() + data.size()
                                          : gather.getAxis();
      userBound = data[axis];
    } else if (auto gather = dyn_cast<GatherElementsOp>(user)) {
      if (gather.getIndices() != value)
        continue;
      ArrayRef<int64_t> data = shapeOf(gather.getData());
      userBound = data[gather.getAxis() < 0 ? gather.getAxis() + data.size() : gather.getAxis()];
    } else if (auto scatter = dyn_cast<ScatterElementsOp>(user)) {
      if (scatter.getIndices() != value)
        continue;
      ArrayRef<int64_t> data = shapeOf(scatter.getData());
      userBound = data[scatter.getAxis() < 0 ? scatter.getAxis() + data.size() : scatter.getAxis()];
    } else if (isa<CopyOp, ReshapeOp, SliceOp, TransposeOp>(user)) {
      userBound = gatherIndexBound(user->getResult(0));
    }
    if (userBound > 0)
      bound = bound == 0 ? userBound : std::min(bound, userBound);
  }
  return bound;
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
