//===- RefKernelsShape.cpp - Reductions, data movement and cast -----------===//

#include "Interpreter/RefKernels.h"
#include "Interpreter/RefKernelsInternal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlc::ref {

using namespace detail;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {

enum class ReduceKind { Sum, Mean, Max, Prod };

/// The wrapping 64-bit product `bits` (an integer of `dtype`) as a double:
/// wrapped to the type's width first, so results of up to 32 bits are exact.
double wrappedProduct(DType dtype, uint64_t bits) {
  int width = integerBits(dtype);
  if (width == 64)
    return isUnsigned(dtype) ? double(bits) : double(int64_t(bits));
  return roundTo(dtype, double(bits & ((uint64_t(1) << width) - 1)));
}

Expected<Tensor> reduce(const char *op, ReduceKind kind, const Tensor &x,
                        const std::vector<int64_t> &axes, bool keepdims) {
  if (Status s = checkTensor(op, "input", x); !s.ok())
    return s;
  int64_t rank = x.rank();
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t axis : axes) {
    if (Status s = normalizeAxis(op, axis, rank); !s.ok())
      return s;
    if (reduced[axis])
      return makeError(op, ": axis ", axis, " appears more than once");
    reduced[axis] = true;
  }
  // Input dim d maps to output stride keptStrides[d] (0 when reduced).
  std::vector<int64_t> keptShape(rank), outShape, reducedDims;
  for (int64_t d = 0; d < rank; ++d) {
    keptShape[d] = reduced[d] ? 1 : x.shape[d];
    if (reduced[d])
      reducedDims.push_back(x.shape[d]);
    if (!reduced[d] || keepdims)
      outShape.push_back(keptShape[d]);
  }
  if (Status s = checkOutputSize(op, outShape); !s.ok())
    return s;
  // Only used when the output is non-empty, where it cannot overflow.
  int64_t count = shapeNumElements(reducedDims);
  std::vector<int64_t> keptStrides = rowMajorStrides(keptShape);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d])
      keptStrides[d] = 0;

  bool isInt = isInteger(x.dtype);
  if (count == 0 && isInt && kind != ReduceKind::Sum && kind != ReduceKind::Prod &&
      shapeNumElements(outShape) > 0)
    return makeError(op, ": cannot reduce zero elements of an integer tensor");
  double init = kind == ReduceKind::Max    ? -std::numeric_limits<double>::infinity()
                : kind == ReduceKind::Prod ? 1.0
                                           : 0.0;
  Tensor out = Tensor::zeros(x.dtype, outShape);
  std::vector<double> acc(out.data.size(), init);
  std::vector<uint64_t> intProduct(isInt && kind == ReduceKind::Prod ? acc.size() : 0, 1);
  std::vector<int64_t> idx(rank, 0);
  int64_t o = 0;
  for (double v : x.data) {
    double &a = acc[o];
    if (!intProduct.empty())
      intProduct[o] *= isUnsigned(x.dtype) ? uint64_t(v) : uint64_t(toInt64(v));
    else if (kind == ReduceKind::Prod)
      a *= v;
    else if (kind != ReduceKind::Max)
      a += v;
    else if (!std::isnan(a) && (std::isnan(v) || v > a))
      a = v; // NaN propagates.
    for (int64_t d = rank; d-- > 0;) {
      o += keptStrides[d];
      if (++idx[d] < x.shape[d])
        break;
      o -= keptStrides[d] * idx[d];
      idx[d] = 0;
    }
  }
  for (size_t i = 0; i < acc.size(); ++i) {
    double v = intProduct.empty() ? acc[i] : wrappedProduct(x.dtype, intProduct[i]);
    if (kind == ReduceKind::Mean)
      v /= double(count); // Integer means truncate in roundTo.
    out.data[i] = roundTo(x.dtype, v);
  }
  return out;
}

} // namespace

Expected<Tensor> reduce_sum(const Tensor &x, const std::vector<int64_t> &axes,
                            bool keepdims) {
  return reduce("reduce_sum", ReduceKind::Sum, x, axes, keepdims);
}
Expected<Tensor> reduce_mean(const Tensor &x, const std::vector<int64_t> &axes,
                             bool keepdims) {
  return reduce("reduce_mean", ReduceKind::Mean, x, axes, keepdims);
}
Expected<Tensor> reduce_max(const Tensor &x, const std::vector<int64_t> &axes,
                            bool keepdims) {
  return reduce("reduce_max", ReduceKind::Max, x, axes, keepdims);
}
Expected<Tensor> reduce_prod(const Tensor &x, const std::vector<int64_t> &axes,
                             bool keepdims) {
  return reduce("reduce_prod", ReduceKind::Prod, x, axes, keepdims);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

Expected<Tensor> transpose(const Tensor &x, const std::vector<int64_t> &perm) {
  if (Status s = checkTensor("transpose", "input", x); !s.ok())
    return s;
  int64_t rank = x.rank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return makeError("transpose: expected a permutation of ", rank,
                     " dims, got ", perm.size());
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return makeError("transpose: perm ", shapeToString(perm),
                       " is not a permutation of [0, ", rank, ")");
    seen[p] = true;
  }
  std::vector<int64_t> inStrides = rowMajorStrides(x.shape);
  std::vector<int64_t> outShape(rank), strides(rank);
  for (int64_t i = 0; i < rank; ++i) {
    outShape[i] = x.shape[perm[i]];
    strides[i] = inStrides[perm[i]];
  }
  Tensor out = Tensor::zeros(x.dtype, outShape);
  std::vector<int64_t> idx(rank, 0);
  int64_t off = 0;
  for (double &v : out.data) {
    v = x.data[off];
    for (int64_t d = rank; d-- > 0;) {
      off += strides[d];
      if (++idx[d] < outShape[d])
        break;
      off -= strides[d] * idx[d];
      idx[d] = 0;
    }
  }
  return out;
}

Expected<Tensor> reshape(const Tensor &x, const std::vector<int64_t> &newShape) {
  if (Status s = checkTensor("reshape", "input", x); !s.ok())
    return s;
  for (int64_t d : newShape)
    if (d < 0)
      return makeError("reshape: new shape ", shapeToString(newShape),
                       " has a negative dim (dynamic dims are not supported)");
  if (shapeNumElements(newShape) != x.numElements())
    return makeError("reshape: cannot reshape ", shapeToString(x.shape), " (",
                     x.numElements(), " elements) to ",
                     shapeToString(newShape), " (",
                     shapeNumElements(newShape), " elements)");
  Tensor out = x;
  out.shape = newShape;
  return out;
}

Expected<Tensor> concat(const std::vector<Tensor> &inputs, int64_t axis) {
  if (inputs.empty())
    return makeError("concat: expected at least one input");
  const Tensor &first = inputs[0];
  if (first.rank() < 1)
    return makeError("concat: expected inputs of rank >= 1, got shape []");
  if (Status s = normalizeAxis("concat", axis, first.rank()); !s.ok())
    return s;
  std::vector<int64_t> outShape = first.shape;
  outShape[axis] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = inputs[i];
    std::string name = "input " + std::to_string(i);
    if (Status s = checkTensor("concat", name.c_str(), t); !s.ok())
      return s;
    if (Status s = checkSameDType("concat", "input 0", first, name.c_str(), t);
        !s.ok())
      return s;
    bool match = t.rank() == first.rank();
    for (int64_t d = 0; match && d < first.rank(); ++d)
      match = d == axis || t.shape[d] == first.shape[d];
    if (!match)
      return makeError("concat: ", name, " shape ", shapeToString(t.shape),
                       " does not match input 0 shape ",
                       shapeToString(first.shape), " outside axis ", axis);
    outShape[axis] += t.shape[axis];
  }
  if (Status s = checkOutputSize("concat", outShape); !s.ok())
    return s;
  Tensor out = Tensor::zeros(first.dtype, outShape);
  if (out.data.empty())
    return out;
  int64_t outer = shapeNumElements(
      std::vector<int64_t>(outShape.begin(), outShape.begin() + axis));
  int64_t inner = shapeNumElements(
      std::vector<int64_t>(outShape.begin() + axis + 1, outShape.end()));
  auto dst = out.data.begin();
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor &t : inputs) {
      int64_t chunk = t.shape[axis] * inner;
      auto src = t.data.begin() + o * chunk;
      dst = std::copy(src, src + chunk, dst);
    }
  return out;
}

Expected<Tensor> slice(const Tensor &x, const std::vector<int64_t> &starts,
                       const std::vector<int64_t> &ends,
                       const std::vector<int64_t> &steps) {
  const char *op = "slice";
  size_t rank = x.shape.size();
  for (const Status &s :
       {checkTensor(op, "input", x), checkAttrSize(op, "starts", starts, rank),
        checkAttrSize(op, "ends", ends, rank),
        checkAttrSize(op, "steps", steps, rank)})
    if (!s.ok())
      return s;
  std::vector<int64_t> outShape(rank), strides = rowMajorStrides(x.shape);
  std::vector<int64_t> outStrides(rank);
  int64_t base = 0;
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = x.shape[d];
    if (steps[d] <= 0)
      return makeError("slice: step ", steps[d], " of dim ", d,
                       " must be positive");
    if (starts[d] < 0 || starts[d] > dim || ends[d] < 0 || ends[d] > dim)
      return makeError("slice: start ", starts[d], " and end ", ends[d],
                       " of dim ", d, " must be in [0, ", dim, "]");
    outShape[d] = ends[d] > starts[d]
                      ? (ends[d] - starts[d] + steps[d] - 1) / steps[d]
                      : 0;
    base += starts[d] * strides[d];
    outStrides[d] = steps[d] * strides[d];
  }
  Tensor out = Tensor::zeros(x.dtype, outShape);
  std::vector<int64_t> idx(rank, 0);
  int64_t off = base;
  for (double &v : out.data) {
    v = x.data[off];
    for (size_t d = rank; d-- > 0;) {
      off += outStrides[d];
      if (++idx[d] < outShape[d])
        break;
      off -= outStrides[d] * idx[d];
      idx[d] = 0;
    }
  }
  return out;
}

Expected<std::vector<Tensor>> split(const Tensor &x, int64_t axis,
                                    const std::vector<int64_t> &sizes) {
  if (Status s = checkTensor("split", "input", x); !s.ok())
    return s;
  if (Status s = normalizeAxis("split", axis, x.rank()); !s.ok())
    return s;
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0 || size > x.shape[axis])
      return makeError("split: size ", size, " must be in [0, ",
                       x.shape[axis], "]");
    total += size;
  }
  if (total != x.shape[axis])
    return makeError("split: sizes ", shapeToString(sizes), " sum to ", total,
                     " but dim ", axis, " of ", shapeToString(x.shape),
                     " is ", x.shape[axis]);
  std::vector<int64_t> starts(x.rank(), 0), ends = x.shape;
  std::vector<int64_t> steps(x.rank(), 1);
  std::vector<Tensor> outs;
  for (int64_t size : sizes) {
    ends[axis] = starts[axis] + size;
    auto part = slice(x, starts, ends, steps);
    if (!part.ok())
      return part.status();
    outs.push_back(std::move(*part));
    starts[axis] = ends[axis];
  }
  return outs;
}

Expected<Tensor> gatherElements(const Tensor &data, const Tensor &indices, int64_t axis) {
  for (const Status &s : {checkTensor("gather_elements", "data", data),
                          checkTensor("gather_elements", "indices", indices)})
    if (!s.ok())
      return s;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return makeError("gather_elements: expected i32 or i64 indices, got ",
                     dtypeName(indices.dtype));
  if (Status s = normalizeAxis("gather_elements", axis, data.rank()); !s.ok())
    return s;
  if (indices.rank() != data.rank())
    return makeError("gather_elements: indices of rank ", indices.rank(), " for data of rank ",
                     data.rank());
  for (int64_t d = 0; d < data.rank(); ++d)
    if (d != axis && indices.shape[d] > data.shape[d])
      return makeError("gather_elements: indices dimension ", d, " is larger than the data's");
  Tensor out = Tensor::zeros(data.dtype, indices.shape);
  std::vector<int64_t> dataStrides = rowMajorStrides(data.shape), at(data.rank(), 0);
  int64_t dim = data.shape[axis];
  for (size_t e = 0; e < out.data.size(); ++e) {
    // at: the output element's coordinates (row-major).
    int64_t rest = int64_t(e), offset = 0;
    for (int64_t d = data.rank() - 1; d >= 0; --d) {
      at[d] = rest % indices.shape[d];
      rest /= indices.shape[d];
    }
    int64_t i = toInt64(indices.data[e]);
    if (i < -dim || i >= dim)
      return makeError("gather_elements: index ", i, " is out of range [", -dim, ", ", dim,
                       ") for axis ", axis, " of size ", dim);
    at[axis] = i < 0 ? i + dim : i;
    for (int64_t d = 0; d < data.rank(); ++d)
      offset += at[d] * dataStrides[d];
    out.data[e] = data.data[offset];
  }
  return out;
}

Expected<Tensor> scatterElements(const Tensor &data, const Tensor &indices,
                                 const Tensor &updates, int64_t axis,
                                 const std::string &reduction) {
  const char *name = "scatter_elements";
  for (const Status &s : {checkTensor(name, "data", data), checkTensor(name, "indices", indices),
                          checkTensor(name, "updates", updates),
                          checkSameDType(name, "data", data, "updates", updates)})
    if (!s.ok())
      return s;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return makeError(name, ": expected i32 or i64 indices, got ", dtypeName(indices.dtype));
  if (Status s = normalizeAxis(name, axis, data.rank()); !s.ok())
    return s;
  std::optional<Reduction> combine = parseReduction(reduction);
  if (!combine)
    return makeError(name, ": unknown reduction '", reduction, "'");
  if (updates.rank() != data.rank() || indices.rank() != data.rank())
    return makeError(name, ": indices of rank ", indices.rank(), " and updates of rank ",
                     updates.rank(), " for data of rank ", data.rank());
  for (int64_t d = 0; d < data.rank(); ++d) {
    if (indices.shape[d] != updates.shape[d] && indices.shape[d] != 1)
      return makeError(name, ": indices dimension ", d, " is neither the updates' nor 1");
    if (d != axis && updates.shape[d] > data.shape[d])
      return makeError(name, ": updates dimension ", d, " is larger than the data's");
  }
  Tensor out = data;
  std::vector<int64_t> dataStrides = rowMajorStrides(data.shape),
                       indexStrides = rowMajorStrides(indices.shape), at(data.rank(), 0);
  int64_t dim = data.shape[axis];
  // Updates in row-major order: a later duplicate combines after an earlier.
  for (size_t e = 0; e < updates.data.size(); ++e) {
    int64_t rest = int64_t(e), indexOffset = 0, offset = 0;
    for (int64_t d = data.rank() - 1; d >= 0; --d) {
      at[d] = rest % updates.shape[d];
      rest /= updates.shape[d];
      if (indices.shape[d] != 1)
        indexOffset += at[d] * indexStrides[d];
    }
    int64_t i = toInt64(indices.data[indexOffset]);
    if (i < -dim || i >= dim)
      return makeError(name, ": index ", i, " is out of range [", -dim, ", ", dim, ") for axis ",
                       axis, " of size ", dim);
    at[axis] = i < 0 ? i + dim : i;
    for (int64_t d = 0; d < data.rank(); ++d)
      offset += at[d] * dataStrides[d];
    out.data[offset] = combineElement(*combine, out.dtype, out.data[offset], updates.data[e]);
  }
  return out;
}

Expected<std::vector<Tensor>> topK(const Tensor &x, int64_t axis, int64_t k, bool largest) {
  const char *name = "top_k";
  if (Status s = checkTensor(name, "input", x); !s.ok())
    return s;
  if (Status s = normalizeAxis(name, axis, x.rank()); !s.ok())
    return s;
  int64_t n = x.shape[axis];
  if (k < 1 || k > n)
    return makeError(name, ": k = ", k, " outside [1, ", n, "]");
  std::vector<int64_t> shape = x.shape;
  shape[axis] = k;
  Tensor values = Tensor::zeros(x.dtype, shape), positions = Tensor::zeros(DType::I64, shape);
  int64_t inner = 1, outer = 1;
  for (int64_t d = axis + 1; d < x.rank(); ++d)
    inner *= x.shape[d];
  for (int64_t d = 0; d < axis; ++d)
    outer *= x.shape[d];
  // NaN is larger than every number; ties keep the lower index first.
  auto before = [&](double a, double b) {
    if (std::isnan(a) || std::isnan(b))
      return largest ? !std::isnan(b) : !std::isnan(a);
    return largest ? a > b : a < b;
  };
  std::vector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      const double *row = x.data.data() + o * n * inner + in;
      for (int64_t j = 0; j < n; ++j)
        order[j] = j;
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return before(row[a * inner], row[b * inner]);
      });
      for (int64_t p = 0; p < k; ++p) {
        values.data[(o * k + p) * inner + in] = row[order[p] * inner];
        positions.data[(o * k + p) * inner + in] = double(order[p]);
      }
    }
  return std::vector<Tensor>{std::move(values), std::move(positions)};
}

Expected<Tensor> gather(const Tensor &data, const Tensor &indices,
                        int64_t axis) {
  for (const Status &s : {checkTensor("gather", "data", data),
                          checkTensor("gather", "indices", indices)})
    if (!s.ok())
      return s;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return makeError("gather: expected i32 or i64 indices, got ",
                     dtypeName(indices.dtype));
  if (Status s = normalizeAxis("gather", axis, data.rank()); !s.ok())
    return s;
  int64_t dim = data.shape[axis];
  std::vector<int64_t> idx;
  idx.reserve(indices.data.size());
  for (double v : indices.data) {
    int64_t i = toInt64(v);
    if (i < -dim || i >= dim)
      return makeError("gather: index ", i, " is out of range [", -dim, ", ",
                       dim, ") for axis ", axis, " of size ", dim);
    idx.push_back(i < 0 ? i + dim : i);
  }
  std::vector<int64_t> outShape(data.shape.begin(),
                                data.shape.begin() + axis);
  outShape.insert(outShape.end(), indices.shape.begin(), indices.shape.end());
  outShape.insert(outShape.end(), data.shape.begin() + axis + 1,
                  data.shape.end());
  if (Status s = checkOutputSize("gather", outShape); !s.ok())
    return s;
  Tensor out = Tensor::zeros(data.dtype, outShape);
  if (out.data.empty())
    return out;
  int64_t outer = shapeNumElements(
      std::vector<int64_t>(data.shape.begin(), data.shape.begin() + axis));
  int64_t inner = shapeNumElements(
      std::vector<int64_t>(data.shape.begin() + axis + 1, data.shape.end()));
  auto dst = out.data.begin();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i : idx) {
      auto src = data.data.begin() + (o * dim + i) * inner;
      dst = std::copy(src, src + inner, dst);
    }
  return out;
}

Expected<Tensor> cast(const Tensor &x, DType to) {
  if (Status s = checkTensor("cast", "input", x); !s.ok())
    return s;
  Tensor out = x;
  out.dtype = to;
  bool toInt = integerBits(to) > 1;
  // Beyond these a float does not name an integer the CPU's fptosi (fptoui
  // for u64) defines.
  double below = -0x1p63, above = to == DType::U64 ? 0x1p64 : 0x1p63;
  for (size_t i = 0; i < out.data.size(); ++i) {
    double v = x.data[i];
    if (toInt && (std::isnan(v) || std::isinf(v)))
      return makeError("cast: cannot cast ", v, " at element ", i, " to ",
                       dtypeName(to));
    if (toInt && isFloat(x.dtype) && (std::trunc(v) < below || std::trunc(v) >= above))
      return makeError("cast: value ", v, " at element ", i, " is out of range for ",
                       to == DType::U64 ? "u64" : "i64");
    out.data[i] = roundTo(to, v);
  }
  return out;
}

} // namespace dlc::ref
