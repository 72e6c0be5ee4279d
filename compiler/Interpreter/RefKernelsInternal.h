//===- RefKernelsInternal.h - Helpers shared by the kernel files ----------===//
//
// Private to compiler/Interpreter; not part of the public API.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_INTERPRETER_REFKERNELSINTERNAL_H
#define DLC_INTERPRETER_REFKERNELSINTERNAL_H

#include "Interpreter/RefTensor.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc::ref::detail {

/// Checks a tensor is well formed; the error names the op and operand.
Status checkTensor(const char *op, const char *operand, const Tensor &t);

/// Requires a float dtype.
Status checkFloat(const char *op, const char *operand, const Tensor &t);

/// Requires `b` to have the dtype of `a`.
Status checkSameDType(const char *op, const char *aName, const Tensor &a,
                      const char *bName, const Tensor &b);

/// Requires t.shape == shape.
Status checkShape(const char *op, const char *operand, const Tensor &t,
                  const std::vector<int64_t> &shape);

/// Requires attr.size() == size.
Status checkAttrSize(const char *op, const char *attr,
                     const std::vector<int64_t> &values, size_t size);

/// Maps axis in [-rank, rank) to [0, rank), or fails.
Status normalizeAxis(const char *op, int64_t &axis, int64_t rank);

/// Largest output, in elements, a kernel allocates; guards against absurd
/// shapes built from zero-sized inputs or attributes.
constexpr int64_t kMaxOutputElements = int64_t(1) << 31;

/// Fails when `shape` has more than kMaxOutputElements elements (or
/// overflows).
Status checkOutputSize(const char *op, const std::vector<int64_t> &shape);

/// NumPy broadcast of two shapes without any size limit; nullopt when
/// incompatible.
std::optional<std::vector<int64_t>>
broadcastDims(const std::vector<int64_t> &lhs, const std::vector<int64_t> &rhs);

/// A scatter's way of combining an update with the element it lands on.
enum class Reduction { None, Add, Mul, Max, Min };
/// "none", "add", "mul", "max", "min"; nullopt for anything else.
std::optional<Reduction> parseReduction(const std::string &name);
/// reduction(acc, update) in `type`'s arithmetic, as the binary ops compute
/// it (None: the update).
double combineElement(Reduction reduction, DType type, double acc, double update);

/// Rounds every element of `t` in place to its dtype.
void roundAll(Tensor &t);

} // namespace dlc::ref::detail

#endif // DLC_INTERPRETER_REFKERNELSINTERNAL_H
