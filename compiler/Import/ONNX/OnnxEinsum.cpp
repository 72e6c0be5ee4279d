//===- OnnxEinsum.cpp - Einsum as transposes, reshapes and matmuls ---------===//
//
// Each operand is first reduced on its own: a repeated letter takes the
// diagonal (a mask of the diagonal, then a sum over one of the two axes), a
// letter no other operand and not the output has is summed away. Then the
// operands are folded left to right in pairs as one batched matmul: letters
// both keep and the rest need are the batch, letters both have and nothing
// later needs are contracted, the others are the rows and the columns
// ([batch, rows, k] x [batch, k, columns], reshaped and transposed into
// place). A last transpose puts the letters in the output's order. "..."
// stands for the leading dimensions, named by letters the equation does not
// use; broadcasting between operands of different sizes is not done.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "compiler/Interpreter/Interpreter.h"
#include "dialects/dlc/DlcOps.h"

#include <algorithm>
#include <cctype>
#include <map>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;
using ref::Tensor;

namespace {

/// An operand with one letter per dimension.
struct Labelled {
  Value value;
  std::string letters;
};

/// The letters for "..." (from '0' on: the equation uses letters only).
std::string ellipsisLetters(size_t count) {
  std::string s;
  for (size_t i = 0; i < count; ++i)
    s += char('0' + i);
  return s;
}

/// The dimensions "..." stands for in `term` of an operand of rank `rank`.
int64_t ellipsisRank(StringRef term, int64_t rank) {
  return term.contains("...") ? rank - int64_t(term.size() - 3) : 0;
}

/// `term` with "..." expanded to the last `count` of the `widest` ellipsis
/// letters (right-aligned, as broadcasting aligns); a failure has been
/// reported where it does not fit `rank` (-1: the output, any rank).
std::optional<std::string> expandTerm(GraphImporter &g, StringRef term, int64_t rank, int64_t widest) {
  std::string letters = term.str();
  size_t dots = term.find("...");
  if (dots != StringRef::npos) {
    letters.erase(dots, 3);
    int64_t count = rank < 0 ? widest : rank - int64_t(letters.size());
    if (count < 0) {
      (void)g.fail("the term '" + term + "' has more letters than its operand has dimensions");
      return std::nullopt;
    }
    letters.insert(dots, ellipsisLetters(size_t(widest)).substr(size_t(widest - count)));
  }
  for (char c : letters)
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      (void)g.fail("the equation has '" + std::string(1, c) + "'");
      return std::nullopt;
    }
  if (rank >= 0 && int64_t(letters.size()) != rank) {
    (void)g.fail("the term '" + term + "' names " + std::to_string(letters.size()) +
                 " dimensions of an operand of rank " + std::to_string(rank));
    return std::nullopt;
  }
  return letters;
}

/// `x` with its first repeated letter's diagonal taken, until none repeats.
Labelled takeDiagonals(GraphImporter &g, Labelled x) {
  for (size_t i = 0; i < x.letters.size(); ++i) {
    size_t j = x.letters.find(x.letters[i], i + 1);
    if (j == std::string::npos)
      continue;
    RankedTensorType t = GraphImporter::typeOf(x.value);
    int64_t n = t.getDimSize(i), rank = t.getRank();
    std::vector<int64_t> shape(rank, 1);
    shape[i] = shape[j] = n;
    std::vector<double> eye(n * n, 0);
    for (int64_t k = 0; k < n; ++k)
      eye[k * n + k] = 1;
    Value mask = g.constant(Tensor::fromValues(*refDTypeOf(t.getElementType()), shape, eye));
    x.value = reduce(g, "sum", g.make<MulOp>(x.value, mask), {int64_t(j)}, false);
    x.letters.erase(j, 1);
    --i; // The letter may repeat a third time.
  }
  return x;
}

/// `x` with the letters not in `keep` summed away.
Labelled sumAway(GraphImporter &g, Labelled x, StringRef keep) {
  SmallVector<int64_t> axes;
  std::string kept;
  for (size_t i = 0; i < x.letters.size(); ++i) {
    if (keep.contains(x.letters[i]))
      kept += x.letters[i];
    else
      axes.push_back(int64_t(i));
  }
  if (!axes.empty())
    x = {reduce(g, "sum", x.value, axes, false), kept};
  return x;
}

/// `x` transposed so that its letters read `order`.
Value arrange(GraphImporter &g, const Labelled &x, StringRef order) {
  SmallVector<int64_t> perm;
  for (char c : order)
    perm.push_back(int64_t(x.letters.find(c)));
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto p) { return p.value() == int64_t(p.index()); });
  return identity ? x.value : transposed(g, x.value, perm);
}

/// The product of a and b keeping the letters in `keep` (each operand has
/// already lost the letters only it has and nothing needs).
FailureOr<Labelled> contractPair(GraphImporter &g, const Labelled &a, const Labelled &b, StringRef keep) {
  std::string batch, rows, columns, inner;
  for (char c : a.letters)
    (b.letters.find(c) == std::string::npos ? rows : keep.contains(c) ? batch : inner) += c;
  for (char c : b.letters)
    if (a.letters.find(c) == std::string::npos)
      columns += c;
  RankedTensorType at = GraphImporter::typeOf(a.value), bt = GraphImporter::typeOf(b.value);
  auto size = [&](const Labelled &x, RankedTensorType t, StringRef letters) {
    int64_t n = 1;
    for (char c : letters)
      n *= t.getDimSize(x.letters.find(c));
    return n;
  };
  for (char c : batch + inner)
    if (at.getDimSize(a.letters.find(c)) != bt.getDimSize(b.letters.find(c)))
      return g.unsupported("operands whose '" + std::string(1, c) + "' dimensions differ (broadcasting)");
  int64_t nb = size(a, at, batch), m = size(a, at, rows), k = size(a, at, inner), n = size(b, bt, columns);
  Value lhs = g.reshape(arrange(g, a, batch + rows + inner), {nb, m, k});
  Value rhs = g.reshape(arrange(g, b, batch + inner + columns), {nb, k, n});
  Value product = g.make<MatmulOp>(g.tensorType({nb, m, n}, at.getElementType()), lhs, rhs, DeviceAttr());
  SmallVector<int64_t> shape;
  for (char c : batch + rows)
    shape.push_back(at.getDimSize(a.letters.find(c)));
  for (char c : columns)
    shape.push_back(bt.getDimSize(b.letters.find(c)));
  return Labelled{g.reshape(product, shape), batch + rows + columns};
}

/// The operands with their letters and the output's letters from the
/// equation; a failure has been reported.
LogicalResult parseEquation(GraphImporter &g, std::vector<Labelled> &operands, std::string &result) {
  std::string equation = g.attrString("equation", "");
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  size_t arrow = equation.find("->");
  SmallVector<StringRef> terms;
  StringRef(equation).substr(0, arrow).split(terms, ',');
  if (terms.size() != g.numInputs())
    return g.fail("the equation '" + equation + "' has " + std::to_string(terms.size()) + " terms for " +
                  std::to_string(g.numInputs()) + " inputs");
  int64_t widest = 0;
  for (size_t i = 0; i < terms.size(); ++i)
    widest = std::max(widest, ellipsisRank(terms[i], g.type(i).getRank()));
  for (size_t i = 0; i < terms.size(); ++i) {
    std::optional<std::string> letters = expandTerm(g, terms[i], g.type(i).getRank(), widest);
    if (!letters)
      return failure();
    operands.push_back({g.input(i), *letters});
  }
  if (arrow != std::string::npos) {
    std::optional<std::string> letters = expandTerm(g, StringRef(equation).substr(arrow + 2), -1, widest);
    if (!letters)
      return failure();
    result = *letters;
  } else { // Implicit: the ellipsis, then the letters used once, in order.
    std::map<char, int> uses;
    for (const Labelled &o : operands)
      for (char c : o.letters)
        ++uses[c];
    result = ellipsisLetters(size_t(widest));
    for (auto [c, n] : uses)
      if (n == 1 && !std::isdigit(static_cast<unsigned char>(c)))
        result += c;
  }
  for (char c : result)
    if (llvm::none_of(operands, [&](const Labelled &o) { return o.letters.find(c) != std::string::npos; }))
      return g.fail("the output letter '" + std::string(1, c) + "' is in no input");
  return success();
}

LogicalResult convertEinsum(GraphImporter &g, Outputs &out) {
  std::vector<Labelled> operands;
  std::string result;
  if (failed(parseEquation(g, operands, result)))
    return failure();
  // Reduce each operand alone, then fold them pairwise.
  auto neededAfter = [&](size_t i) {
    std::string need = result;
    for (size_t j = i + 1; j < operands.size(); ++j)
      need += operands[j].letters;
    return need;
  };
  Labelled acc = sumAway(g, takeDiagonals(g, operands[0]), neededAfter(0));
  for (size_t i = 1; i < operands.size(); ++i) {
    std::string need = neededAfter(i);
    Labelled next = sumAway(g, takeDiagonals(g, operands[i]), need + acc.letters);
    acc = sumAway(g, acc, need + next.letters);
    FailureOr<Labelled> product = contractPair(g, acc, next, need);
    if (failed(product))
      return failure();
    acc = *product;
  }
  acc = sumAway(g, acc, result);
  out.push_back(arrange(g, acc, result));
  return success();
}

} // namespace

void dlc::onnx_import::addEinsumConverters(llvm::StringMap<Converter> &t) { t["Einsum"] = convertEinsum; }
