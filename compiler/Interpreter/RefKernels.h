//===- RefKernels.h - Reference kernels of the dlc interpreter ------------===//
//
// One function per op, named like the op. Every kernel computes and
// accumulates in double and rounds each output element once to the result
// dtype (roundTo). Kernels never abort: bad shapes, attributes or dtypes give
// an error whose message starts with the op name, e.g.
//   "matmul: contracting dims differ: lhs [2,3] has 3, rhs [4,5] has 4".
// Optional operands are passed as pointers; nullptr means absent.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_INTERPRETER_REFKERNELS_H
#define DLC_INTERPRETER_REFKERNELS_H

#include "Interpreter/RefTensor.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlc::ref {

//===--- Binary elementwise (NumPy broadcasting, result dtype = lhs) ------===//
// Both operands must have the same dtype. Integer dtypes are computed in exact
// int64 arithmetic and wrapped; integer div truncates toward zero and division
// by zero is an error; integer pow with a negative exponent is an error.
// max/min propagate NaN.

Expected<Tensor> add(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> sub(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> mul(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> div(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> pow(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> max(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> min(const Tensor &lhs, const Tensor &rhs);

/// `lhs <predicate> rhs` with predicate eq, ne, lt, le, gt or ge; operands of
/// one dtype, broadcast; an I1 result. NaN compares false except under ne.
Expected<Tensor> compare(const std::string &predicate, const Tensor &lhs,
                         const Tensor &rhs);
/// condition ? trueValue : falseValue; an I1 condition, values of one dtype,
/// the three shapes broadcast.
Expected<Tensor> select(const Tensor &condition, const Tensor &trueValue,
                        const Tensor &falseValue);

/// Shape of broadcasting `lhs` with `rhs` (NumPy rules), or an error naming
/// `opName`.
Expected<std::vector<int64_t>> broadcastShapes(const char *opName,
                                               const std::vector<int64_t> &lhs,
                                               const std::vector<int64_t> &rhs);

//===--- Unary elementwise ------------------------------------------------===//
// neg, abs, relu and clip accept every dtype; the others need a float dtype.

Expected<Tensor> neg(const Tensor &x);
Expected<Tensor> abs(const Tensor &x);
Expected<Tensor> exp(const Tensor &x);
Expected<Tensor> log(const Tensor &x);
Expected<Tensor> sqrt(const Tensor &x);
Expected<Tensor> rsqrt(const Tensor &x);
Expected<Tensor> tanh(const Tensor &x);
Expected<Tensor> sigmoid(const Tensor &x);
Expected<Tensor> erf(const Tensor &x);
/// The remainders of lhs / rhs (broadcast): truncated (C's fmod and %, the
/// sign of lhs) and floored (Python's %, the sign of rhs); an integer rhs of
/// 0 is an error.
Expected<Tensor> rem(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> mod(const Tensor &lhs, const Tensor &rhs);
/// Integer shifts by rhs bits (broadcast); by the width or more, or by a
/// negative amount: 0, or the sign for a right shift of a signed type.
Expected<Tensor> shift_left(const Tensor &lhs, const Tensor &rhs);
Expected<Tensor> shift_right(const Tensor &lhs, const Tensor &rhs);
/// The elementwise functions named by their dlc mnemonic: sin, cos, tan,
/// asin, acos, atan, sinh, cosh, asinh, acosh, atanh, ceil, floor, round
/// (ties to even) on floats; sign on any numeric type (NaN stays NaN).
Expected<Tensor> unaryFunction(std::string_view name, const Tensor &x);
Expected<Tensor> relu(const Tensor &x);
/// Exact: 0.5x(1+erf(x/sqrt2)); approximateTanh:
/// 0.5x(1+tanh(sqrt(2/pi)(x+0.044715x^3))).
Expected<Tensor> gelu(const Tensor &x, bool approximateTanh);
/// min(max(x, min), max); error if min > max.
Expected<Tensor> clip(const Tensor &x, double min, double max);

//===--- Linear algebra and convolution ------------------------------------===//

/// NumPy matmul for rank >= 2: a [..., M, K], b [..., K, N] -> [..., M, N];
/// batch dims broadcast.
Expected<Tensor> matmul(const Tensor &a, const Tensor &b);
/// x [..., K], w [N, K], bias [N] -> [..., N] = x * w^T + bias.
Expected<Tensor> linear(const Tensor &x, const Tensor &w,
                        const Tensor *bias = nullptr);
/// NCHW. x [N, C, H, W], w [O, C/groups, KH, KW], bias [O].
/// strides {sh, sw}, pads {top, left, bottom, right}, dilations {dh, dw}.
Expected<Tensor> conv2d(const Tensor &x, const Tensor &w, const Tensor *bias,
                        const std::vector<int64_t> &strides,
                        const std::vector<int64_t> &pads,
                        const std::vector<int64_t> &dilations, int64_t groups);

//===--- Pooling (NCHW) ---------------------------------------------------===//

/// Padding never wins (it is -inf). A window that covers only padding gives
/// -inf for floats and an error for integer dtypes.
Expected<Tensor> max_pool2d(const Tensor &x, const std::vector<int64_t> &kernel,
                            const std::vector<int64_t> &strides,
                            const std::vector<int64_t> &pads,
                            const std::vector<int64_t> &dilations);
/// Divides by KH*KW when countIncludePad, else by the number of non-padding
/// elements in the window (0/0 = NaN). Float dtypes only.
Expected<Tensor> avg_pool2d(const Tensor &x, const std::vector<int64_t> &kernel,
                            const std::vector<int64_t> &strides,
                            const std::vector<int64_t> &pads,
                            bool countIncludePad);
/// [N, C, d1, ...] -> [N, C, 1, ...] (rank >= 3). Float dtypes only.
Expected<Tensor> global_avg_pool(const Tensor &x);

//===--- Normalisation ----------------------------------------------------===//
// Float dtypes only. Parameters must have the dtype of x.

/// Inference: (x - mean) / sqrt(var + epsilon) * scale + bias along axis 1.
/// x rank >= 2; scale, bias, mean, var have shape [C].
Expected<Tensor> batch_norm(const Tensor &x, const Tensor &scale,
                            const Tensor &bias, const Tensor &mean,
                            const Tensor &var, double epsilon);
/// Normalises over dims [axis, rank) with the biased variance. scale/bias have
/// shape x.shape[axis:]. axis in [-rank, rank).
Expected<Tensor> layer_norm(const Tensor &x, const Tensor &scale,
                            const Tensor *bias, int64_t axis, double epsilon);
/// exp(x - max) / sum along `axis` in [-rank, rank).
Expected<Tensor> softmax(const Tensor &x, int64_t axis);

//===--- Reductions -------------------------------------------------------===//
// axes in [-rank, rank), no duplicates; empty axes reduce all axes.
// reduce_max of zero elements is -inf (error for integers); reduce_mean of
// zero elements is NaN (error for integers). Integer means truncate.

Expected<Tensor> reduce_sum(const Tensor &x, const std::vector<int64_t> &axes,
                            bool keepdims);
Expected<Tensor> reduce_mean(const Tensor &x, const std::vector<int64_t> &axes,
                             bool keepdims);
Expected<Tensor> reduce_max(const Tensor &x, const std::vector<int64_t> &axes,
                            bool keepdims);
/// Of zero elements 1. Integers multiply in wrapping 64-bit arithmetic,
/// wrapped to their width (exact up to 32 bits).
Expected<Tensor> reduce_prod(const Tensor &x, const std::vector<int64_t> &axes,
                             bool keepdims);

//===--- Data movement ----------------------------------------------------===//

/// out.shape[i] = x.shape[perm[i]].
Expected<Tensor> transpose(const Tensor &x, const std::vector<int64_t> &perm);
/// Fully static: no -1, same element count.
Expected<Tensor> reshape(const Tensor &x, const std::vector<int64_t> &newShape);
/// Same dtype and rank, dims equal except `axis` (negative allowed).
Expected<Tensor> concat(const std::vector<Tensor> &inputs, int64_t axis);
/// One entry per dim; steps > 0; starts/ends in [0, dim];
/// out dim = max(0, ceil((end - start) / step)).
Expected<Tensor> slice(const Tensor &x, const std::vector<int64_t> &starts,
                       const std::vector<int64_t> &ends,
                       const std::vector<int64_t> &steps);
/// Sizes are >= 0 and sum to x.shape[axis] (negative axis allowed).
Expected<std::vector<Tensor>> split(const Tensor &x, int64_t axis,
                                    const std::vector<int64_t> &sizes);
/// ONNX Gather: out shape = data.shape[:axis] + indices.shape +
/// data.shape[axis+1:]. indices are i32/i64; negative indices count from the
/// end; an index outside [-dim, dim) is an error.
/// ONNX GatherElements: out has the indices' shape; out[i..j..k] =
/// data[i..indices[i..j..k]..k] at `axis`; an index outside [-dim, dim) is
/// an error.
Expected<Tensor> gatherElements(const Tensor &data, const Tensor &indices, int64_t axis);
/// ONNX ScatterElements: data with, for each element of `updates` in
/// row-major order, the element at its coordinates with `indices`' value at
/// `axis` combined by `reduction` ("none": replaced; "add", "mul", "max",
/// "min"). `indices` dimensions of size 1 broadcast over the updates'. An
/// index outside [-dim, dim) is an error.
Expected<Tensor> scatterElements(const Tensor &data, const Tensor &indices,
                                 const Tensor &updates, int64_t axis,
                                 const std::string &reduction);
/// ONNX TopK, always sorted: the k largest (smallest) along `axis`, best
/// first, and their indices (i64); ties keep the lower index first; NaN is
/// larger than every number.
Expected<std::vector<Tensor>> topK(const Tensor &x, int64_t axis, int64_t k, bool largest);
Expected<Tensor> gather(const Tensor &data, const Tensor &indices,
                        int64_t axis);
/// Rounds every element to `to`. Float -> i32/i64 truncates toward zero
/// (then wraps); NaN/inf or a value outside the int64 range is an error.
/// To i1: x != 0.
Expected<Tensor> cast(const Tensor &x, DType to);

} // namespace dlc::ref

#endif // DLC_INTERPRETER_REFKERNELS_H
