//===- OnnxResize.cpp - Resize and Upsample as gathers and weighted sums --===//
//
// Resize is separable: along each resized axis, output position j reads T
// taps of the input (1 for nearest, 2 for linear, 4 for cubic) at constant
// indices with constant weights, both known at import time from the static
// shapes. So each axis becomes T dlc.gather ops along it, each scaled by a
// constant weight column, summed: ops every device already has, on every
// element type (nearest needs no arithmetic at all). The taps follow ONNX's
// reference implementation (onnx/reference/ops/op_resize.py): the neighbours
// of the source coordinate x are ceil(x) - 1 + {0, 1} (linear, nearest) or
// + {-1 .. 2} (cubic), out-of-range neighbours take the edge's value, and an
// integral x reads exactly the element at x.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "compiler/Interpreter/Interpreter.h"
#include "dialects/dlc/DlcOps.h"

#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;
using ref::Tensor;

namespace {

struct ResizeAttrs {
  std::string mode = "nearest", transform = "half_pixel", nearestMode = "round_prefer_floor";
  double cubicA = -0.75, extrapolation = 0;
  bool excludeOutside = false, antialias = false;
};

/// One resized axis: its input and output lengths, the scale of the
/// coordinate transform, and (tf_crop_and_resize) the region of interest.
struct AxisResize {
  int64_t in, out;
  double scale, roiStart = 0, roiEnd = 1;
};

/// The taps of every output position along one axis.
struct AxisTaps {
  int64_t count = 1;                       // taps per position
  std::vector<std::vector<int64_t>> index; // [tap][position], within [0, in)
  std::vector<std::vector<double>> weight; // [tap][position]
  std::vector<bool> extrapolated;          // tf_crop_and_resize outside the input
};

/// The input coordinate that output position `x` maps to
/// (coordinate_transformation_mode). As in ONNX's reference, the output
/// length in the formulas is in * scale, unrounded (the integral length only
/// where sizes were given).
double sourceCoordinate(const ResizeAttrs &a, const AxisResize &r, int64_t x) {
  double in = double(r.in), out = in * r.scale, xf = double(x);
  const std::string &t = a.transform;
  if (t == "half_pixel_symmetric") {
    double adjust = double(r.out) / out, center = in / 2;
    return center * (1 - adjust) + (xf + 0.5) / r.scale - 0.5;
  }
  if (t == "pytorch_half_pixel")
    return out > 1 ? (xf + 0.5) / r.scale - 0.5 : 0;
  if (t == "align_corners")
    return out == 1 ? 0 : xf * (in - 1) / (out - 1);
  if (t == "asymmetric")
    return xf / r.scale;
  if (t == "tf_half_pixel_for_nn")
    return (xf + 0.5) / r.scale;
  if (t == "tf_crop_and_resize")
    return out > 1 ? r.roiStart * (in - 1) + xf * (r.roiEnd - r.roiStart) * (in - 1) / (out - 1)
                   : 0.5 * (r.roiStart + r.roiEnd) * (in - 1);
  return (xf + 0.5) / r.scale - 0.5; // half_pixel
}

/// The taps of source coordinate x: ceil(x) - 1 + first, + first + 1, ...
/// with their weights, for ratio = x - (ceil(x) - 1) in (0, 1] (1 where x is
/// integral). Antialiased shrinking (by `scale` < 1) stretches the linear or
/// cubic filter by 1 / scale, over more taps, normalised.
struct TapWeights {
  int64_t first;
  std::vector<double> weight;
};

double cubicKernel(double x, double A) {
  x = std::fabs(x);
  if (x <= 1)
    return ((A + 2) * x - (A + 3)) * x * x + 1;
  if (x < 2)
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return 0;
}

TapWeights tapWeights(const ResizeAttrs &a, double ratio, double scale) {
  if (a.mode == "nearest") {
    bool upper = ratio == 1 || a.nearestMode == "ceil" ||
                 (a.nearestMode == "round_prefer_ceil" && ratio >= 0.5) ||
                 (a.nearestMode == "round_prefer_floor" && ratio > 0.5);
    return {0, {upper ? 0.0 : 1.0, upper ? 1.0 : 0.0}};
  }
  bool cubic = a.mode == "cubic";
  double stretch = a.antialias ? std::min(scale, 1.0) : 1.0, reach = cubic ? 2 : 1;
  int64_t first = int64_t(std::floor(-reach / stretch) + 1), last = int64_t(2 * reach) - first;
  TapWeights taps{first, {}};
  double total = 0;
  for (int64_t k = first; k < last; ++k) {
    double d = stretch * (double(k) - ratio);
    double w = cubic ? cubicKernel(d, a.cubicA) : std::max(0.0, 1 - std::fabs(d));
    taps.weight.push_back(w);
    total += w;
  }
  if (a.antialias)
    for (double &w : taps.weight)
      w /= total;
  return taps;
}

AxisTaps planAxis(const ResizeAttrs &a, const AxisResize &r) {
  AxisTaps taps;
  bool nearest = a.mode == "nearest";
  int64_t span = int64_t(tapWeights(a, 1, r.scale).weight.size());
  taps.count = nearest ? 1 : span;
  taps.index.assign(taps.count, std::vector<int64_t>(r.out));
  taps.weight.assign(taps.count, std::vector<double>(r.out));
  taps.extrapolated.assign(r.out, false);
  for (int64_t j = 0; j < r.out; ++j) {
    double x = sourceCoordinate(a, r, j);
    taps.extrapolated[j] = a.transform == "tf_crop_and_resize" && (x < 0 || x > double(r.in - 1));
    double base = std::ceil(x) - 1;
    TapWeights tw = tapWeights(a, x - base, r.scale);
    std::vector<double> &w = tw.weight;
    std::vector<int64_t> at(span);
    double kept = 0;
    for (int64_t t = 0; t < span; ++t) {
      at[t] = int64_t(base) + tw.first + t;
      if (a.excludeOutside && !nearest && (at[t] < 0 || at[t] >= r.in))
        w[t] = 0;
      kept += w[t];
      at[t] = std::clamp<int64_t>(at[t], 0, r.in - 1);
    }
    if (nearest) {
      taps.index[0][j] = w[0] == 1 ? at[0] : at[1];
      taps.weight[0][j] = 1;
      continue;
    }
    for (int64_t t = 0; t < span; ++t) {
      taps.index[t][j] = at[t];
      taps.weight[t][j] = kept != 0 ? w[t] / kept : 0;
    }
  }
  return taps;
}

/// `v` resized along `axis`: the sum over taps of a gather times its weight
/// column; extrapolated positions take `extrapolation`.
Value resizeAxis(GraphImporter &g, Value v, int64_t axis, const AxisTaps &taps, double extrapolation) {
  RankedTensorType vt = GraphImporter::typeOf(v);
  Type element = vt.getElementType();
  int64_t out = int64_t(taps.extrapolated.size()), rank = vt.getRank();
  SmallVector<int64_t> shape(vt.getShape());
  shape[axis] = out;
  std::vector<int64_t> column(rank, 1);
  column[axis] = out;
  ref::DType dtype = *refDTypeOf(element);
  bool anyExtrapolated = llvm::is_contained(taps.extrapolated, true);
  Value sum;
  for (int64_t t = 0; t < taps.count; ++t) {
    std::vector<double> index(taps.index[t].begin(), taps.index[t].end());
    Value indices = g.constant(Tensor::fromValues(ref::DType::I64, {out}, index));
    Value tap = g.make<GatherOp>(g.tensorType(shape, element), v, indices, g.builder.getI64IntegerAttr(axis),
                                 DeviceAttr());
    if (taps.count > 1 || anyExtrapolated) {
      std::vector<double> w = taps.weight[t];
      for (int64_t j = 0; j < out; ++j)
        if (taps.extrapolated[j])
          w[j] = 0;
      tap = g.make<MulOp>(tap, g.constant(Tensor::fromValues(dtype, column, w)));
    }
    sum = sum ? g.make<AddOp>(sum, tap) : tap;
  }
  if (anyExtrapolated) {
    std::vector<double> fill(out);
    for (int64_t j = 0; j < out; ++j)
      fill[j] = taps.extrapolated[j] ? extrapolation : 0;
    sum = g.make<AddOp>(sum, g.constant(Tensor::fromValues(dtype, column, fill)));
  }
  return sum;
}

/// Fills `axes` (the resized axes, ONNX's `axes` or all) and their lengths and
/// scales from the scales or sizes input; a failure has been reported.
LogicalResult resizeTargets(GraphImporter &g, ResizeAttrs &attrs, std::vector<int64_t> &axes,
                            std::vector<AxisResize> &targets) {
  RankedTensorType t = g.type(0);
  int64_t rank = t.getRank();
  bool legacy = g.opset < 11; // Upsample, Resize-10: (X, scales)
  size_t scalesInput = legacy ? 1 : 2, sizesInput = 3;
  std::optional<std::vector<int64_t>> listed = legacy ? std::nullopt : g.attrInts("axes");
  axes.clear();
  for (int64_t a = 0; a < rank; ++a)
    axes.push_back(a);
  if (listed) {
    axes.clear();
    for (int64_t a : *listed) {
      int64_t n = normAxis(a, rank);
      if (n < 0 || n >= rank)
        return g.fail("axis " + std::to_string(a) + " out of range");
      axes.push_back(n);
    }
  }
  std::optional<Tensor> sizes, scales;
  if (g.has(sizesInput) && !legacy) {
    if (!(sizes = g.requireConst(sizesInput, "the sizes")))
      return failure();
    if (sizes->data.empty())
      sizes.reset();
  }
  if (!sizes && legacy && !g.has(scalesInput) && g.attr("scales")) { // Upsample-7
    const onnx::AttributeProto *a = g.attr("scales");
    std::vector<double> values(a->floats().begin(), a->floats().end());
    scales = Tensor::fromValues(ref::DType::F32, {int64_t(values.size())}, values);
  } else if (!sizes) {
    if (!g.has(scalesInput))
      return g.fail("needs scales or sizes");
    if (!(scales = g.requireConst(scalesInput, "the scales")))
      return failure();
  }
  const std::vector<double> &given = sizes ? sizes->data : scales->data;
  if (given.size() != axes.size())
    return g.fail(std::string(sizes ? "sizes" : "scales") + " has " + std::to_string(given.size()) +
                  " values for " + std::to_string(axes.size()) + " axes");
  // keep_aspect_ratio_policy: one scale for every resized axis, the largest
  // that fits within the sizes (not_larger) or the smallest that covers them
  // (not_smaller); the lengths are then rounded (half to even, as NumPy).
  std::string policy = g.attrString("keep_aspect_ratio_policy", "stretch");
  if (sizes && policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return g.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
  std::optional<double> commonScale;
  if (sizes && policy != "stretch")
    for (size_t i = 0; i < axes.size(); ++i) {
      double s = given[i] / double(t.getDimSize(axes[i]));
      if (!commonScale || (policy == "not_larger" ? s < *commonScale : s > *commonScale))
        commonScale = s;
    }
  std::optional<Tensor> roi;
  if (attrs.transform == "tf_crop_and_resize") {
    if (!(roi = g.requireConst(1, "the roi")))
      return failure();
    if (roi->data.size() != 2 * axes.size() && roi->data.size() != size_t(2 * rank))
      return g.fail("roi has " + std::to_string(roi->data.size()) + " values, not 2 per axis");
  }
  targets.clear();
  for (size_t i = 0; i < axes.size(); ++i) {
    AxisResize r;
    r.in = t.getDimSize(axes[i]);
    if (commonScale) {
      r.scale = *commonScale;
      r.out = int64_t(std::nearbyint(*commonScale * double(r.in)));
    } else if (sizes) {
      r.out = int64_t(given[i]);
      r.scale = double(r.out) / double(r.in);
    } else {
      r.scale = given[i];
      r.out = int64_t(std::floor(double(r.in) * r.scale));
    }
    if (r.out <= 0 || r.scale <= 0)
      return g.unsupported("an axis resized to nothing");
    if (roi) {
      size_t n = roi->data.size() / 2, at = n == axes.size() ? i : size_t(axes[i]);
      r.roiStart = roi->data[at];
      r.roiEnd = roi->data[at + n];
    }
    targets.push_back(r);
  }
  return success();
}

LogicalResult convertResize(GraphImporter &g, Outputs &out) {
  ResizeAttrs attrs;
  attrs.mode = g.attrString("mode", "nearest");
  if (g.opset < 11) { // Upsample and Resize-10: asymmetric, nearest rounds down
    attrs.transform = "asymmetric";
    attrs.nearestMode = "floor";
  } else {
    attrs.transform = g.attrString("coordinate_transformation_mode", "half_pixel");
    attrs.nearestMode = g.attrString("nearest_mode", "round_prefer_floor");
    attrs.cubicA = g.attrFloat("cubic_coeff_a", -0.75);
    attrs.excludeOutside = g.attrInt("exclude_outside", 0) != 0;
    attrs.extrapolation = g.attrFloat("extrapolation_value", 0);
    attrs.antialias = g.attrInt("antialias", 0) != 0;
  }
  if (attrs.mode == "bilinear" || attrs.mode == "trilinear") // Upsample-7's names
    attrs.mode = "linear";
  if (attrs.mode != "nearest" && attrs.mode != "linear" && attrs.mode != "cubic")
    return g.fail("unknown mode '" + attrs.mode + "'");
  static const char *transforms[] = {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                                     "align_corners", "asymmetric", "tf_half_pixel_for_nn",
                                     "tf_crop_and_resize"};
  if (!llvm::is_contained(transforms, attrs.transform))
    return g.fail("unknown coordinate_transformation_mode '" + attrs.transform + "'");
  static const char *nearestModes[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  if (!llvm::is_contained(nearestModes, attrs.nearestMode))
    return g.fail("unknown nearest_mode '" + attrs.nearestMode + "'");
  RankedTensorType t = g.type(0);
  if (attrs.mode != "nearest" && !isa<FloatType>(t.getElementType()))
    return g.unsupported(attrs.mode + " resizing of integers");
  std::vector<int64_t> axes;
  std::vector<AxisResize> targets;
  if (failed(resizeTargets(g, attrs, axes, targets)))
    return failure();
  Value v = g.input(0);
  for (size_t i = 0; i < axes.size(); ++i) {
    const AxisResize &r = targets[i];
    bool identity = r.out == r.in && attrs.transform != "tf_crop_and_resize" &&
                    sourceCoordinate(attrs, r, 0) == 0 && sourceCoordinate(attrs, r, r.out - 1) == double(r.in - 1);
    if (!identity)
      v = resizeAxis(g, v, axes[i], planAxis(attrs, r), attrs.extrapolation);
  }
  out.push_back(v);
  return success();
}

} // namespace

void dlc::onnx_import::addResizeConverters(llvm::StringMap<Converter> &t) {
  t["Resize"] = convertResize;
  t["Upsample"] = convertResize;
}
