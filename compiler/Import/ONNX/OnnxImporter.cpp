//===- OnnxImporter.cpp - reads a ModelProto, walks its graph -------------===//
//
// ModelProto (protobuf, libonnx) -> func.func @main:
//   graph inputs (not initializers, not --bind)  -> arguments {dlc.name}
//   initializers, Constant nodes, --bind values  -> dlc.constant (large ones
//                                                   as dense_resource blobs)
//   nodes, in file order (ONNX requires it)      -> OnnxOps.cpp, one per op type
//   graph outputs                                -> results {dlc.name}
// Ops whose operands are all known are folded as they are built; ops left
// without users (the folded shape arithmetic) are erased at the end.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxImporter.h"
#include "compiler/Import/ONNX/GraphImporter.h"

#include "Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <set>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {
/// Initializers up to this many elements are inline dense<...> (readable,
/// and the raising patterns see small constants such as epsilons); larger
/// ones are dense_resource blobs.
constexpr int64_t kMaxInlineElements = 64;
/// The newest default-domain opset the importer reads (see importModel).
constexpr int64_t kMaxOpset = 28;

int64_t storageBytes(Type t) {
  if (t.isInteger(1))
    return 1;
  return t.getIntOrFloatBitWidth() / 8;
}
} // namespace

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

Type dlc::onnx_import::elementTypeOf(MLIRContext *context, int32_t onnxType) {
  Builder b(context);
  switch (onnxType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto::INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto::UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case onnx::TensorProto::UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case onnx::TensorProto::UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case onnx::TensorProto::UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  default:
    return nullptr;
  }
}

const char *dlc::onnx_import::onnxTypeName(int32_t onnxType) {
  if (onnx::TensorProto::DataType_IsValid(onnxType))
    return onnx::TensorProto::DataType_Name(onnxType).c_str();
  return "unknown";
}

/// Writes the low `width` bytes of each of `values` (a TensorProto's typed
/// field, little-endian) to `out` when it holds `count` of them; returns how
/// many it holds.
template <typename Field>
static int64_t storeEach(const Field &values, int64_t count, int64_t width, char *out) {
  if (values.size() == count)
    for (int64_t i = 0; i < count; ++i) {
      auto v = values.Get(i);
      std::memcpy(out + i * width, &v, width);
    }
  return values.size();
}

/// The little-endian bytes of `proto` in dlc's storage of its type (i1: one
/// byte per element); nullopt with `error` set otherwise.
static std::optional<std::string> protoBytes(const onnx::TensorProto &proto,
                                             Type element, int64_t count,
                                             std::string &error) {
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    error = "tensor '" + proto.name() + "' keeps its data in an external file, "
            "which dlc does not read (save the model with its data inside)";
    return std::nullopt;
  }
  int64_t width = storageBytes(element);
  std::string bytes;
  if (proto.has_raw_data()) {
    bytes = proto.raw_data();
  } else {
    bytes.resize(count * width);
    char *out = bytes.data();
    int64_t have = -1;
    switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT:
      have = storeEach(proto.float_data(), count, width, out);
      break;
    case onnx::TensorProto::INT64:
      have = storeEach(proto.int64_data(), count, width, out);
      break;
    case onnx::TensorProto::DOUBLE:
      have = storeEach(proto.double_data(), count, width, out);
      break;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64: // both stored one per uint64
      have = storeEach(proto.uint64_data(), count, width, out);
      break;
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
    case onnx::TensorProto::BOOL:
      // Narrow types are stored one per int32 (halves as their bits).
      have = storeEach(proto.int32_data(), count, width, out);
      break;
    default:
      break;
    }
    if (have != count) {
      error = "tensor '" + proto.name() + "' holds " + std::to_string(std::max<int64_t>(have, 0)) +
              " values, its dims say " + std::to_string(count);
      return std::nullopt;
    }
  }
  if (static_cast<int64_t>(bytes.size()) != count * width) {
    error = "tensor '" + proto.name() + "' holds " + std::to_string(bytes.size()) +
            " bytes of data, its dims and type say " + std::to_string(count * width);
    return std::nullopt;
  }
  return bytes;
}

static std::optional<RankedTensorType> protoType(MLIRContext *context,
                                                 const onnx::TensorProto &proto,
                                                 std::string &error) {
  Type element = elementTypeOf(context, proto.data_type());
  if (!element) {
    error = std::string("tensor '") + proto.name() + "' has element type " +
            onnxTypeName(proto.data_type()) + ", which dlc does not support";
    return std::nullopt;
  }
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  for (int64_t d : dims)
    if (d < 0) {
      error = "tensor '" + proto.name() + "' has a negative dimension";
      return std::nullopt;
    }
  return RankedTensorType::get(dims, element);
}

static Tensor decode(RankedTensorType type, const std::string &bytes) {
  FailureOr<ref::DType> dtype = refDTypeOf(type.getElementType());
  Tensor t = Tensor::zeros(*dtype, {type.getShape().begin(), type.getShape().end()});
  int64_t width = storageBytes(type.getElementType());
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = ref::decodeElement(*dtype, bytes.data() + i * width);
  return t;
}

std::optional<Tensor> dlc::onnx_import::tensorFromProto(const onnx::TensorProto &proto,
                                                        std::string &error) {
  MLIRContext context;
  std::optional<RankedTensorType> type = protoType(&context, proto, error);
  if (!type)
    return std::nullopt;
  std::optional<std::string> bytes =
      protoBytes(proto, type->getElementType(), type->getNumElements(), error);
  if (!bytes)
    return std::nullopt;
  return decode(*type, *bytes);
}

DenseElementsAttr dlc::onnx_import::denseFromTensor(RankedTensorType type, const Tensor &t) {
  Type e = type.getElementType();
  if (e.isInteger(1)) {
    SmallVector<bool> bits;
    for (double v : t.data)
      bits.push_back(v != 0);
    return DenseElementsAttr::get(type, bits);
  }
  if (isa<IntegerType>(e)) {
    SmallVector<APInt> ints;
    bool isUnsigned = e.isUnsignedInteger();
    for (double v : t.data) // Values of t.dtype: no u64 above 2^64, no i64 above 2^63.
      ints.push_back(isUnsigned ? APInt(e.getIntOrFloatBitWidth(),
                                        v >= 0x1p64 ? UINT64_MAX : static_cast<uint64_t>(v))
                                : APInt(e.getIntOrFloatBitWidth(), ref::toInt64(v), true));
    return DenseElementsAttr::get(type, ints);
  }
  SmallVector<APFloat> floats;
  auto &sem = cast<FloatType>(e).getFloatSemantics();
  for (double v : t.data) {
    APFloat f(v);
    bool lost;
    f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
    floats.push_back(f);
  }
  return DenseElementsAttr::get(type, floats);
}

/// A TensorProto as a constant's attribute: dense<...> when small, else a
/// dense_resource blob keyed by a sanitised form of the tensor's name.
static ElementsAttr elementsFromProto(MLIRContext *context, const onnx::TensorProto &proto,
                                      std::string &error) {
  std::optional<RankedTensorType> type = protoType(context, proto, error);
  if (!type)
    return nullptr;
  std::optional<std::string> bytes =
      protoBytes(proto, type->getElementType(), type->getNumElements(), error);
  if (!bytes)
    return nullptr;
  if (type->getNumElements() <= kMaxInlineElements || type->getElementType().isInteger(1))
    return denseFromTensor(*type, decode(*type, *bytes));
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(bytes->data(), bytes->size()), alignof(int64_t));
  return dlc::resourceConstant(*type, proto.name(), std::move(blob));
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

Value GraphImporter::input(size_t i) { return values.lookup(node->input(i)); }

LogicalResult GraphImporter::importNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes) {
  for (const onnx::NodeProto &n : nodes) {
    node = &n;
    std::string name = n.name().empty() ? n.op_type() + ":" + (n.output_size() ? n.output(0) : "")
                                        : n.name();
    loc = NameLoc::get(builder.getStringAttr(name));
    if (!n.domain().empty() && n.domain() != "ai.onnx")
      return unsupported("domain '" + n.domain() + "'");
    for (const std::string &in : n.input())
      if (failed(materialize(in)))
        return failure();
    SmallVector<Value> outputs;
    if (failed(convertNode(*this, outputs)) || failed(trackSymbolicSizes(outputs)))
      return failure();
    for (auto [i, out] : llvm::enumerate(n.output())) {
      if (out.empty())
        continue;
      if (i >= outputs.size() || !outputs[i])
        return unsupported("output " + std::to_string(i) + " ('" + out + "') is not supported");
      values[out] = outputs[i];
    }
    if (!error.empty())
      return failure();
  }
  return success();
}

LogicalResult GraphImporter::importSubgraph(const onnx::GraphProto &graph, ArrayRef<Value> inputs,
                                            SmallVectorImpl<Value> &outputs) {
  const onnx::NodeProto *outer = node;
  Location outerLoc = loc;
  // Every name the subgraph defines, with what it hid (ONNX forbids shadowing
  // but a bad file may do it), to be put back afterwards.
  std::vector<std::pair<std::string, Value>> hidden;
  auto define = [&](const std::string &name, Value v) {
    hidden.emplace_back(name, values.lookup(name));
    values[name] = v;
  };
  LogicalResult result = [&]() -> LogicalResult {
    if (size_t(graph.input_size()) != inputs.size())
      return fail("subgraph '" + graph.name() + "' has " + std::to_string(graph.input_size()) +
                  " inputs where " + std::to_string(inputs.size()) + " are given");
    for (auto [info, v] : llvm::zip(graph.input(), inputs))
      define(info.name(), v);
    for (const onnx::TensorProto &init : graph.initializer()) {
      std::string err;
      std::optional<Tensor> t = tensorFromProto(init, err);
      if (!t)
        return fail("subgraph '" + graph.name() + "' initializer '" + init.name() + "': " + err);
      define(init.name(), constant(*t));
    }
    for (const onnx::NodeProto &n : graph.node())
      for (const std::string &out : n.output())
        if (!out.empty())
          hidden.emplace_back(out, values.lookup(out));
    if (failed(importNodes(graph.node())))
      return failure();
    for (const onnx::ValueInfoProto &out : graph.output()) {
      if (failed(materialize(out.name())))
        return failure();
      outputs.push_back(values.lookup(out.name()));
    }
    return success();
  }();
  for (auto &[name, v] : llvm::reverse(hidden)) {
    if (v)
      values[name] = v;
    else
      values.erase(name);
  }
  node = outer;
  loc = outerLoc;
  return result;
}

static std::optional<Tensor> constantValue(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto type = cast<RankedTensorType>(c.getType());
  if (type.getNumElements() > kMaxFoldElements && !isa<DenseElementsAttr>(c.getValue()))
    return std::nullopt; // weights: never folded through
  FailureOr<Tensor> t = tensorFromElements(c.getValue(), c.getLoc());
  if (failed(t))
    return std::nullopt;
  return *t;
}

std::optional<Tensor> GraphImporter::constInput(size_t i) {
  if (!has(i))
    return std::nullopt;
  return constantValue(input(i));
}

std::optional<Tensor> GraphImporter::requireConst(size_t i, const char *what) {
  std::optional<Tensor> t = constInput(i);
  if (!t)
    fail(llvm::Twine(what) + " (input " + llvm::Twine(i) + " '" + node->input(i) +
         "') must be known at import time: bind it with --bind=" + node->input(i) + "=FILE.npy");
  return t;
}

std::optional<std::vector<int64_t>> GraphImporter::constInts(size_t i, const char *what) {
  std::optional<Tensor> t = requireConst(i, what);
  if (!t)
    return std::nullopt;
  // Saturated: PyTorch writes `x[::2]`'s end as INT64_MAX, 2^63 as a double.
  std::vector<int64_t> out;
  for (double v : t->data)
    out.push_back(ref::toInt64(v));
  return out;
}

const onnx::AttributeProto *GraphImporter::attr(llvm::StringRef name) const {
  for (const onnx::AttributeProto &a : node->attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}
int64_t GraphImporter::attrInt(llvm::StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : dflt;
}
double GraphImporter::attrFloat(llvm::StringRef name, double dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : dflt;
}
std::string GraphImporter::attrString(llvm::StringRef name, llvm::StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : dflt.str();
}
std::optional<std::vector<int64_t>> GraphImporter::attrInts(llvm::StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Value GraphImporter::constant(const Tensor &t) {
  Type element = mlirTypeOf(builder.getContext(), t.dtype);
  auto type = RankedTensorType::get(t.shape, element);
  return builder.create<ConstantOp>(loc, type, denseFromTensor(type, t), DeviceAttr());
}

Value GraphImporter::scalarLike(Value like, double value) {
  RankedTensorType type = typeOf(like);
  FailureOr<ref::DType> dtype = refDTypeOf(type.getElementType());
  Tensor t = Tensor::fromValues(*dtype, std::vector<int64_t>(type.getRank(), 1), {value});
  return constant(t);
}

Value GraphImporter::reshape(Value v, ArrayRef<int64_t> shape) {
  if (typeOf(v).getShape() == shape)
    return v;
  return make<ReshapeOp>(tensorType(shape, typeOf(v).getElementType()), v, DeviceAttr());
}

Value GraphImporter::castTo(Value v, Type elementType) {
  if (typeOf(v).getElementType() == elementType)
    return v;
  return make<CastOp>(tensorType(typeOf(v).getShape(), elementType), v, DeviceAttr());
}

static bool foldable(Operation *op, std::vector<Tensor> &operands) {
  if (isa<ConstantOp>(op))
    return false;
  // An op built from a malformed model may not verify: leave it to the final
  // verification, which reports it (the kernels would disagree on its type).
  if (failed(verify(op, /*verifyRecursively=*/false)))
    return false;
  for (Value r : op->getResults())
    if (cast<RankedTensorType>(r.getType()).getNumElements() > kMaxFoldElements)
      return false;
  for (Value v : op->getOperands()) {
    std::optional<Tensor> t = constantValue(v);
    if (!t)
      return false;
    operands.push_back(std::move(*t));
  }
  return true;
}

/// The kernel's result has the op's result type (dtype and shape).
static bool matches(RankedTensorType type, const Tensor &t) {
  FailureOr<ref::DType> dtype = refDTypeOf(type.getElementType());
  return succeeded(dtype) && *dtype == t.dtype && type.getShape() == ArrayRef<int64_t>(t.shape) &&
         static_cast<int64_t>(t.data.size()) == type.getNumElements();
}

SmallVector<Value> GraphImporter::foldAll(Operation *op) {
  SmallVector<Value> results(op->getResults());
  std::vector<Tensor> operands;
  if (!foldable(op, operands))
    return results;
  ref::Expected<std::vector<Tensor>> values = evaluateOp(op, operands);
  if (!values || values->size() != op->getNumResults())
    return results; // left to run (and to report) at run time
  for (auto [result, t] : llvm::zip(op->getResults(), *values))
    if (!matches(cast<RankedTensorType>(result.getType()), t))
      return results;
  for (auto [i, t] : llvm::enumerate(*values)) {
    auto type = cast<RankedTensorType>(results[i].getType());
    Value folded = builder.create<ConstantOp>(op->getLoc(), type, denseFromTensor(type, t), DeviceAttr());
    results[i].replaceAllUsesWith(folded);
    results[i] = folded;
  }
  op->erase();
  return results;
}

Value GraphImporter::foldOrKeep(Operation *op, unsigned index) {
  std::vector<Tensor> operands;
  if (!foldable(op, operands))
    return op->getResult(index);
  ref::Expected<std::vector<Tensor>> results = evaluateOp(op, operands);
  if (!results || results->size() != op->getNumResults())
    return op->getResult(index);
  auto type = cast<RankedTensorType>(op->getResult(index).getType());
  if (!matches(type, (*results)[index]))
    return op->getResult(index);
  Value c = builder.create<ConstantOp>(op->getLoc(), type,
                                       denseFromTensor(type, (*results)[index]), DeviceAttr());
  op->erase();
  return c;
}

/// The node's name, or for an unnamed node the name of its first output.
static std::string nodeLabel(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return "'" + node.name() + "'";
  return "<unnamed, output '" + (node.output_size() ? node.output(0) : std::string()) + "'>";
}

LogicalResult GraphImporter::fail(const llvm::Twine &message) {
  if (error.empty())
    error = ("node " + nodeLabel(*node) + " (" + node->op_type() + "): " + message).str();
  return failure();
}

LogicalResult GraphImporter::unsupported(const llvm::Twine &reason) {
  if (error.empty()) {
    error = ("unsupported op '" + node->op_type() + "' (node " + nodeLabel(*node) +
             ", opset " + llvm::Twine(opset) + ")")
                .str();
    std::string why = reason.str();
    if (!why.empty())
      error += ": " + why;
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

namespace {
class ModelImporter {
public:
  ModelImporter(MLIRContext &context, const onnx::ModelProto &model, int64_t opset,
                const OnnxImportOptions &options)
      : context(context), model(model), options(options), g(&context, opset) {}

  OwningOpRef<ModuleOp> run(std::string &error);

private:
  LogicalResult signature(func::FuncOp &func);
  LogicalResult fail(const std::string &message) {
    if (g.error.empty())
      g.error = message;
    return failure();
  }

  MLIRContext &context;
  const onnx::ModelProto &model;
  const OnnxImportOptions &options;
  GraphImporter g;
  llvm::StringMap<const onnx::TensorProto *> initializers;
};
} // namespace

/// --input-shape=x=?x3x224x224: dim 0 is the symbolic batch that the one
/// --max-dim names, imported at its bound.
static LogicalResult givenSymbolicBatch(const onnx::ValueInfoProto &info,
                                        const OnnxImportOptions &options,
                                        std::vector<int64_t> &shape,
                                        std::set<std::string> &symbols, std::string &error) {
  if (shape.empty() || shape[0] != -1)
    return success();
  if (options.maxDims.size() != 1) {
    error = "--input-shape for '" + info.name() + "' makes dimension 0 symbolic ('?'): give " +
            "its bound with exactly one --max-dim=NAME=N (e.g. --max-dim=batch=64)";
    return failure();
  }
  shape[0] = options.maxDims.begin()->second;
  symbols.insert(options.maxDims.begin()->first);
  return success();
}

/// The static shape of a graph input: its declared dims, or --input-shape.
/// A dim_param with a --max-dim bound is taken at the bound and added to
/// `symbols` (dim 0, or `symbolDim` after dims of 1); --input-shape fixes an
/// input whole.
static LogicalResult inputShape(const onnx::ValueInfoProto &info,
                                const OnnxImportOptions &options,
                                std::vector<int64_t> &shape, std::set<std::string> &symbols,
                                int64_t &symbolDim, std::string &error) {
  const onnx::TypeProto_Tensor &tt = info.type().tensor_type();
  auto given = options.inputShapes.find(info.name());
  std::string dynamic;
  for (const onnx::TensorShapeProto_Dimension &d : tt.shape().dim()) {
    if (d.has_dim_value() && d.dim_value() >= 0) {
      shape.push_back(d.dim_value());
      continue;
    }
    auto bound = d.has_dim_param() ? options.maxDims.find(d.dim_param()) : options.maxDims.end();
    if (bound != options.maxDims.end() && given == options.inputShapes.end()) {
      // A symbol after dims of 1 (a sequence of token ids [1, t]) has each
      // unit contiguous, as dim 0 does.
      if (llvm::any_of(shape, [](int64_t d) { return d != 1; })) {
        error = "--max-dim: '" + d.dim_param() + "' is dimension " +
                std::to_string(shape.size()) + " of input '" + info.name() +
                "', after a dimension other than 1; a symbolic dimension must be the "
                "first one, or follow dimensions of 1 only";
        return failure();
      }
      if (!shape.empty())
        symbolDim = int64_t(shape.size());
      shape.push_back(bound->second);
      symbols.insert(d.dim_param());
      continue;
    }
    shape.push_back(-1);
    if (dynamic.empty())
      dynamic = d.has_dim_param() ? "'" + d.dim_param() + "'" : "?";
  }
  if (given != options.inputShapes.end()) {
    if (tt.has_shape() && given->second.size() != shape.size()) {
      error = "--input-shape for '" + info.name() + "' has rank " +
              std::to_string(given->second.size()) + ", the model's input has rank " +
              std::to_string(shape.size());
      return failure();
    }
    for (size_t i = 0; i < shape.size(); ++i)
      if (shape[i] >= 0 && given->second[i] >= 0 && shape[i] != given->second[i]) {
        error = "--input-shape for '" + info.name() + "' gives dimension " +
                std::to_string(i) + " as " + std::to_string(given->second[i]) +
                ", the model fixes it to " + std::to_string(shape[i]);
        return failure();
      }
    shape = given->second;
    return givenSymbolicBatch(info, options, shape, symbols, error);
  }
  if (!tt.has_shape()) {
    error = "input '" + info.name() + "' has no shape: pass --input-shape=" + info.name() +
            "=DIMS (e.g. 1x3x224x224)";
    return failure();
  }
  if (!dynamic.empty()) {
    error = "input '" + info.name() + "' has a dynamic dimension " + dynamic +
            ": pass --input-shape=" + info.name() + "=DIMS (e.g. 1x3x224x224)";
    return failure();
  }
  return success();
}

LogicalResult ModelImporter::signature(func::FuncOp &func) {
  OpBuilder &b = g.builder;
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<int64_t> argSymbolDims;
  std::set<std::string> symbols;
  bool symbolicGiven = llvm::any_of(options.inputShapes, [](const auto &given) {
    return !given.second.empty() && given.second[0] == -1;
  });
  for (auto &[name, bound] : options.maxDims) {
    bool found = llvm::any_of(model.graph().input(), [&](const onnx::ValueInfoProto &i) {
      return llvm::any_of(i.type().tensor_type().shape().dim(),
                          [&](const auto &d) { return d.dim_param() == name; });
    });
    if (!found && !symbolicGiven)
      return fail("--max-dim names '" + name + "', which is not a dim_param of any input");
  }
  for (auto &[name, shape] : options.inputShapes) {
    bool found = llvm::any_of(model.graph().input(), [&](const onnx::ValueInfoProto &i) {
      return i.name() == name && !initializers.count(name);
    });
    if (!found)
      return fail("--input-shape names '" + name + "', which is not an input of the graph");
  }
  for (const onnx::ValueInfoProto &info : model.graph().input()) {
    if (initializers.count(info.name()) || options.bindings.count(info.name()))
      continue;
    if (!info.type().has_tensor_type())
      return fail("input '" + info.name() + "' is not a tensor (sequences, maps and "
                  "optionals are not supported)");
    int32_t et = info.type().tensor_type().elem_type();
    Type element = elementTypeOf(&context, et);
    if (!element)
      return fail("input '" + info.name() + "' has element type " +
                  onnxTypeName(et) + ", which dlc does not support");
    std::vector<int64_t> shape;
    int64_t symbolDim = 0;
    if (failed(inputShape(info, options, shape, symbols, symbolDim, g.error)))
      return failure();
    argTypes.push_back(RankedTensorType::get(shape, element));
    argNames.push_back(info.name());
    argSymbolDims.push_back(symbolDim);
  }
  for (auto &[name, t] : options.bindings) {
    bool found = llvm::any_of(model.graph().input(),
                              [&](const onnx::ValueInfoProto &i) { return i.name() == name; });
    if (!found)
      return fail("--bind names '" + name + "', which is not an input of the graph");
  }

  for (auto &[name, bound] : options.maxDims)
    if (!symbols.count(name))
      return fail("--max-dim names '" + name + "', but --input-shape fixes every input "
                  "that has it");
  if (symbols.size() > 1)
    return fail("--max-dim: two symbolic dimensions ('" + *symbols.begin() + "', '" +
                *std::next(symbols.begin()) + "'); one symbolic batch is built so far");

  func = b.create<func::FuncOp>(NameLoc::get(b.getStringAttr("main")), "main",
                                b.getFunctionType(argTypes, {}));
  if (!symbols.empty()) {
    func->setAttr(::dlc::attrs::kSymbolicBatch, b.getStringAttr(*symbols.begin()));
    g.symbolicBatch = *symbols.begin();
    g.symbolicBatchBound = options.maxDims.at(g.symbolicBatch);
  }
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    func.setArgAttr(i, ::dlc::attrs::kName, b.getStringAttr(name));
    if (argSymbolDims[i] > 0)
      func.setArgAttr(i, ::dlc::attrs::kSymbolDims, b.getDenseI64ArrayAttr({argSymbolDims[i]}));
    entry->getArgument(i).setLoc(NameLoc::get(b.getStringAttr(name)));
    g.values[name] = entry->getArgument(i);
  }
  b.setInsertionPointToStart(entry);
  for (auto &[name, t] : options.bindings) {
    g.loc = NameLoc::get(b.getStringAttr(name));
    g.values[name] = g.constant(t);
  }
  return success();
}

OwningOpRef<ModuleOp> ModelImporter::run(std::string &error) {
  OpBuilder &b = g.builder;
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(module->getBody());
  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &init : graph.initializer())
    initializers[init.name()] = &init;

  func::FuncOp func;
  if (failed(signature(func))) {
    error = g.error;
    return nullptr;
  }
  // Initializers become constants where first used: unused ones cost nothing.
  g.materialize = [&](const std::string &name) -> LogicalResult {
    if (name.empty() || g.values.count(name))
      return success();
    auto it = initializers.find(name);
    if (it == initializers.end())
      return g.fail("input '" + name + "' is not produced by any earlier node, "
                    "initializer or graph input");
    std::string err;
    ElementsAttr value = elementsFromProto(&context, *it->second, err);
    if (!value)
      return g.fail("initializer: " + err);
    OpBuilder::InsertionGuard guard(b);
    if (g.outerInsertion.isSet())
      b.restoreInsertionPoint(g.outerInsertion);
    g.values[name] = b.create<ConstantOp>(NameLoc::get(b.getStringAttr(name)),
                                          value.getType(), value, DeviceAttr());
    return success();
  };
  (void)g.importNodes(graph.node());
  if (g.error.empty()) {
    SmallVector<Value> results;
    for (const onnx::ValueInfoProto &out : graph.output()) {
      if (failed(g.materialize(out.name())))
        break;
      Value v = g.values.lookup(out.name());
      if (!v) {
        fail("output '" + out.name() + "' is not produced by any node");
        break;
      }
      if (llvm::is_contained(g.sizeMaskOf(v), true)) {
        fail("output '" + out.name() + "' is computed from the size of the symbolic batch '" +
             g.symbolicBatch + "', which is imported at its bound " +
             std::to_string(g.symbolicBatchBound) + ": it would be wrong at any other batch");
        break;
      }
      results.push_back(v);
    }
    if (g.error.empty()) {
      b.create<func::ReturnOp>(NameLoc::get(b.getStringAttr("return")), results);
      func.setType(b.getFunctionType(func.getArgumentTypes(), ValueRange(results).getTypes()));
      for (auto [i, out] : llvm::enumerate(graph.output()))
        func.setResultAttr(i, ::dlc::attrs::kName, b.getStringAttr(out.name()));
    }
  }
  if (!g.error.empty()) {
    error = g.error;
    return nullptr;
  }
  // Shape arithmetic folded away leaves ops nobody reads: all dlc ops are pure.
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<DlcDialect>(op.getDialect()) && op.use_empty())
      op.erase();
  if (failed(checkReshapesOfBatch(func, error)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool dlc::parseShapeSpec(llvm::StringRef spec, std::vector<int64_t> &shape) {
  shape.clear();
  if (spec.empty())
    return true; // a scalar
  SmallVector<llvm::StringRef> parts;
  spec.split(parts, spec.contains(',') ? ',' : 'x');
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.trim().getAsInteger(10, d) || d < 0)
      return false;
    shape.push_back(d);
  }
  return true;
}

OwningOpRef<ModuleOp> dlc::importOnnxBytes(MLIRContext &context, llvm::StringRef bytes,
                                           llvm::StringRef path,
                                           const OnnxImportOptions &options,
                                           std::string &error) {
  context.loadDialect<DlcDialect, func::FuncDialect>();
  onnx::ModelProto model;
  if (bytes.empty()) {
    error = "the file is empty, not an ONNX model";
    return nullptr;
  }
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "not a valid ONNX model (the protobuf does not parse: corrupt or truncated file?)";
    return nullptr;
  }
  if (!model.has_graph() || (model.graph().node_size() == 0 && model.graph().output_size() == 0)) {
    error = "the ONNX model has no graph (corrupt or truncated file?)";
    return nullptr;
  }
  int64_t opset = -1;
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset < 0) {
    error = "the model imports no version of the default ONNX opset";
    return nullptr;
  }
  // Opsets 18 to 23 changed the ops the importer reads in ways it handles
  // (Reduce*'s axes as an input, Split's num_outputs, Pad's axes) or only
  // in their types; their other changes are new ops, which it names as
  // unsupported. Opsets 24 to 28 (onnx 1.23's schemas, compared version by
  // version) changed the ops it reads only in their types (new 2-, 4-, 6-
  // and 8-bit types, refused by name), except for three attributes: Cast's
  // round_mode (float8e8m0 only), Range's stash_type (Range is folded in
  // double) and SpaceToDepth's mode (read). Later opsets are not read until
  // someone checks them.
  if (opset < 7 || opset > kMaxOpset) {
    error = "opset " + std::to_string(opset) + " is not supported (dlc reads opsets 7 to " +
            std::to_string(kMaxOpset) + ")";
    return nullptr;
  }
  // A verifier failure is an importer bug; report it, never crash.
  std::string diag;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (diag.empty()) {
      llvm::raw_string_ostream os(diag);
      os << d.getLocation() << ": " << d.str();
    }
    return success();
  });
  ModelImporter importer(context, model, opset, options);
  OwningOpRef<ModuleOp> module = importer.run(error);
  bool symbolicGiven = llvm::any_of(options.inputShapes, [](const auto &given) {
    return !given.second.empty() && given.second[0] == -1;
  });
  if (!module && symbolicGiven && llvm::StringRef(error).starts_with("node '"))
    // The likely cause: an export at a fixed batch keeps it in its shapes.
    error += " (dim 0 was made a symbolic batch with --input-shape=NAME=?x...; a model "
             "exported at a fixed batch may keep that batch in its shapes, such as a "
             "Reshape's: export it with dynamic_axes on dim 0 instead)";
  if (!module)
    return nullptr;
  if (failed(verify(*module))) {
    error = "the imported IR does not verify (a malformed model, or an importer bug): " + diag;
    return nullptr;
  }
  if (options.raisePatterns && failed(raiseOnnxPatterns(*module))) {
    error = "raising exporter patterns failed (an importer bug): " + diag;
    return nullptr;
  }
  return module;
}

OwningOpRef<ModuleOp> dlc::importOnnxFile(MLIRContext &context, llvm::StringRef path,
                                          const OnnxImportOptions &options,
                                          std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    error = "cannot open: " + file.getError().message();
    return nullptr;
  }
  return importOnnxBytes(context, (*file)->getBuffer(), path, options, error);
}
