//===- DlcShapes.cpp - shape rules of the dlc ops -------------------------===//

#include "dialects/dlc/DlcShapes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dlc;

std::string dlc::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

// Reports through `emitError` when there is one, and fails either way.
static LogicalResult fail(EmitErrorFn emitError,
                          llvm::function_ref<void(InFlightDiagnostic &)> fill) {
  if (emitError) {
    InFlightDiagnostic diag = emitError();
    fill(diag);
  }
  return failure();
}

FailureOr<Shape> dlc::broadcastShapes(llvm::ArrayRef<int64_t> lhs,
                                            llvm::ArrayRef<int64_t> rhs,
                                            EmitErrorFn emitError) {
  size_t rank = std::max(lhs.size(), rhs.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right, as NumPy does.
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (l != r && l != 1 && r != 1) {
      (void)fail(emitError, [&](InFlightDiagnostic &d) {
        d << "operand shapes " << formatShape(lhs) << " and " << formatShape(rhs)
          << " do not broadcast: dimension " << rank - 1 - i << " is " << l
          << " versus " << r;
      });
      return failure();
    }
    result[rank - 1 - i] = l == 1 ? r : l;
  }
  return result;
}

RankedTensorType dlc::inferBroadcastType(Type lhs, Type rhs) {
  auto l = dyn_cast<RankedTensorType>(lhs);
  auto r = dyn_cast<RankedTensorType>(rhs);
  if (!l || !r)
    return {};
  FailureOr<Shape> shape = broadcastShapes(l.getShape(), r.getShape(), nullptr);
  if (failed(shape))
    return {};
  return RankedTensorType::get(*shape, l.getElementType());
}

FailureOr<Shape> dlc::matmulShape(llvm::ArrayRef<int64_t> lhs,
                                        llvm::ArrayRef<int64_t> rhs,
                                        EmitErrorFn emitError) {
  if (lhs.size() < 2 || rhs.size() < 2) {
    (void)fail(emitError, [&](InFlightDiagnostic &d) {
      d << "expects operands of rank 2 or more, got ranks " << lhs.size()
        << " and " << rhs.size();
    });
    return failure();
  }
  int64_t k = lhs.back(), k2 = rhs[rhs.size() - 2];
  if (k != k2) {
    (void)fail(emitError, [&](InFlightDiagnostic &d) {
      d << "contracting dimensions differ: lhs " << formatShape(lhs)
        << " has K = " << k << ", rhs " << formatShape(rhs) << " has K = " << k2;
    });
    return failure();
  }
  FailureOr<Shape> batch =
      broadcastShapes(lhs.drop_back(2), rhs.drop_back(2), emitError);
  if (failed(batch))
    return failure();
  Shape result = *batch;
  result.push_back(lhs[lhs.size() - 2]);
  result.push_back(rhs.back());
  return result;
}

FailureOr<int64_t> dlc::windowOutputSize(int64_t size, int64_t window,
                                               int64_t stride, int64_t padBefore,
                                               int64_t padAfter, int64_t dilation,
                                               llvm::StringRef dimName,
                                               EmitErrorFn emitError) {
  int64_t span = dilation * (window - 1) + 1;
  int64_t padded = size + padBefore + padAfter;
  if (span > padded) {
    (void)fail(emitError, [&](InFlightDiagnostic &d) {
      d << "window of " << span << " (kernel " << window << ", dilation "
        << dilation << ") does not fit the padded " << dimName << " of "
        << padded;
    });
    return failure();
  }
  return (padded - span) / stride + 1;
}

FailureOr<int64_t> dlc::normalizeAxis(int64_t axis, int64_t rank,
                                            EmitErrorFn emitError) {
  if (axis < -rank || axis >= rank) {
    (void)fail(emitError, [&](InFlightDiagnostic &d) {
      d << "axis " << axis << " is out of range for rank " << rank
        << " (expected -" << rank << " <= axis < " << rank << ")";
    });
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<Shape> dlc::reduceShape(llvm::ArrayRef<int64_t> input,
                                        llvm::ArrayRef<int64_t> axes,
                                        bool keepdims, EmitErrorFn emitError) {
  int64_t rank = input.size();
  llvm::SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(axis, rank, emitError);
    if (failed(a))
      return failure();
    if (reduced[*a]) {
      (void)fail(emitError, [&](InFlightDiagnostic &d) {
        d << "axis " << axis << " is reduced twice";
      });
      return failure();
    }
    reduced[*a] = true;
  }
  Shape result;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      result.push_back(input[i]);
    else if (keepdims)
      result.push_back(1);
  }
  return result;
}
