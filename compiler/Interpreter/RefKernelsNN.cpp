//===- RefKernelsNN.cpp - matmul, linear, conv, pooling, normalisation ----===//

#include "Interpreter/RefKernels.h"
#include "Interpreter/RefKernelsInternal.h"

#include <cmath>
#include <limits>

namespace dlc::ref {

using namespace detail;

namespace {

constexpr int64_t kMaxAttr = int64_t(1) << 31; // Keeps index math exact.

/// Calls fn(aOff, bOff, outIndex) for every index of the broadcast batch shape
/// `out`, with the matching flat batch indices of a and b.
template <typename Fn>
void forEachBatch(const std::vector<int64_t> &aBatch,
                  const std::vector<int64_t> &bBatch,
                  const std::vector<int64_t> &out, Fn fn) {
  size_t rank = out.size();
  auto stridesFor = [&](const std::vector<int64_t> &shape) {
    std::vector<int64_t> s = rowMajorStrides(shape), res(rank, 0);
    for (size_t i = 0; i < shape.size(); ++i)
      res[rank - shape.size() + i] = shape[i] == 1 ? 0 : s[i];
    return res;
  };
  std::vector<int64_t> as = stridesFor(aBatch), bs = stridesFor(bBatch);
  int64_t total = shapeNumElements(out);
  std::vector<int64_t> idx(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t ao = 0, bo = 0;
    for (size_t d = 0; d < rank; ++d) {
      ao += idx[d] * as[d];
      bo += idx[d] * bs[d];
    }
    fn(ao, bo, flat);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out[d])
        break;
      idx[d] = 0;
    }
  }
}

/// Output size of a sliding window along one spatial dim.
Status windowOutDim(const char *op, const char *dim, int64_t in, int64_t k,
                    int64_t stride, int64_t padLo, int64_t padHi,
                    int64_t dilation, int64_t &out) {
  for (int64_t v : {k, stride, dilation})
    if (v < 1 || v > kMaxAttr)
      return makeError(op, ": kernel size, stride and dilation must be in [1, ",
                       kMaxAttr, "], got ", v, " for the ", dim);
  for (int64_t p : {padLo, padHi})
    if (p < 0 || p > kMaxAttr)
      return makeError(op, ": pads must be in [0, ", kMaxAttr, "], got ", p,
                       " for the ", dim);
  int64_t eff = dilation * (k - 1) + 1;
  int64_t padded = in + padLo + padHi;
  if (eff > padded)
    return makeError(op, ": effective kernel ", dim, " ", eff, " (kernel ", k,
                     ", dilation ", dilation, ") exceeds padded input ", dim,
                     " ", padded);
  out = (padded - eff) / stride + 1;
  return Status::success();
}

/// Shared checks of the 2-D windowed ops; fills the output spatial size.
Status checkWindow2d(const char *op, const Tensor &x,
                     const std::vector<int64_t> &kernel,
                     const std::vector<int64_t> &strides,
                     const std::vector<int64_t> &pads,
                     const std::vector<int64_t> &dilations, int64_t &oh,
                     int64_t &ow) {
  for (const Status &s :
       {checkTensor(op, "input", x), checkAttrSize(op, "kernel", kernel, 2),
        checkAttrSize(op, "strides", strides, 2),
        checkAttrSize(op, "pads", pads, 4),
        checkAttrSize(op, "dilations", dilations, 2)})
    if (!s.ok())
      return s;
  if (x.rank() != 4)
    return makeError(op, ": expected a rank 4 (nchw) input, got shape ",
                     shapeToString(x.shape));
  if (Status s = windowOutDim(op, "height", x.shape[2], kernel[0], strides[0],
                              pads[0], pads[2], dilations[0], oh);
      !s.ok())
    return s;
  if (Status s = windowOutDim(op, "width", x.shape[3], kernel[1], strides[1],
                              pads[1], pads[3], dilations[1], ow);
      !s.ok())
    return s;
  return checkOutputSize(op, {x.shape[0], x.shape[1], oh, ow});
}

} // namespace

//===----------------------------------------------------------------------===//
// matmul, linear
//===----------------------------------------------------------------------===//

Expected<Tensor> matmul(const Tensor &a, const Tensor &b) {
  for (const Status &s :
       {checkTensor("matmul", "lhs", a), checkTensor("matmul", "rhs", b),
        checkSameDType("matmul", "lhs", a, "rhs", b)})
    if (!s.ok())
      return s;
  if (a.rank() < 2 || b.rank() < 2)
    return makeError("matmul: expected operands of rank >= 2, got lhs ",
                     shapeToString(a.shape), " and rhs ",
                     shapeToString(b.shape));
  int64_t m = a.shape[a.rank() - 2], k = a.shape.back();
  int64_t n = b.shape.back();
  if (b.shape[b.rank() - 2] != k)
    return makeError("matmul: contracting dims differ: lhs ",
                     shapeToString(a.shape), " has ", k, ", rhs ",
                     shapeToString(b.shape), " has ", b.shape[b.rank() - 2]);
  std::vector<int64_t> aBatch(a.shape.begin(), a.shape.end() - 2);
  std::vector<int64_t> bBatch(b.shape.begin(), b.shape.end() - 2);
  std::optional<std::vector<int64_t>> batch = broadcastDims(aBatch, bBatch);
  if (!batch)
    return makeError("matmul: cannot broadcast batch dims of lhs ",
                     shapeToString(a.shape), " and rhs ",
                     shapeToString(b.shape));
  std::vector<int64_t> outShape = *batch;
  outShape.push_back(m);
  outShape.push_back(n);
  if (Status s = checkOutputSize("matmul", outShape); !s.ok())
    return s;
  Tensor out = Tensor::zeros(a.dtype, outShape);
  if (out.data.empty()) // Also avoids looping over a huge empty batch.
    return out;
  std::vector<double> acc(n);
  forEachBatch(aBatch, bBatch, *batch, [&](int64_t ab, int64_t bb, int64_t ob) {
    const double *pa = a.data.data() + ab * m * k;
    const double *pb = b.data.data() + bb * k * n;
    double *po = out.data.data() + ob * m * n;
    for (int64_t i = 0; i < m; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      // i-k-j order streams rows of b.
      for (int64_t kk = 0; kk < k; ++kk) {
        double aik = pa[i * k + kk];
        const double *rowB = pb + kk * n;
        for (int64_t j = 0; j < n; ++j)
          acc[j] += aik * rowB[j];
      }
      for (int64_t j = 0; j < n; ++j)
        po[i * n + j] = roundTo(a.dtype, acc[j]);
    }
  });
  return out;
}

Expected<Tensor> linear(const Tensor &x, const Tensor &w, const Tensor *bias) {
  for (const Status &s :
       {checkTensor("linear", "input", x), checkTensor("linear", "weight", w),
        checkSameDType("linear", "input", x, "weight", w)})
    if (!s.ok())
      return s;
  if (x.rank() < 1 || w.rank() != 2)
    return makeError("linear: expected input of rank >= 1 and weight of rank "
                     "2, got input ",
                     shapeToString(x.shape), " and weight ",
                     shapeToString(w.shape));
  int64_t n = w.shape[0], k = w.shape[1];
  if (x.shape.back() != k)
    return makeError("linear: input ", shapeToString(x.shape),
                     " has inner dim ", x.shape.back(), " but weight ",
                     shapeToString(w.shape), " expects ", k);
  if (bias) {
    for (const Status &s :
         {checkTensor("linear", "bias", *bias),
          checkSameDType("linear", "input", x, "bias", *bias),
          checkShape("linear", "bias", *bias, {n})})
      if (!s.ok())
        return s;
  }
  std::vector<int64_t> outShape = x.shape;
  outShape.back() = n;
  if (Status s = checkOutputSize("linear", outShape); !s.ok())
    return s;
  Tensor out = Tensor::zeros(x.dtype, outShape);
  if (out.data.empty())
    return out;
  int64_t rows = shapeNumElements(
      std::vector<int64_t>(x.shape.begin(), x.shape.end() - 1));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias ? bias->data[j] : 0.0;
      for (int64_t kk = 0; kk < k; ++kk)
        acc += x.data[r * k + kk] * w.data[j * k + kk];
      out.data[r * n + j] = roundTo(x.dtype, acc);
    }
  return out;
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

Expected<Tensor> conv2d(const Tensor &x, const Tensor &w, const Tensor *bias,
                        const std::vector<int64_t> &strides,
                        const std::vector<int64_t> &pads,
                        const std::vector<int64_t> &dilations, int64_t groups) {
  const char *op = "conv2d";
  for (const Status &s :
       {checkTensor(op, "weight", w), checkSameDType(op, "input", x, "weight", w)})
    if (!s.ok())
      return s;
  if (w.rank() != 4)
    return makeError("conv2d: expected a rank 4 (oihw) weight, got shape ",
                     shapeToString(w.shape));
  int64_t oh = 0, ow = 0;
  if (Status s = checkWindow2d(op, x, {w.shape[2], w.shape[3]}, strides, pads,
                               dilations, oh, ow);
      !s.ok())
    return s;
  int64_t batch = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  int64_t o = w.shape[0], kh = w.shape[2], kw = w.shape[3];
  if (groups < 1 || c % groups != 0 || o % groups != 0)
    return makeError("conv2d: groups ", groups, " must be >= 1 and divide ",
                     "input channels ", c, " and output channels ", o);
  int64_t cg = c / groups, og = o / groups;
  if (w.shape[1] != cg)
    return makeError("conv2d: expected weight dim 1 to be input channels / "
                     "groups = ",
                     cg, ", got weight shape ", shapeToString(w.shape));
  if (bias) {
    for (const Status &s :
         {checkTensor(op, "bias", *bias),
          checkSameDType(op, "input", x, "bias", *bias),
          checkShape(op, "bias", *bias, {o})})
      if (!s.ok())
        return s;
  }
  Tensor out = Tensor::zeros(x.dtype, {batch, o, oh, ow});
  int64_t sh = strides[0], sw = strides[1], dh = dilations[0],
          dw = dilations[1];
  double *po = out.data.data();
  for (int64_t nb = 0; nb < batch; ++nb)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t g = oc / og;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          double acc = bias ? bias->data[oc] : 0.0;
          for (int64_t ic = 0; ic < cg; ++ic) {
            const double *px =
                x.data.data() + ((nb * c + g * cg + ic) * h) * wd;
            const double *pw = w.data.data() + ((oc * cg + ic) * kh) * kw;
            for (int64_t i = 0; i < kh; ++i) {
              int64_t iy = y * sh - pads[0] + i * dh;
              if (iy < 0 || iy >= h)
                continue; // Zero padding.
              for (int64_t j = 0; j < kw; ++j) {
                int64_t ix = xx * sw - pads[1] + j * dw;
                if (ix >= 0 && ix < wd)
                  acc += px[iy * wd + ix] * pw[i * kw + j];
              }
            }
          }
          *po++ = roundTo(x.dtype, acc);
        }
    }
  return out;
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

Expected<Tensor> max_pool2d(const Tensor &x, const std::vector<int64_t> &kernel,
                            const std::vector<int64_t> &strides,
                            const std::vector<int64_t> &pads,
                            const std::vector<int64_t> &dilations) {
  int64_t oh = 0, ow = 0;
  if (Status s = checkWindow2d("max_pool2d", x, kernel, strides, pads,
                               dilations, oh, ow);
      !s.ok())
    return s;
  int64_t nc = x.shape[0] * x.shape[1], h = x.shape[2], wd = x.shape[3];
  Tensor out = Tensor::zeros(x.dtype, {x.shape[0], x.shape[1], oh, ow});
  double *po = out.data.data();
  for (int64_t p = 0; p < nc; ++p)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xx = 0; xx < ow; ++xx) {
        double m = -std::numeric_limits<double>::infinity();
        bool any = false;
        for (int64_t i = 0; i < kernel[0]; ++i) {
          int64_t iy = y * strides[0] - pads[0] + i * dilations[0];
          if (iy < 0 || iy >= h)
            continue;
          for (int64_t j = 0; j < kernel[1]; ++j) {
            int64_t ix = xx * strides[1] - pads[1] + j * dilations[1];
            if (ix < 0 || ix >= wd)
              continue;
            double v = x.data[(p * h + iy) * wd + ix];
            if (!std::isnan(m) && (std::isnan(v) || v > m))
              m = v; // NaN propagates.
            any = true;
          }
        }
        if (!any && !isFloat(x.dtype))
          return makeError("max_pool2d: window at output (", p / x.shape[1],
                           ", ", p % x.shape[1], ", ", y, ", ", xx,
                           ") covers only padding");
        *po++ = roundTo(x.dtype, m);
      }
  return out;
}

Expected<Tensor> avg_pool2d(const Tensor &x, const std::vector<int64_t> &kernel,
                            const std::vector<int64_t> &strides,
                            const std::vector<int64_t> &pads,
                            bool countIncludePad) {
  int64_t oh = 0, ow = 0;
  if (Status s = checkWindow2d("avg_pool2d", x, kernel, strides, pads, {1, 1},
                               oh, ow);
      !s.ok())
    return s;
  if (Status s = checkFloat("avg_pool2d", "input", x); !s.ok())
    return s;
  int64_t nc = x.shape[0] * x.shape[1], h = x.shape[2], wd = x.shape[3];
  Tensor out = Tensor::zeros(x.dtype, {x.shape[0], x.shape[1], oh, ow});
  double *po = out.data.data();
  for (int64_t p = 0; p < nc; ++p)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xx = 0; xx < ow; ++xx) {
        double sum = 0.0;
        int64_t count = 0;
        for (int64_t i = 0; i < kernel[0]; ++i) {
          int64_t iy = y * strides[0] - pads[0] + i;
          if (iy < 0 || iy >= h)
            continue;
          for (int64_t j = 0; j < kernel[1]; ++j) {
            int64_t ix = xx * strides[1] - pads[1] + j;
            if (ix >= 0 && ix < wd) {
              sum += x.data[(p * h + iy) * wd + ix];
              ++count;
            }
          }
        }
        // Without ceil mode every window lies inside the padded input.
        double div = countIncludePad ? double(kernel[0] * kernel[1])
                                     : double(count);
        *po++ = roundTo(x.dtype, sum / div);
      }
  return out;
}

Expected<Tensor> global_avg_pool(const Tensor &x) {
  if (Status s = checkTensor("global_avg_pool", "input", x); !s.ok())
    return s;
  if (Status s = checkFloat("global_avg_pool", "input", x); !s.ok())
    return s;
  if (x.rank() < 3)
    return makeError("global_avg_pool: expected input of rank >= 3, got shape ",
                     shapeToString(x.shape));
  std::vector<int64_t> outShape(x.rank(), 1);
  outShape[0] = x.shape[0];
  outShape[1] = x.shape[1];
  if (Status s = checkOutputSize("global_avg_pool", outShape); !s.ok())
    return s;
  Tensor out = Tensor::zeros(x.dtype, outShape);
  int64_t spatial = shapeNumElements(
      std::vector<int64_t>(x.shape.begin() + 2, x.shape.end()));
  for (size_t p = 0; p < out.data.size(); ++p) {
    double sum = 0.0;
    for (int64_t i = 0; i < spatial; ++i)
      sum += x.data[p * spatial + i];
    out.data[p] = roundTo(x.dtype, sum / double(spatial));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

Expected<Tensor> batch_norm(const Tensor &x, const Tensor &scale,
                            const Tensor &bias, const Tensor &mean,
                            const Tensor &var, double epsilon) {
  const char *op = "batch_norm";
  if (Status s = checkTensor(op, "input", x); !s.ok())
    return s;
  if (Status s = checkFloat(op, "input", x); !s.ok())
    return s;
  if (x.rank() < 2)
    return makeError("batch_norm: expected input of rank >= 2, got shape ",
                     shapeToString(x.shape));
  int64_t c = x.shape[1];
  std::pair<const char *, const Tensor *> params[] = {
      {"scale", &scale}, {"bias", &bias}, {"mean", &mean}, {"var", &var}};
  for (auto [name, t] : params)
    for (const Status &s : {checkTensor(op, name, *t),
                            checkSameDType(op, "input", x, name, *t),
                            checkShape(op, name, *t, {c})})
      if (!s.ok())
        return s;
  int64_t inner = shapeNumElements(
      std::vector<int64_t>(x.shape.begin() + 2, x.shape.end()));
  Tensor out = x;
  for (size_t i = 0; i < out.data.size(); ++i) {
    int64_t ch = (static_cast<int64_t>(i) / inner) % c;
    double y = (x.data[i] - mean.data[ch]) /
                   std::sqrt(var.data[ch] + epsilon) * scale.data[ch] +
               bias.data[ch];
    out.data[i] = roundTo(x.dtype, y);
  }
  return out;
}

Expected<Tensor> layer_norm(const Tensor &x, const Tensor &scale,
                            const Tensor *bias, int64_t axis, double epsilon) {
  const char *op = "layer_norm";
  if (Status s = checkTensor(op, "input", x); !s.ok())
    return s;
  if (Status s = checkFloat(op, "input", x); !s.ok())
    return s;
  if (Status s = normalizeAxis(op, axis, x.rank()); !s.ok())
    return s;
  std::vector<int64_t> normShape(x.shape.begin() + axis, x.shape.end());
  for (const Status &s : {checkTensor(op, "scale", scale),
                          checkSameDType(op, "input", x, "scale", scale),
                          checkShape(op, "scale", scale, normShape)})
    if (!s.ok())
      return s;
  if (bias)
    for (const Status &s : {checkTensor(op, "bias", *bias),
                            checkSameDType(op, "input", x, "bias", *bias),
                            checkShape(op, "bias", *bias, normShape)})
      if (!s.ok())
        return s;
  int64_t inner = shapeNumElements(normShape);
  Tensor out = x;
  if (inner == 0)
    return out;
  int64_t outer = static_cast<int64_t>(x.data.size()) / inner;
  for (int64_t r = 0; r < outer; ++r) {
    const double *px = x.data.data() + r * inner;
    double mean = 0.0, var = 0.0;
    for (int64_t i = 0; i < inner; ++i)
      mean += px[i];
    mean /= double(inner);
    for (int64_t i = 0; i < inner; ++i)
      var += (px[i] - mean) * (px[i] - mean);
    var /= double(inner);
    double inv = 1.0 / std::sqrt(var + epsilon);
    for (int64_t i = 0; i < inner; ++i) {
      double y = (px[i] - mean) * inv * scale.data[i];
      if (bias)
        y += bias->data[i];
      out.data[r * inner + i] = roundTo(x.dtype, y);
    }
  }
  return out;
}

Expected<Tensor> softmax(const Tensor &x, int64_t axis) {
  if (Status s = checkTensor("softmax", "input", x); !s.ok())
    return s;
  if (Status s = checkFloat("softmax", "input", x); !s.ok())
    return s;
  if (Status s = normalizeAxis("softmax", axis, x.rank()); !s.ok())
    return s;
  int64_t dim = x.shape[axis];
  int64_t inner = shapeNumElements(
      std::vector<int64_t>(x.shape.begin() + axis + 1, x.shape.end()));
  int64_t outer = shapeNumElements(
      std::vector<int64_t>(x.shape.begin(), x.shape.begin() + axis));
  Tensor out = x;
  if (out.data.empty())
    return out;
  std::vector<double> e(dim);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * dim * inner + in;
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < dim; ++i)
        m = std::max(m, x.data[base + i * inner]);
      double sum = 0.0;
      for (int64_t i = 0; i < dim; ++i)
        sum += e[i] = std::exp(x.data[base + i * inner] - m);
      for (int64_t i = 0; i < dim; ++i)
        out.data[base + i * inner] = roundTo(x.dtype, e[i] / sum);
    }
  return out;
}

} // namespace dlc::ref
